import type { ReactNode } from "react";

/**
 * A wide table that scrolls sideways on a small screen. The scrolling box is focusable (with the caption as its
 * name), so a keyboard can scroll it too. `minWidth` is a Tailwind class written out in the caller, e.g.
 * "min-w-[40rem]", so that Tailwind sees it.
 */
export function ScrollTable({
  caption,
  minWidth,
  className = "",
  children,
}: {
  caption: string;
  minWidth: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard
      tabIndex={0}
      className={`overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-500 ${className}`}
    >
      <table className={`w-full ${minWidth} border-collapse text-sm`}>
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </section>
  );
}
