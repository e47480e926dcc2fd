import type { Language } from "#app/i18n/i18n.ts";
import type { MailMessage } from "./mail-message.ts";

/** The few words the layout adds itself, in each language a mail may be written in. */
const LAYOUT_TEXT: Record<Language, { fallback: string; sentBy: string }> = {
  en: {
    fallback: "If the button does not work, copy this address into your browser:",
    sentBy: "Sent by {site}",
  },
  de: {
    fallback: "Falls die Schaltfläche nicht funktioniert, kopieren Sie diese Adresse in Ihren Browser:",
    sentBy: "Gesendet von {site}",
  },
};

export function escapeHtml(value: string): string {
  return value
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;")
    .replaceAll("'", "&#39;");
}

/** Only absolute http(s) links go into a mail: a relative one would lead nowhere, `javascript:` anywhere. */
export function isMailLink(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === "https:" || parsed.protocol === "http:";
  } catch {
    return false;
  }
}

/**
 * The two bodies of a mail. Everything given is text and is escaped in the HTML; the HTML has inline styles
 * only (mail programs drop style sheets), no images, no remote resources and no tracking of any kind. The action
 * is a button in the HTML and a plain address in both parts, so that it works where links are not clickable.
 */
export function layoutMail(
  message: MailMessage,
  site: { name: string; baseUrl: string },
): { text: string; html: string } {
  const words = LAYOUT_TEXT[message.language] ?? LAYOUT_TEXT.en;
  const sentBy = words.sentBy.replace("{site}", site.name);
  const footer = message.footer ?? [];
  if (message.action && !isMailLink(message.action.url)) {
    throw new Error("A mail's action must be an absolute http(s) address");
  }

  const textBlocks = [site.name, ...message.paragraphs];
  if (message.action) textBlocks.push(`${message.action.label}:\n${message.action.url}`);
  textBlocks.push(...footer, `-- \n${sentBy}\n${site.baseUrl}`);
  const text = `${textBlocks.join("\n\n")}\n`;

  const paragraph = (value: string, style = "margin:0 0 16px") =>
    `<p style="${style}">${escapeHtml(value).replaceAll("\n", "<br>")}</p>`;
  const small = "margin:0 0 12px;font-size:14px;color:#52525b";
  const parts = [
    paragraph(site.name, "margin:0 0 24px;font-size:18px;font-weight:600"),
    ...message.paragraphs.map((value) => paragraph(value)),
  ];
  if (message.action) {
    const href = escapeHtml(message.action.url);
    parts.push(
      `<p style="margin:28px 0"><a href="${href}" style="display:inline-block;background:#4338ca;color:#ffffff;` +
        `text-decoration:none;padding:12px 20px;border-radius:8px;font-weight:600">${escapeHtml(message.action.label)}</a></p>`,
      `<p style="${small}">${escapeHtml(words.fallback)}<br>` +
        `<a href="${href}" style="color:#4338ca;word-break:break-all">${href}</a></p>`,
    );
  }
  parts.push(...footer.map((value) => paragraph(value, small)));
  parts.push(
    `<hr style="border:none;border-top:1px solid #e4e4e7;margin:24px 0 16px">`,
    `<p style="margin:0;font-size:13px;color:#52525b">${escapeHtml(sentBy)} · ` +
      `<a href="${escapeHtml(site.baseUrl)}" style="color:#4338ca">${escapeHtml(site.baseUrl)}</a></p>`,
  );
  const html = [
    "<!doctype html>",
    `<html lang="${message.language}">`,
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(message.subject)}</title></head>`,
    '<body style="margin:0;padding:24px;background:#f4f4f5;color:#18181b;' +
      "font-family:system-ui,-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;line-height:1.5\">",
    '<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:12px;padding:32px">',
    ...parts,
    "</div>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
  return { text, html };
}
