import {
  cloneElement,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { buttonClass } from "./button.tsx";

/**
 * Asks before a consequential action. `trigger` is the button that opens it (rendered as is);
 * `onConfirm` runs when the person confirms. The confirming button is red unless the action destroys nothing
 * (`confirmVariant: "primary"`, such as giving someone the admin role). Without a trigger, `open` and
 * `onOpenChange` open and close it from outside (a question the page asks by itself, such as unsaved changes).
 *
 * The browser's own modal <dialog> (showModal): it keeps focus inside, makes the page behind inert, closes on
 * Escape and gives focus back when it closes, and it needs no <style> element of its own. A dialog library
 * that locked the page's scrolling by adding one (with sizes measured at run time, so no hash could allow it)
 * broke the Content-Security-Policy each time it opened; here the scrolling is locked by app.css.
 */
export function ConfirmDialog(props: {
  trigger?: ReactNode;
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  confirmVariant?: "danger" | "primary";
}) {
  const [ownOpen, setOwnOpen] = useState(false);
  const open = props.open ?? ownOpen;
  const setOpen = (next: boolean) => {
    if (props.open === undefined) setOwnOpen(next);
    props.onOpenChange?.(next);
  };
  const trigger = isValidElement<{ onClick?: (event: MouseEvent<HTMLElement>) => void }>(props.trigger)
    ? cloneElement(
        props.trigger as ReactElement<{ onClick?: (event: MouseEvent<HTMLElement>) => void }>,
        {
          "aria-haspopup": "dialog",
          onClick: (event: MouseEvent<HTMLElement>) => {
            (props.trigger as ReactElement<{ onClick?: (event: MouseEvent<HTMLElement>) => void }>).props.onClick?.(
              event,
            );
            if (!event.defaultPrevented) setOpen(true);
          },
        } as Record<string, unknown>,
      )
    : props.trigger;
  return (
    <>
      {trigger}
      {open ? <ModalQuestion {...props} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ModalQuestion(props: {
  title: string;
  description: string;
  confirmLabel: string;
  cancelLabel: string;
  onConfirm: () => void;
  confirmVariant?: "danger" | "primary";
  onClose: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  const id = useId();
  // Layout effect: its clean-up runs while the dialog is still in the document, so closing it gives focus back.
  useLayoutEffect(() => {
    const element = dialog.current;
    if (!element) return;
    const before = document.activeElement;
    element.showModal();
    // The harmless answer first, as an alert dialog should.
    cancel.current?.focus();
    return () => {
      element.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  // In <body>, not where the trigger is: a dialog inherits its parent's text styles, and one inside a form
  // would be part of it.
  return createPortal(
    <dialog
      ref={dialog}
      role="alertdialog"
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      data-confirm-dialog=""
      // Escape: the browser would close the dialog by itself; the owner of `open` decides instead.
      onCancel={(event) => {
        event.preventDefault();
        props.onClose();
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-xl border border-zinc-200 bg-white p-6 text-zinc-900 shadow-xl backdrop:bg-black/50 dark:border-zinc-700 dark:bg-zinc-900 dark:text-zinc-100"
    >
      <h2 id={`${id}-title`} className="text-lg font-semibold">
        {props.title}
      </h2>
      <p id={`${id}-text`} className="mt-2 text-sm text-zinc-600 dark:text-zinc-300">
        {props.description}
      </p>
      <div className="mt-6 flex justify-end gap-2">
        <button ref={cancel} type="button" className={buttonClass("secondary")} onClick={props.onClose}>
          {props.cancelLabel}
        </button>
        <button
          type="button"
          className={buttonClass(props.confirmVariant ?? "danger")}
          onClick={() => {
            props.onConfirm();
            props.onClose();
          }}
        >
          {props.confirmLabel}
        </button>
      </div>
    </dialog>,
    document.body,
  );
}
