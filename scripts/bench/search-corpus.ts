/*
 * Realistic text for the search section's data (scripts/bench/search.ts): titles, descriptions, alt texts, post
 * bodies of a few hundred words, tags and categories in English and German, made from vocabularies of real words
 * (nouns, verbs, adjectives, the small words between them) so that the index holds stems, compounds and word
 * frequencies like a photographer's site would. Seeded, so that every run indexes the same text.
 */

const EN = {
  nouns: `mountain valley river lake forest meadow village city street bridge tower castle church harbour beach
    island coast cliff glacier summit ridge path trail hut cabin garden park market square station train boat
    ship lighthouse sunset sunrise morning evening night winter summer autumn spring snow rain fog storm cloud
    light shadow reflection colour stone rock sand water wave wind sky star moon tree flower leaf branch bird
    eagle deer fox horse cow sheep dog cat portrait face hand window door roof wall staircase alley cafe
    festival concert crowd traveller photographer camera lens film print exhibition journey weekend holiday
    hike climb walk view panorama landscape detail texture pattern silhouette horizon field vineyard orchard
    farm barn mill canal fountain monument museum library theatre cathedral ruin fortress waterfall canyon
    desert dune volcano cave spring stream pond marsh heath moor`,
  verbs: `walked climbed waited watched photographed crossed followed reached found saw heard felt carried
    stopped started turned returned travelled drove sailed rode explored discovered remembered noticed chose
    framed captured printed edited shared visited`,
  adjectives: `old new quiet busy golden blue green grey red white dark bright warm cold wet dry steep narrow
    wide long short high low early late soft sharp calm wild misty frozen sunny rainy lonely crowded ancient
    modern small large hidden famous beautiful simple strange`,
  small: `the a an and but or of in on at to from with without over under after before during near through
    across along behind above below while when where because so then there here this that these those it we
    i they our my their was were is are had has have been very still almost only again`,
  tags: `travel hiking alps mountains city night architecture nature wildlife portrait street film analog
    black-and-white landscape seascape winter summer autumn spring gear workshop exhibition print`,
  categories: ["Landscape", "City", "Nature", "Portrait", "Architecture", "Travel", "Wildlife", "Night"],
};

const DE = {
  nouns: `Berg Tal Fluss See Wald Wiese Dorf Stadt Straße Brücke Turm Burg Kirche Hafen Strand Insel Küste
    Klippe Gletscher Gipfel Grat Weg Wanderweg Hütte Alpenhütte Garten Park Markt Marktplatz Bahnhof Zug Boot
    Schiff Leuchtturm Sonnenuntergang Sonnenaufgang Morgen Abend Nacht Winter Sommer Herbst Frühling Schnee
    Regen Nebel Sturm Wolke Licht Schatten Spiegelung Farbe Stein Fels Sand Wasser Welle Wind Himmel Stern Mond
    Baum Blume Blatt Ast Vogel Adler Reh Fuchs Pferd Kuh Schaf Hund Katze Porträt Gesicht Hand Fenster Tür Dach
    Mauer Treppe Gasse Café Fest Konzert Menge Reisende Fotograf Kamera Objektiv Film Abzug Ausstellung Reise
    Wochenende Urlaub Wanderung Kletterei Spaziergang Aussicht Panorama Landschaft Bergsee Kirchturm
    Weinberg Obstgarten Bauernhof Scheune Mühle Kanal Brunnen Denkmal Museum Bibliothek Theater Dom Ruine
    Festung Wasserfall Schlucht Wüste Düne Vulkan Höhle Quelle Bach Teich Moor Heide Straßenbahn Gewitter
    Abendlicht Morgennebel Dorfkirche Felswand Seeufer Schneefeld`,
  verbs: `wanderten stiegen warteten beobachteten fotografierten überquerten folgten erreichten fanden sahen
    hörten fühlten trugen hielten begannen kehrten reisten fuhren segelten ritten erkundeten entdeckten
    erinnerten bemerkten wählten rahmten druckten bearbeiteten teilten besuchten`,
  adjectives: `alte neue ruhige belebte goldene blaue grüne graue rote weiße dunkle helle warme kalte nasse
    trockene steile schmale weite lange kurze hohe tiefe frühe späte sanfte scharfe stille wilde neblige
    gefrorene sonnige regnerische einsame volle uralte moderne kleine große verborgene berühmte schöne
    einfache seltsame`,
  small: `der die das ein eine und aber oder von in auf an zu aus mit ohne über unter nach vor während bei
    durch entlang hinter oberhalb unterhalb als wenn wo weil so dann dort hier dieser jene es wir ich sie
    unser mein ihr war waren ist sind hatte hat haben sehr noch fast nur wieder`,
  tags: `reisen wandern alpen berge stadt nacht architektur natur tiere porträt straße film analog
    schwarzweiß landschaft meer winter sommer herbst frühling ausrüstung workshop ausstellung abzug`,
  categories: ["Landschaft", "Stadt", "Natur", "Porträt", "Architektur", "Reise", "Tiere", "Nacht"],
};

