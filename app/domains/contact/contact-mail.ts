import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import type { Language } from "#app/i18n/i18n.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";

/** What a contact message's mail to the owner says, in the owner's language (that of their account's mails). */
const CONTACT_MAIL: Record<
  Language,
  {
    subject: string;
    wrote: string;
    language: string;
    action: string;
    footer: string;
    languages: Record<Language, string>;
  }
> = {
  en: {
    subject: "{site}: message from {name}",
    wrote: "{name} <{email}> wrote through the contact form of {site} on {date}:",
    language: "Written in {language}.",
    action: "Open it in the admin area",
    footer:
      "Answer with your mail program's Reply: it goes to {email}. The message is also kept under Admin → Messages.",
    languages: { en: "English", de: "German" },
  },
  de: {
    subject: "{site}: Nachricht von {name}",
    wrote: "{name} <{email}> hat über das Kontaktformular von {site} am {date} geschrieben:",
    language: "Geschrieben auf {language}.",
    action: "Im Adminbereich öffnen",
    footer:
      "Antworten Sie mit „Antworten“ in Ihrem Mailprogramm: die Antwort geht an {email}. Die Nachricht ist auch unter Admin → Nachrichten gespeichert.",
    languages: { en: "Englisch", de: "Deutsch" },
  },
};

export function contactMail(input: {
  to: string;
  language: Language;
  siteName: string;
  /** The message in the admin area (absolute). */
  adminUrl: string;
  from: { name: string; email: string; message: string; language: Language };
  receivedAt: Date;
}): MailMessage {
  const words = CONTACT_MAIL[input.language];
  const date = dateTimeFormat(input.language === "de" ? "de-DE" : "en-GB", {
    dateStyle: "long",
    timeStyle: "short",
    timeZone: "UTC",
  }).format(input.receivedAt);
  const values: Record<string, string> = {
    site: input.siteName,
    name: input.from.name,
    email: input.from.email,
    date: `${date} UTC`,
    language: words.languages[input.from.language],
  };
  // One pass: a sender's name holding "{email}" stays as typed.
  const fill = (text: string) => text.replace(/\{(\w+)\}/g, (match, key: string) => values[key] ?? match);
  return {
    to: input.to,
    language: input.language,
    kind: "contact",
    subject: fill(words.subject),
    paragraphs: [fill(words.wrote), input.from.message, fill(words.language)],
    action: { label: words.action, url: input.adminUrl },
    footer: [fill(words.footer)],
    replyTo: { name: input.from.name, address: input.from.email },
  };
}
