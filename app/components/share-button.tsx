import { type ReactNode, useEffect, useRef, useState } from "react";
import { copyText } from "#app/components/copy-text.ts";
import { useTranslate } from "#app/web/root-data.ts";

/**
 * Shares a page's address without any third party: the browser's own share sheet (Web Share API) where it
 * has one, else "Copy link". It needs JavaScript, so it renders nothing until the page is hydrated. What
 * happened is said in a polite live region beside it (visible as well).
 */
export function ShareButton({
  url,
  title,
  className,
  statusClassName,
  icons,
}: {
  /** The canonical address, absolute. */
  url: string;
  title: string;
  className: string;
  statusClassName: string;
  /** Shown instead of the text (which stays the button's name): one for Share, one for Copy link. */
  icons?: { share: ReactNode; copy: ReactNode };
}) {
  const t = useTranslate();
  const [canShare, setCanShare] = useState<boolean | null>(null);
  const [status, setStatus] = useState("");
  const clearTimer = useRef<number | undefined>(undefined);
  useEffect(() => {
    setCanShare(typeof navigator.share === "function");
    return () => window.clearTimeout(clearTimer.current);
  }, []);
  if (canShare === null) return null;

  const say = (text: string) => {
    setStatus(text);
    window.clearTimeout(clearTimer.current);
    clearTimer.current = window.setTimeout(() => setStatus(""), 4000);
  };
  const share = async () => {
    if (canShare) {
      try {
        await navigator.share({ title, url });
        return;
      } catch (error) {
        // Closed by the visitor: nothing to say. Refused for another reason: the link is copied instead.
        if (error instanceof DOMException && error.name === "AbortError") return;
      }
    }
    say((await copyText(url)) ? t("share.copied") : t("share.failed"));
  };
  const label = canShare ? t("share.share") : t("share.copyLink");
  return (
    <>
      <button
        type="button"
        onClick={share}
        aria-label={icons ? label : undefined}
        title={icons ? label : undefined}
        className={className}
      >
        {icons ? (canShare ? icons.share : icons.copy) : label}
      </button>
      <span role="status" className={statusClassName}>
        {status}
      </span>
    </>
  );
}
