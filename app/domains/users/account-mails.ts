import type { MailMessage } from "#app/domains/mail/mail-message.ts";
import type { Language } from "#app/i18n/i18n.ts";

/** The mails of password recovery and e-mail change, in the recipient's language. Links arrive absolute. */

const resetTexts = {
  en: {
    subject: "Reset your password",
    paragraphs: [
      "Someone (hopefully you) asked to reset the password of your account on this site.",
      "The link below lets you choose a new password. It works once, within one hour.",
    ],
    action: "Choose a new password",
    footer: [
      "If you did not ask for this, ignore this mail: your password stays as it is.",
      "After the reset every device signed in to your account is signed out.",
    ],
  },
  de: {
    subject: "Passwort zurücksetzen",
    paragraphs: [
      "Jemand (hoffentlich Sie) hat darum gebeten, das Passwort Ihres Kontos auf dieser Website zurückzusetzen.",
      "Mit dem Link unten wählen Sie ein neues Passwort. Er funktioniert einmal, innerhalb einer Stunde.",
    ],
    action: "Neues Passwort wählen",
    footer: [
      "Wenn Sie das nicht waren, ignorieren Sie diese E-Mail: Ihr Passwort bleibt, wie es ist.",
      "Nach dem Zurücksetzen werden alle an Ihrem Konto angemeldeten Geräte abgemeldet.",
    ],
  },
} satisfies Record<Language, unknown>;

export function passwordResetMail(to: string, language: Language, url: string): MailMessage {
  const texts = resetTexts[language];
  return {
    to,
    language,
    kind: "password-reset",
    subject: texts.subject,
    paragraphs: texts.paragraphs,
    action: { label: texts.action, url },
    footer: texts.footer,
  };
}

const confirmTexts = {
  en: {
    subject: "Confirm your new e-mail address",
    paragraphs: (oldEmail: string, newEmail: string) => [
      `You asked to change the e-mail address of your account from ${oldEmail} to ${newEmail}.`,
      "Open the link below and confirm with your password. It works once, within 24 hours.",
    ],
    action: "Confirm the new address",
    footer: ["If you did not ask for this, ignore this mail: nothing changes."],
  },
  de: {
    subject: "Bestätigen Sie Ihre neue E-Mail-Adresse",
    paragraphs: (oldEmail: string, newEmail: string) => [
      `Sie möchten die E-Mail-Adresse Ihres Kontos von ${oldEmail} zu ${newEmail} ändern.`,
      "Öffnen Sie den Link unten und bestätigen Sie mit Ihrem Passwort. Er funktioniert einmal, innerhalb von 24 Stunden.",
    ],
    action: "Neue Adresse bestätigen",
    footer: ["Wenn Sie das nicht waren, ignorieren Sie diese E-Mail: Es ändert sich nichts."],
  },
} satisfies Record<Language, unknown>;

export function emailChangeConfirmMail(
  input: { oldEmail: string; newEmail: string; language: Language },
  url: string,
): MailMessage {
  const texts = confirmTexts[input.language];
  return {
    to: input.newEmail,
    language: input.language,
    kind: "email-change",
    subject: texts.subject,
    paragraphs: texts.paragraphs(input.oldEmail, input.newEmail),
    action: { label: texts.action, url },
    footer: texts.footer,
  };
}

const noticeTexts = {
  en: {
    subject: "The e-mail address of your account was changed",
    paragraphs: (oldEmail: string, newEmail: string) => [
      `The e-mail address of your account was changed from ${oldEmail} to ${newEmail}.`,
      "Sign in with the new address from now on. Mails of this site no longer come to this address.",
    ],
    footer: ["If you did not do this, contact the site's owner at once."],
  },
  de: {
    subject: "Die E-Mail-Adresse Ihres Kontos wurde geändert",
    paragraphs: (oldEmail: string, newEmail: string) => [
      `Die E-Mail-Adresse Ihres Kontos wurde von ${oldEmail} zu ${newEmail} geändert.`,
      "Melden Sie sich ab jetzt mit der neuen Adresse an. E-Mails dieser Website gehen nicht mehr an diese Adresse.",
    ],
    footer: ["Wenn Sie das nicht waren, wenden Sie sich sofort an den Betreiber der Website."],
  },
} satisfies Record<Language, unknown>;

/** To the old address, after the change: no link (nothing to click in a mail that may be read by someone else). */
export function emailChangedNoticeMail(input: { oldEmail: string; newEmail: string; language: Language }): MailMessage {
  const texts = noticeTexts[input.language];
  return {
    to: input.oldEmail,
    language: input.language,
    kind: "email-changed",
    subject: texts.subject,
    paragraphs: texts.paragraphs(input.oldEmail, input.newEmail),
    footer: texts.footer,
  };
}
