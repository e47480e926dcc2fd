/** The dashboard's first-run checklist (issue 11): each step, why it matters and where it is done. */
export const adminChecklistEn = {
  "admin.checklist.heading": "Before you share your site",
  "admin.checklist.intro": "A few steps make the site yours. Each one leaves this list once it is done.",
  "admin.checklist.legal-notice.title": "Write your legal notice",
  "admin.checklist.legal-notice.text": "The legal notice still shows the shipped template, in English or German.",
  "admin.checklist.legal-notice.link": "Edit the legal notice",
  "admin.checklist.privacy-policy.title": "Write your privacy policy",
  "admin.checklist.privacy-policy.text": "The privacy policy still shows the shipped template, in English or German.",
  "admin.checklist.privacy-policy.link": "Edit the privacy policy",
  "admin.checklist.home-text.title": "Write your home page",
  "admin.checklist.home-text.text":
    "The home page still greets visitors with the shipped text, in English and German. Tell them about yourself and your site.",
  "admin.checklist.home-text.link": "Edit the home page",
  "admin.checklist.share-description.title": "Describe your site for search and sharing",
  "admin.checklist.share-description.text":
    "Search results and link previews show the footer's general description of the site instead of your own.",
  "admin.checklist.share-description.link": "Write the description",
  "admin.checklist.first-pictures.title": "Upload your first pictures",
  "admin.checklist.first-pictures.text": "The gallery is empty.",
  "admin.checklist.first-pictures.link": "Open the gallery",
  "admin.checklist.watermark-text.title": "Choose your watermark text",
  "admin.checklist.watermark-text.text":
    "The large gallery images carry the text made from the site name. Write your own, or switch the watermark off.",
  "admin.checklist.watermark-text.link": "Set the watermark",
  "admin.checklist.mail.title": "Set up outgoing mail",
  "admin.checklist.mail.text":
    "No mail server is configured (SMTP_URL): invitations and password resets only reach the outbox here.",
  "admin.checklist.mail.link": "How mail is sent",
  "admin.checklist.two-factor.title": "Turn on two-factor sign-in",
  "admin.checklist.two-factor.text": "Admins without two-factor sign-in: {emails}",
  "admin.checklist.two-factor.link": "Set up two-factor sign-in",
  "admin.checklist.two-factor.linkOthers": "See the admins",
} as const;
