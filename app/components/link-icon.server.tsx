import { renderToStaticMarkup } from "react-dom/server";
import { LinkIcon } from "./link-icon.tsx";
import type { LinkEntry } from "./link-list.tsx";

const markupByName = new Map<string, string>();

/**
 * The icon of each link as SVG markup, drawn here rather than in the browser: the page then ships only the
 * icons it shows, not the whole set of 46. The markup comes from our own icon components, never from input.
 */
export function withIconMarkup<T extends Omit<LinkEntry, "iconSvg">>(links: T[]): (T & { iconSvg: string })[] {
  return links.map((link) => {
    let markup = markupByName.get(link.icon);
    if (markup === undefined) {
      markup = renderToStaticMarkup(
        <LinkIcon name={link.icon} className="size-5 shrink-0 text-indigo-700 dark:text-indigo-300" />,
      );
      // Names come from stored rows; unknown ones all draw the generic icon, so the map stays small.
      if (markupByName.size < 200) markupByName.set(link.icon, markup);
    }
    return { ...link, iconSvg: markup };
  });
}
