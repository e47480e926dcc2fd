/**
 * Password recovery (/auth/forgot, /auth/reset): sent by those two routes' loaders (recovery-dictionary.ts), so that
 * no other page carries them.
 */
export const recoveryEn = {
  "recovery.forgot.title": "Forgot password",
  "recovery.forgot.heading": "Reset your password",
  "recovery.forgot.intro":
    "Enter the e-mail address of your account. If it has one, a link to choose a new password is sent there.",
  "recovery.forgot.submit": "Send the link",
  "recovery.forgot.sent": "Check your mail",
  "recovery.forgot.sentText":
    "If an account with the address {email} exists, a link to reset its password is on its way. It works once, within one hour.",
  "recovery.forgot.outbox":
    "This site sends no e-mail: no mail server is set up, so the link is filed in the site's outbox. If the site is yours, print the newest mail there with this command on the server:",
  "recovery.forgot.failed": "The link could not be requested",
  "recovery.backToSignIn": "Back to sign in",
  "recovery.reset.title": "Choose a new password",
  "recovery.reset.heading": "Choose a new password",
  "recovery.reset.intro": "For the account {email}. Afterwards every device signed in to it is signed out.",
  "recovery.reset.newPassword": "New password",
  "recovery.reset.submit": "Set the new password",
  "recovery.reset.failed": "The password was not changed",
  "recovery.reset.done": "Password changed",
  "recovery.reset.doneText": "Every device was signed out. Please sign in with your new password.",
  "recovery.reset.signIn": "Sign in",
  "recovery.reset.invalid": "This link does not work",
  "recovery.reset.invalidText":
    "The link has expired, was already used or was replaced by a newer one. Ask for a new link.",
  "recovery.reset.requestNew": "Ask for a new link",
} as const;
