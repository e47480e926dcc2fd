/**
 * A "Copy" button on each code block of a post body (server-rendered HTML, app/domains/posts/post-body.server.ts).
 * Made here, in the browser, because it cannot work without JavaScript: a page read without it has none. Loaded
 * by PostArticle only for a body that has code. The button copies the code's text (what the block shows, not its
 * markup), changes to "Copied" for a moment and says so in a polite live region.
 */
import { copyText } from "#app/components/copy-text.ts";

export type CodeCopyTexts = { copy: string; label: string; copied: string; failed: string };

/** How long the button says "Copied" before it offers to copy again. */
const SAID_MS = 2000;

/** Adds the buttons inside `body`; the function returned takes them away again (the body's HTML as it was). */
export function addCopyButtons(body: HTMLElement, texts: CodeCopyTexts): () => void {
  const undo: (() => void)[] = [];
  for (const pre of body.querySelectorAll<HTMLPreElement>("pre")) {
    const wrapper = document.createElement("div");
    wrapper.className = "code-block";
    const button = document.createElement("button");
    button.type = "button";
    button.className = "code-copy";
    const show = (text: string, name: string) => {
      button.textContent = text;
      button.setAttribute("aria-label", name);
    };
    show(texts.copy, texts.label);
    const status = document.createElement("span");
    status.setAttribute("role", "status");
    status.className = "sr-only";
    let timer: number | undefined;
    const onClick = async () => {
      const code = pre.querySelector("code") ?? pre;
      const copied = await copyText(code.textContent ?? "");
      const said = copied ? texts.copied : texts.failed;
      // Its name says the same as its text meanwhile (a name without the visible text confuses speech input).
      show(said, said);
      status.textContent = said;
      window.clearTimeout(timer);
      timer = window.setTimeout(() => {
        show(texts.copy, texts.label);
        status.textContent = "";
      }, SAID_MS);
    };
    button.addEventListener("click", onClick);
    pre.before(wrapper);
    wrapper.append(button, pre, status);
    undo.push(() => {
      window.clearTimeout(timer);
      button.removeEventListener("click", onClick);
      wrapper.before(pre);
      wrapper.remove();
    });
  }
  return () => {
    for (const step of undo) step();
  };
}
