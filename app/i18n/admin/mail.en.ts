/** Admin strings of mail: the Outbox screen, the dashboard's mail status, invites by e-mail (issue 10). */
export const adminMailEn = {
  "admin.section.outbox": "Outbox",
  "admin.section.outboxText": "Mails the site filed instead of sending them, readable here.",
  "admin.audit.areaName.mail": "Mail",

  // The Outbox screen
  "admin.outbox.introOutbox":
    "SMTP_URL is not set, so the site sends no mail: every mail is filed here instead (in the database, so every server process shows it) and deleted after 30 days. Open one to read it, for example a password-reset link someone asked for.",
  "admin.outbox.introSmtp":
    "Mail is sent through SMTP ({smtp}). The outbox is only used while SMTP_URL is unset; mails filed before are listed here until they are deleted, 30 days after they were filed.",
  "admin.outbox.count": "{count} mails in the outbox.",
  "admin.outbox.countLimited": "{count} mails in the outbox; the newest {shown} are listed.",
  "admin.outbox.empty": "The outbox is empty.",
  "admin.outbox.caption": "Filed mails, newest first",
  "admin.outbox.column.when": "Filed",
  "admin.outbox.column.to": "To",
  "admin.outbox.column.kind": "Kind",
  "admin.outbox.column.subject": "Subject",
  "admin.outbox.back": "Back to the outbox",
  "admin.outbox.headers": "Headers",
  "admin.outbox.header.from": "From",
  "admin.outbox.header.to": "To",
  "admin.outbox.header.date": "Date",
  "admin.outbox.header.subject": "Subject",
  "admin.outbox.header.language": "Language",
  "admin.outbox.header.kind": "Kind",
  "admin.outbox.header.id": "ID",
  "admin.outbox.textPart": "Text part",
  "admin.outbox.htmlPart": "HTML part",
  "admin.outbox.htmlPartHint":
    "As a mail program shows it. Nothing in it can run or load anything, and its links do not open here: copy them from the text part.",
  "admin.outbox.htmlFrameTitle": "The mail's HTML part",
  "admin.outbox.noHtml": "This mail has no HTML part.",

  // Dashboard
  "admin.mail.heading": "Mail",
  "admin.mail.smtp": "Mail is sent through SMTP ({smtp}) from {from}.",
  "admin.mail.outboxOnly":
    "Outbox only: SMTP_URL is not set, so mails (password resets, invites) are filed in the outbox instead of being sent. Read them there.",
  "admin.mail.openOutbox": "Open the outbox",
  "admin.mail.failuresHeading": "Failed deliveries",
  "admin.mail.failuresIntro":
    "These mails could not be delivered in the last 7 days. Check SMTP_URL and the mail server; whoever asked for one may need to ask again.",
  "admin.mail.failuresCaption": "Mails that could not be delivered, newest first",
  "admin.mail.column.when": "When",
  "admin.mail.column.to": "To",
  "admin.mail.column.kind": "Kind",
  "admin.mail.column.reason": "Reason",
  "admin.mail.dismiss": "Dismiss these notices",
  "admin.mail.dismissed": "The notices of failed deliveries are dismissed.",
  "admin.mail.error.form": "The form was not understood.",

  // Invites by e-mail
  "admin.invites.sendTitle": "Send a code by e-mail",
  "admin.invites.sendText":
    "A new code is made and mailed with its sign-up link and the site's name. Its note records the address.",
  "admin.invites.sendOutboxHint":
    "SMTP_URL is not set: the mail is filed in the outbox, not sent. Send the link yourself from there.",
  "admin.invites.email": "E-mail address",
  "admin.invites.mailLanguage": "Language of the mail",
  "admin.invites.sendButton": "Send by e-mail",
  "admin.invites.sending": "Sending…",
  "admin.invites.sent": "Invite code {code} sent to {email}.",
  "admin.invites.filed": "Invite code {code} for {email} filed in the outbox.",
  "admin.invites.sentTo": "sent to {email}",
  "admin.invites.error.email": "Enter an e-mail address such as name@example.com.",
  "admin.invites.error.mailLanguage": "Choose English or German.",
};
