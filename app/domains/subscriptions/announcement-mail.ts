import type { AnnouncedKind } from "#app/db/schema-members.ts";
import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import type { Language } from "#app/i18n/i18n.ts";

/*
 * The mail that announces a new item to a subscriber, in the subscriber's language: the item's title, its excerpt
 * and its link, laid out by the mail service like every other mail, with the unsubscribe link in the footer and in
 * the List-Unsubscribe headers.
 */

/** What a mail says of an item, in the recipient's language (German texts fall back to English when empty). */
export type AnnouncedItem = { kind: AnnouncedKind; title: string; excerpt: string; url: string };

const TEXT: Record<
  Language,
  { subject: Record<AnnouncedKind, string>; intro: Record<AnnouncedKind, string>; open: string; why: string }
> = {
  en: {
    subject: { post: "New post: {title}", album: "New album: {title}" },
    intro: { post: "A new post is out:", album: "A new album is out:" },
    open: "Read it",
    why: "You get this mail because you turned on mails about new content on your account page. Unsubscribe: {url}",
  },
  de: {
    subject: { post: "Neuer Beitrag: {title}", album: "Neues Album: {title}" },
    intro: { post: "Ein neuer Beitrag ist erschienen:", album: "Ein neues Album ist erschienen:" },
    open: "Jetzt lesen",
    why: "Sie erhalten diese Mail, weil Sie auf Ihrer Kontoseite Mails zu neuen Inhalten eingeschaltet haben. Abbestellen: {url}",
  },
};

/** The mail kind, shown in the outbox and logs. */
export const ANNOUNCEMENT_MAIL_KIND: Record<AnnouncedKind, string> = { post: "new-post", album: "new-album" };

export function announcementMail(input: {
  to: string;
  language: Language;
  item: AnnouncedItem;
  unsubscribeUrl: string;
}): MailMessage {
  const text = TEXT[input.language];
  const { item } = input;
  return {
    to: input.to,
    language: input.language,
    kind: ANNOUNCEMENT_MAIL_KIND[item.kind],
    subject: text.subject[item.kind].replace("{title}", item.title),
    paragraphs: [text.intro[item.kind], item.title, ...(item.excerpt.trim() ? [item.excerpt] : [])],
    action: { label: text.open, url: item.url },
    footer: [text.why.replace("{url}", input.unsubscribeUrl)],
    unsubscribeUrl: input.unsubscribeUrl,
  };
}
