/**
 * Puts a text on the clipboard; false when the browser would not. The Clipboard API exists only on secure
 * pages (HTTPS, localhost): on a site served over plain HTTP the older copy command, from a selected text
 * area, still works. (Not in app/lib, whose modules all go into the chunk every page loads: vite.config.ts.)
 */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (navigator.clipboard) {
      await navigator.clipboard.writeText(text);
      return true;
    }
  } catch {
    // Refused (no permission, page not focused): the older way below may still be allowed.
  }
  const area = document.createElement("textarea");
  area.value = text;
  area.setAttribute("readonly", "");
  area.style.position = "fixed";
  area.style.opacity = "0";
  // Inside the open modal dialog when there is one: the page behind it cannot take focus or a selection.
  (document.querySelector("dialog:modal") ?? document.body).append(area);
  const focused = document.activeElement;
  area.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  area.remove();
  if (focused instanceof HTMLElement) focused.focus();
  return copied;
}
