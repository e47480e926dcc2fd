import type { adminPostRulesEn } from "./post-rules.en.ts";

export const adminPostRulesDe = {
  "admin.posts.error.slug":
    "Verwenden Sie Kleinbuchstaben a–z, Ziffern und einzelne Bindestriche dazwischen (z. B. mein-erster-beitrag).",
  "admin.posts.error.slugTaken": "Ein anderer Beitrag hat oder hatte diese Adresse. Bitte wählen Sie eine andere.",
  "admin.posts.error.tag":
    "Ein Schlagwort besteht aus Buchstaben, Ziffern, Leerzeichen und - _ . + # und hat höchstens 40 Zeichen.",
  "admin.posts.error.tooManyTags": "Höchstens 20 Schlagwörter.",
  "admin.posts.error.cover": "Dieses Titelbild gibt es nicht (mehr). Bitte laden Sie es erneut hoch.",
  "admin.posts.error.visibility": "Wählen Sie, wer den Beitrag sehen darf: alle, Mitglieder oder Gruppen.",
  "admin.posts.error.groupsNeeded": "Wählen Sie mindestens eine Gruppe oder eine andere Sichtbarkeit.",
  "admin.posts.error.groups": "Eine dieser Gruppen gibt es nicht (mehr). Bitte neu wählen.",
  "admin.posts.error.status": "Bitte wählen Sie Entwurf, geplant oder veröffentlicht.",
  "admin.posts.error.publishAt": "Bitte geben Sie ein Datum und eine Uhrzeit ein.",
  "admin.posts.error.publishAtPast":
    "Ein geplanter Beitrag braucht eine Zeit in der Zukunft. Um ihn jetzt zu veröffentlichen, wählen Sie „Veröffentlichen“.",
} satisfies Record<keyof typeof adminPostRulesEn, string>;
