/**
 * Zoom and pan for the lightbox's picture, in plain DOM code: loaded by the lightbox (dynamic import) when it
 * opens, so the gallery's first load carries none of it. The transform is written to the element directly (no
 * React render per pointer move); React only hears whether the picture is zoomed, to load the largest size.
 *
 * - Wheel (and a trackpad's pinch, which the browser reports as a wheel with Ctrl) zooms around the pointer.
 * - Two pointers pinch (zoom around their midpoint, moving with it); one pointer drags a zoomed picture.
 * - A double click, or a double tap, zooms in around that point, and back out when zoomed.
 * - `zoomIn`, `zoomOut`, `reset`, `pan` are for the buttons and keys.
 */
export type ZoomController = {
  zoomIn: () => void;
  zoomOut: () => void;
  reset: () => void;
  /** Moves a zoomed picture by this share of the viewport (the arrow keys). */
  pan: (dxShare: number, dyShare: number) => void;
  readonly scale: number;
  destroy: () => void;
};

/** How much one step (button, key) zooms. */
const STEP = 1.5;
/** A double click or tap zooms to this, or to the largest size when that is less. */
const DOUBLE_SCALE = 3;
/** Zoomed to at least twice the fitted size, even when the largest size is not wider than the screen. */
const MIN_MAX_SCALE = 2;
const MAX_MAX_SCALE = 10;
const DOUBLE_TAP_MS = 300;
const DOUBLE_TAP_PX = 30;
/** A drag farther than this is a pan, not a tap. */
const TAP_SLOP_PX = 10;

type Point = { x: number; y: number };

