import { Link2, Share2, ZoomIn, ZoomOut } from "lucide-react";
import { type RefObject, useEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";
import { ShareButton } from "#app/components/share-button.tsx";
import { notePictureSeen } from "#app/lib/picture-seen.ts";
import { useTranslate } from "#app/web/root-data.ts";
import { attachZoom, type ZoomController } from "./lightbox-zoom.ts";

/** Share of the view one arrow key moves a zoomed picture. */
const PAN_STEP = 0.15;

/**
 * The lightbox's controls that need JavaScript: zoom (buttons, keys, and the gestures of lightbox-zoom.ts) and
 * sharing. Loaded by the lightbox when it first opens, so the gallery's own code stays small; mounted per
 * picture (keyed by it), so each picture starts unzoomed.
 *
 * Keys: `+`/`-` zoom, `0` shows the whole picture; while zoomed the arrow keys move the picture (the buttons,
 * or `0` then the arrows, still go to the previous and next picture), unzoomed they go on to the neighbours.
 */
export default function LightboxTools(props: {
  dialog: RefObject<HTMLDialogElement | null>;
  viewport: RefObject<HTMLElement | null>;
  content: RefObject<HTMLElement | null>;
  /** The widest stored size, in pixels: zooming goes up to showing it at its own size. */
  widest: number;
  shareUrl: string;
  title: string;
  onZoomedChange: (zoomed: boolean) => void;
  buttonClass: string;
}) {
  const t = useTranslate();
  const zoom = useRef<ZoomController | null>(null);
  const { dialog, viewport, content, widest, onZoomedChange } = props;
  // The latest callback, without attaching the gestures again when the parent renders a new function.
  const onChange = useRef(onZoomedChange);
  onChange.current = onZoomedChange;

  // The site's statistics (issue 46) hear of a picture opened here, in the page: from the grid (a push that the
  // grid marks) or by a step (a replace). Not one the page was loaded or navigated to with (?image=): the server
  // counted that request itself. Once per picture: the tools are keyed by it.
  const navigationType = useNavigationType();
  const location = useLocation();
  const seen = useRef({ navigationType, location });
  useEffect(() => {
    const { navigationType: how, location: where } = seen.current;
    const fromGrid = (where.state as { lightboxFromGrid?: unknown } | null)?.lightboxFromGrid === true;
    const picture = new URLSearchParams(where.search).get("image");
    if (picture && (how === "REPLACE" || (how === "PUSH" && fromGrid))) notePictureSeen(picture, where.pathname);
  }, []);

  useEffect(() => {
    const [view, box, element] = [viewport.current, content.current, dialog.current];
    if (!view || !box || !element) return;
    let zoomed = false;
    const controller = attachZoom({
      viewport: view,
      content: box,
      widest: () => widest,
      onZoomedChange: (now) => {
        zoomed = now;
        onChange.current(now);
      },
    });
    zoom.current = controller;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const pan: Record<string, [number, number]> = {
        ArrowLeft: [-PAN_STEP, 0],
        ArrowRight: [PAN_STEP, 0],
        ArrowUp: [0, -PAN_STEP],
        ArrowDown: [0, PAN_STEP],
      };
      if (event.key === "+" || event.key === "=") controller.zoomIn();
      else if (event.key === "-" || event.key === "_") controller.zoomOut();
      else if (event.key === "0") controller.reset();
      else if (zoomed && event.key in pan) {
        const [dx, dy] = pan[event.key] ?? [0, 0];
        controller.pan(dx, dy);
      } else return;
      // Handled here: the lightbox's own key handler (previous/next) leaves it alone.
      event.preventDefault();
    };
    element.addEventListener("keydown", onKey);
    return () => {
      element.removeEventListener("keydown", onKey);
      controller.destroy();
      zoom.current = null;
      if (zoomed) onChange.current(false);
    };
  }, [dialog, viewport, content, widest]);

  return (
    <>
      <button
        type="button"
        onClick={() => zoom.current?.zoomOut()}
        aria-label={t("lightbox.zoomOut")}
        title={t("lightbox.zoomOut")}
        className={props.buttonClass}
      >
        <ZoomOut aria-hidden="true" className="size-6" />
      </button>
      <button
        type="button"
        onClick={() => zoom.current?.zoomIn()}
        aria-label={t("lightbox.zoomIn")}
        title={t("lightbox.zoomIn")}
        className={props.buttonClass}
      >
        <ZoomIn aria-hidden="true" className="size-6" />
      </button>
      <ShareButton
        url={props.shareUrl}
        title={props.title}
        icons={{
          share: <Share2 aria-hidden="true" className="size-6" />,
          copy: <Link2 aria-hidden="true" className="size-6" />,
        }}
        className={props.buttonClass}
        statusClassName="order-first text-sm text-zinc-100 empty:hidden"
      />
    </>
  );
}
