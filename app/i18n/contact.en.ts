/** The contact page (/contact): sent by that route's loader (contact-dictionary.ts), so that no other page carries them. */
export const contactEn = {
  "contact.title": "Contact",
  "contact.intro":
    "Write to the owner of this site. Your message is mailed to them; your address is used only to answer you. Nothing else is recorded about you.",
  "contact.name": "Your name",
  "contact.email": "Your e-mail address",
  "contact.emailHint": "The answer goes here.",
  "contact.message": "Your message",
  "contact.messageHint": "At most {max} characters.",
  "contact.honeypot": "Leave this field empty",
  "contact.submit": "Send the message",
  "contact.sending": "Sending…",
  "contact.preparing": "Getting the message ready to send…",
  "contact.noScript":
    "Without JavaScript your message is accepted too, but fewer messages an hour can be sent that way.",
  "contact.sent": "Thank you, your message was sent",
  "contact.sentText": "The owner will read it and, if it needs an answer, write to {email}.",
  "contact.sendAnother": "Write another message",
  "contact.failed": "The message was not sent",
  "contact.fixFields": "Please correct the fields marked below. What you wrote is still there.",
  "contact.error.required": "Please fill this in.",
  "contact.error.tooLong": "At most {max} characters.",
  "contact.error.control": "This text holds characters that cannot be sent.",
  "contact.error.lineBreak": "One line only, please.",
  "contact.error.invalid": "This could not be read. Please type it again.",
  "contact.error.emailInvalid": "This is not an e-mail address. It looks like name@example.com.",
  "contact.error.expired":
    "This page was open for more than {hours} hours, so the message was not sent. What you wrote is still there: please send it again.",
  "contact.error.tooMany": "Too many messages were sent from here. Please try again in {minutes} minutes.",
};