export function attachZoom(options: {
  /** The area that takes gestures and clips the zoomed picture. */
  viewport: HTMLElement;
  /** The picture's box: it gets the transform (origin top left). */
  content: HTMLElement;
  /** The widest stored size in pixels: zooming stops where it is shown at its own size. */
  widest: () => number;
  /** Called when the scale moves between 1 and above. */
  onZoomedChange: (zoomed: boolean) => void;
}): ZoomController {
  const { viewport, content } = options;
  let scale = 1;
  let tx = 0;
  let ty = 0;
  let zoomed = false;
  const pointers = new Map<number, Point>();
  let pinch: { distance: number; scale: number; anchor: Point } | null = null;
  /** Whether the gesture under way has had two fingers (its end is then no tap). */
  let pinched = false;
  let drag: { start: Point; tx: number; ty: number; moved: boolean } | null = null;
  let lastTap: { time: number; point: Point } | null = null;
  let lastPointerType = "mouse";

  content.style.transformOrigin = "0 0";

  const maxScale = () => {
    const shown = content.offsetWidth || 1;
    return Math.min(MAX_MAX_SCALE, Math.max(MIN_MAX_SCALE, options.widest() / shown));
  };

  /**
   * The content's box without the transform, in client coordinates: from its layout offsets, which a transform
   * (also one still gliding) does not move.
   */
  const baseBox = () => {
    const parent = content.offsetParent instanceof HTMLElement ? content.offsetParent : null;
    const origin = parent?.getBoundingClientRect() ?? { left: 0, top: 0 };
    return {
      left: origin.left + (parent?.clientLeft ?? 0) + content.offsetLeft,
      top: origin.top + (parent?.clientTop ?? 0) + content.offsetTop,
      width: content.offsetWidth,
      height: content.offsetHeight,
    };
  };

  /** Keeps the picture over the viewport: centred along an axis where it is smaller, edge to edge otherwise. */
  const clamp = () => {
    if (scale <= 1) {
      tx = 0;
      ty = 0;
      return;
    }
    const base = baseBox();
    const view = viewport.getBoundingClientRect();
    const axis = (offset: number, start: number, size: number, viewStart: number, viewSize: number) => {
      const scaled = size * scale;
      if (scaled <= viewSize) return viewStart + (viewSize - scaled) / 2 - start;
      return Math.min(viewStart - start, Math.max(viewStart + viewSize - scaled - start, offset));
    };
    tx = axis(tx, base.left, base.width, view.left, view.width);
    ty = axis(ty, base.top, base.height, view.top, view.height);
  };

  const apply = (animate: boolean) => {
    clamp();
    // Steps (buttons, keys, double click) glide unless reduced motion is asked for; gestures follow the finger.
    const reduced = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    content.style.transition = animate && !reduced ? "transform 150ms ease-out" : "none";
    content.style.transform = scale === 1 ? "" : `translate(${tx}px, ${ty}px) scale(${scale})`;
    // Zoomed, every drag pans the picture (the page itself cannot scroll behind a modal dialog).
    viewport.style.touchAction = scale > 1 ? "none" : "";
    viewport.style.cursor = scale > 1 ? (drag ? "grabbing" : "grab") : "";
    const now = scale > 1;
    if (now !== zoomed) {
      zoomed = now;
      options.onZoomedChange(now);
    }
  };

  /** Zooms to `next`, keeping the picture's point under `at` (client coordinates) where it is. */
  const zoomTo = (next: number, at: Point, animate: boolean) => {
    const target = Math.min(maxScale(), Math.max(1, next));
    const base = baseBox();
    const local = { x: (at.x - base.left - tx) / scale, y: (at.y - base.top - ty) / scale };
    scale = target < 1.01 ? 1 : target;
    tx = at.x - base.left - local.x * scale;
    ty = at.y - base.top - local.y * scale;
    apply(animate);
  };

  const viewCentre = (): Point => {
    const view = viewport.getBoundingClientRect();
    return { x: view.left + view.width / 2, y: view.top + view.height / 2 };
  };

  const toggleAt = (at: Point) => {
    if (scale > 1) zoomTo(1, at, true);
    else zoomTo(Math.min(DOUBLE_SCALE, maxScale()), at, true);
  };

  const onWheel = (event: WheelEvent) => {
    event.preventDefault();
    // Lines and pages (Firefox's mouse wheels) count as about 40 and 800 pixels.
    const unit = event.deltaMode === 1 ? 40 : event.deltaMode === 2 ? 800 : 1;
    const delta = Math.max(-200, Math.min(200, event.deltaY * unit));
    zoomTo(scale * Math.exp(-delta * 0.004), { x: event.clientX, y: event.clientY }, false);
  };

  const distance = (a: Point, b: Point) => Math.hypot(a.x - b.x, a.y - b.y);
  const midpoint = (a: Point, b: Point): Point => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });

  const startPinch = () => {
    const [a, b] = [...pointers.values()];
    if (!a || !b) return;
    const mid = midpoint(a, b);
    const base = baseBox();
    pinch = {
      distance: distance(a, b) || 1,
      scale,
      anchor: { x: (mid.x - base.left - tx) / scale, y: (mid.y - base.top - ty) / scale },
    };
    pinched = true;
    drag = null;
  };

  const onPointerDown = (event: PointerEvent) => {
    lastPointerType = event.pointerType;
    if (event.pointerType === "mouse" && event.button !== 0) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pointers.size === 2) startPinch();
    else if (pointers.size === 1 && scale > 1) {
      drag = { start: { x: event.clientX, y: event.clientY }, tx, ty, moved: false };
      // The browser would otherwise start dragging the picture itself out of the page.
      event.preventDefault();
    }
  };

  const onPointerMove = (event: PointerEvent) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
    if (pinch && pointers.size >= 2) {
      const [a, b] = [...pointers.values()];
      if (!a || !b) return;
      const mid = midpoint(a, b);
      const base = baseBox();
      scale = Math.min(maxScale(), Math.max(1, (pinch.scale * distance(a, b)) / pinch.distance));
      tx = mid.x - base.left - pinch.anchor.x * scale;
      ty = mid.y - base.top - pinch.anchor.y * scale;
      apply(false);
    } else if (drag) {
      const dx = event.clientX - drag.start.x;
      const dy = event.clientY - drag.start.y;
      if (!drag.moved && Math.hypot(dx, dy) > TAP_SLOP_PX) {
        drag.moved = true;
        viewport.setPointerCapture?.(event.pointerId);
      }
      if (!drag.moved) return;
      tx = drag.tx + dx;
      ty = drag.ty + dy;
      apply(false);
    }
  };

  const onPointerUp = (event: PointerEvent) => {
    if (!pointers.has(event.pointerId)) return;
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    const moved = drag?.moved ?? false;
    if (pointers.size > 0) return;
    drag = null;
    const afterPinch = pinched;
    pinched = false;
    apply(false);
    // A double tap (touch; a mouse has dblclick) toggles the zoom where it lands; the last finger of a pinch is no tap.
    if (event.pointerType !== "touch" || afterPinch || moved || event.type === "pointercancel") return;
    const point = { x: event.clientX, y: event.clientY };
    const now = event.timeStamp;
    if (lastTap && now - lastTap.time < DOUBLE_TAP_MS && distance(lastTap.point, point) < DOUBLE_TAP_PX) {
      lastTap = null;
      toggleAt(point);
    } else lastTap = { time: now, point };
  };

  const onDoubleClick = (event: MouseEvent) => {
    if (lastPointerType === "touch") return;
    event.preventDefault();
    toggleAt({ x: event.clientX, y: event.clientY });
  };

  // A window that changes size changes the fitted size: start again from it.
  const onResize = () => {
    scale = 1;
    apply(false);
  };

  viewport.addEventListener("wheel", onWheel, { passive: false });
  viewport.addEventListener("pointerdown", onPointerDown);
  viewport.addEventListener("pointermove", onPointerMove);
  viewport.addEventListener("pointerup", onPointerUp);
  viewport.addEventListener("pointercancel", onPointerUp);
  viewport.addEventListener("dblclick", onDoubleClick);
  window.addEventListener("resize", onResize);

  return {
    zoomIn: () => zoomTo(scale * STEP, viewCentre(), true),
    zoomOut: () => zoomTo(scale / STEP, viewCentre(), true),
    reset: () => zoomTo(1, viewCentre(), true),
    pan: (dxShare, dyShare) => {
      const view = viewport.getBoundingClientRect();
      tx -= dxShare * view.width;
      ty -= dyShare * view.height;
      apply(true);
    },
    get scale() {
      return scale;
    },
    destroy: () => {
      viewport.removeEventListener("wheel", onWheel);
      viewport.removeEventListener("pointerdown", onPointerDown);
      viewport.removeEventListener("pointermove", onPointerMove);
      viewport.removeEventListener("pointerup", onPointerUp);
      viewport.removeEventListener("pointercancel", onPointerUp);
      viewport.removeEventListener("dblclick", onDoubleClick);
      window.removeEventListener("resize", onResize);
      scale = 1;
      content.style.transform = "";
      content.style.transition = "";
      viewport.style.touchAction = "";
      viewport.style.cursor = "";
    },
  };
}
