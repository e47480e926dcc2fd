import { useContext, useEffect, useRef } from "react";
import { UNSAFE_DataRouterContext, useRevalidator } from "react-router";
import { type LiveEvent, useLiveChanges, useLiveReset } from "./live-hooks.ts";

/** Changes arriving in a burst (a reorder, a batch of uploads) load the page's data once. */
const SETTLE_MS = 250;

/**
 * Whether a pointer is pressed on the page (a list being reordered by dragging, a button half-clicked): set by the
 * listeners below, shared by every hook.
 */
let pressed = false;
if (typeof window !== "undefined") {
  window.addEventListener("pointerdown", () => {
    pressed = true;
  });
  for (const end of ["pointerup", "pointercancel"] as const) {
    window.addEventListener(end, () => {
      pressed = false;
    });
  }
}

/**
 * Loads the page's data again when the server announces a change in one of `areas` (only changes the viewer may
 * see reach the browser), and after a reset (what was missed is unknown). `accept` narrows the events further.
 * Never under the person's hands: while a pointer is pressed (a drag reordering a list) or one of the page's own
 * saves is under way (React Router loads the data after it anyway), the load waits.
 */
export function useLiveRefresh(areas: string[], accept?: (events: LiveEvent[]) => boolean): void {
  const revalidator = useRevalidator();
  // Whether a navigation or a save is under way is read from the router itself when the load is due, not from
  // the last render: React renders the router's state in a transition, possibly well after a save has started,
  // and a load started meanwhile makes React Router drop the save's redirect (removing your own admin role left
  // you on the admin screen, showing "No access").
  const router = useContext(UNSAFE_DataRouterContext)?.router;
  const busy = () => {
    if (!router) return false;
    const { navigation, fetchers } = router.state;
    return navigation.state !== "idle" || [...fetchers.values()].some((fetcher) => fetcher.state !== "idle");
  };
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const schedule = () => {
    if (timer.current !== null) return;
    timer.current = setTimeout(function load() {
      if (pressed || busy()) {
        timer.current = setTimeout(load, SETTLE_MS);
        return;
      }
      timer.current = null;
      void revalidator.revalidate();
    }, SETTLE_MS);
  };
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current);
    },
    [],
  );
  useLiveChanges((events) => {
    if (!accept || accept(events)) schedule();
  }, areas);
  useLiveReset(schedule);
}
