import type { searchEn } from "./search.en.ts";

export const searchDe = {
  "search.title": "Suche",
  "search.intro": "Finden Sie Beiträge, Bilder, Fragen, Videos und Links auf dieser Website.",
  "search.label": "Die Website durchsuchen",
  "search.submit": "Suchen",
  "search.hint":
    "Wörter werden in jeder Form gefunden („Fotos“ findet „Foto“); das letzte Wort darf auch nur ein Wortanfang sein.",
  "search.resultsLabel": "Suchergebnisse",
  "search.count": "{count} Ergebnisse für „{query}“",
  "search.countOne": "1 Ergebnis für „{query}“",
  "search.countMany": "Mehr als {count} Ergebnisse für „{query}“. Ein weiteres Wort grenzt sie ein.",
  "search.none": "Nichts gefunden für „{query}“.",
  "search.suggestions":
    "Versuchen Sie weniger oder andere Wörter, prüfen Sie die Schreibweise oder geben Sie nur den Anfang eines Wortes ein. Zum Stöbern gibt es auch diese Seiten:",
  "search.tooMany":
    "Zu viele Suchen von Ihrer Adresse. Bitte warten Sie {seconds} Sekunden und versuchen Sie es erneut.",
  "search.kind.post": "Beitrag",
  "search.kind.picture": "Bild",
  "search.kind.faq": "Frage",
  "search.kind.video": "Video",
  "search.kind.link": "Link",
  "search.pages": "Ergebnisseiten",
  "search.previous": "Vorherige Ergebnisse",
  "search.next": "Weitere Ergebnisse",
  "search.pageOf": "Seite {page} von {count}",
} satisfies Record<keyof typeof searchEn, string>;