const words = (text: string) => text.split(/\s+/).filter(Boolean);
const VOCABULARY = {
  en: {
    ...EN,
    nouns: words(EN.nouns),
    verbs: words(EN.verbs),
    adjectives: words(EN.adjectives),
    small: words(EN.small),
    tags: words(EN.tags),
  },
  de: {
    ...DE,
    nouns: words(DE.nouns),
    verbs: words(DE.verbs),
    adjectives: words(DE.adjectives),
    small: words(DE.small),
    tags: words(DE.tags),
  },
};

/** A word that few items hold (about 1 in 200): the "few results" query. */
export const RARE_WORD = { en: "zeppelin", de: "Zeppelin" };

type Lang = "en" | "de";

export class Corpus {
  private readonly next: () => number;
  constructor(next: () => number) {
    this.next = next;
  }

  /** A whole number from min up to (not including) max. */
  between(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min));
  }

  pick<T>(list: readonly T[]): T {
    // Squared: some words far more often than others, as in real text.
    return list[Math.floor(this.next() ** 2 * list.length)] as T;
  }

  #phrase(lang: Lang, length: number): string[] {
    const v = VOCABULARY[lang];
    const out: string[] = [];
    while (out.length < length) {
      const roll = this.next();
      if (roll < 0.35) out.push(this.pick(v.small));
      else if (roll < 0.7) out.push(this.pick(v.nouns));
      else if (roll < 0.85) out.push(this.pick(v.adjectives));
      else out.push(this.pick(v.verbs));
    }
    return out;
  }

  #sentence(lang: Lang, length: number, rare = false): string {
    const phrase = this.#phrase(lang, length);
    if (rare) phrase.splice(Math.floor(this.next() * phrase.length), 0, RARE_WORD[lang]);
    const text = phrase.join(" ");
    return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
  }

  /** A title of 3–6 words, its words capitalised as titles are. */
  title(lang: Lang): string {
    const v = VOCABULARY[lang];
    const parts = [this.pick(v.adjectives), this.pick(v.nouns), this.pick(v.small), this.pick(v.nouns)];
    if (this.next() < 0.5) parts.push(this.pick(v.nouns));
    return parts.map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`).join(" ");
  }

  /** One or two sentences (a picture's description, an alt text, a post's excerpt). */
  short(lang: Lang, rare = false): string {
    const sentences = [this.#sentence(lang, 8 + Math.floor(this.next() * 10), rare)];
    if (this.next() < 0.5) sentences.push(this.#sentence(lang, 6 + Math.floor(this.next() * 8)));
    return sentences.join(" ");
  }

  /** A post body in Markdown: `words` words in paragraphs of 3–6 sentences, a heading now and then. */
  body(lang: Lang, words: number, rare = false): string {
    const paragraphs: string[] = [];
    let count = 0;
    while (count < words) {
      const sentences: string[] = [];
      const length = 3 + Math.floor(this.next() * 4);
      for (let index = 0; index < length; index++) {
        const size = 8 + Math.floor(this.next() * 14);
        sentences.push(this.#sentence(lang, size, rare && paragraphs.length === 0 && index === 0));
        count += size;
      }
      if (paragraphs.length > 0 && this.next() < 0.2) paragraphs.push(`## ${this.title(lang)}`);
      paragraphs.push(sentences.join(" "));
    }
    return paragraphs.join("\n\n");
  }

  tags(lang: Lang, count: number): string[] {
    const tags = new Set<string>();
    while (tags.size < count) tags.add(this.pick(VOCABULARY[lang].tags));
    return [...tags];
  }

  category(): { category: string; category_de: string } {
    const index = Math.floor(this.next() * EN.categories.length);
    return { category: EN.categories[index] as string, category_de: DE.categories[index] as string };
  }
}
