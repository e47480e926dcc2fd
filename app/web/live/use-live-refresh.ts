import { useEffect, useRef } from "react";
import { useFetchers, useNavigation, useRevalidator } from "react-router";
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
  const navigation = useNavigation();
  const fetchers = useFetchers();
  const busy = navigation.state !== "idle" || fetchers.some((fetcher) => fetcher.state !== "idle");
  const busyRef = useRef(busy);
  busyRef.current = busy;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const schedule = () => {
    if (timer.current !== null) return;
    timer.current = setTimeout(function load() {
      if (pressed || busyRef.current) {
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
