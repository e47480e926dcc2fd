import type { accountTwoFactorEn } from "./two-factor.en.ts";

export const accountTwoFactorDe = {
  "account.twoFactor.title": "Zwei-Faktor-Anmeldung",
  "account.twoFactor.intro":
    "Mit der Zwei-Faktor-Anmeldung brauchen Sie zum Anmelden Ihr Passwort und einen sechsstelligen Code aus einer Authenticator-App auf Ihrem Telefon (etwa Aegis, FreeOTP, Google Authenticator oder 1Password).",
  "account.twoFactor.statusOn": "Die Zwei-Faktor-Anmeldung ist eingeschaltet.",
  "account.twoFactor.statusOff": "Die Zwei-Faktor-Anmeldung ist ausgeschaltet.",
  "account.twoFactor.codesLeft": "Übrige Wiederherstellungscodes: {count} von 10.",
  "account.twoFactor.requiredTitle": "Admins müssen die Zwei-Faktor-Anmeldung verwenden",
  "account.twoFactor.requiredText":
    "Diese Website verlangt die Zwei-Faktor-Anmeldung für Admins. Schalten Sie sie hier ein; danach öffnet sich der Adminbereich wieder.",
  "account.twoFactor.password": "Ihr Passwort",
  "account.twoFactor.passwordHint": "Damit wir sicher sind, dass Sie es sind.",
  "account.twoFactor.turnOn": "Zwei-Faktor-Anmeldung einschalten",
  "account.twoFactor.turnOnHeading": "Einschalten",
  "account.twoFactor.scanHeading": "Diese Website in Ihre Authenticator-App aufnehmen",
  "account.twoFactor.scanText":
    "Scannen Sie den QR-Code mit der App oder tippen Sie den Schlüssel unten ein. Geben Sie dann zum Abschluss den sechsstelligen Code ein, den die App anzeigt.",
  "account.twoFactor.qrLabel": "QR-Code für Ihre Authenticator-App",
  "account.twoFactor.secretLabel": "Schlüssel zum Eintippen",
  "account.twoFactor.code": "Code aus der App",
  "account.twoFactor.codeHint": "6 Ziffern.",
  "account.twoFactor.confirm": "Bestätigen und einschalten",
  "account.twoFactor.codesHeading": "Ihre Wiederherstellungscodes",
  "account.twoFactor.codesText":
    "Wenn Sie Ihr Telefon verlieren, meldet Sie jeder dieser Codes einmal an, statt eines Codes aus der App. Bewahren Sie sie jetzt sicher auf: Sie werden nur dieses eine Mal angezeigt.",
  "account.twoFactor.codesDownload": "Als Text herunterladen",
  "account.twoFactor.codesFileIntro": "Wiederherstellungscodes für {site} ({email}). Jeder gilt einmal.",
  "account.twoFactor.codesDone": "Ich habe sie gespeichert",
  "account.twoFactor.regenerateHeading": "Neue Wiederherstellungscodes",
  "account.twoFactor.regenerateText": "Erzeugt 10 neue Codes; die alten gelten dann nicht mehr.",
  "account.twoFactor.regenerate": "Neue Codes erzeugen",
  "account.twoFactor.turnOffHeading": "Ausschalten",
  "account.twoFactor.turnOffText": "Zum Anmelden genügt dann wieder Ihr Passwort.",
  "account.twoFactor.turnOff": "Zwei-Faktor-Anmeldung ausschalten",
  "account.twoFactor.enabled":
    "Die Zwei-Faktor-Anmeldung ist eingeschaltet. Speichern Sie Ihre Wiederherstellungscodes.",
  "account.twoFactor.disabled": "Die Zwei-Faktor-Anmeldung ist ausgeschaltet.",
  "account.twoFactor.regenerated": "Neue Wiederherstellungscodes erzeugt. Die alten gelten nicht mehr.",
  "account.twoFactor.failed": "Nicht geändert",
  "account.twoFactor.wrongPassword": "Das Passwort stimmt nicht.",
  "account.twoFactor.passwordRequired": "Geben Sie Ihr Passwort ein.",
  "account.twoFactor.wrongCode":
    "Der Code stimmt nicht. Prüfen Sie die Uhrzeit Ihres Telefons und nehmen Sie den neuesten Code.",
  "account.twoFactor.badCode": "Geben Sie die 6 Ziffern ein, die Ihre App anzeigt.",
  "account.twoFactor.alreadyOn": "Die Zwei-Faktor-Anmeldung ist schon eingeschaltet.",
  "account.twoFactor.notOn": "Die Zwei-Faktor-Anmeldung ist nicht eingeschaltet.",
  "account.twoFactor.startAgain": "Die Einrichtung ist abgelaufen. Beginnen Sie erneut mit Ihrem Passwort.",
  "account.twoFactor.tooManyAttempts": "Zu viele Versuche. Versuchen Sie es in {minutes} Minuten erneut.",
} satisfies Record<keyof typeof accountTwoFactorEn, string>;
