import { DEFAULT_MENU_ORDER } from "#app/domains/content/menu-sections.ts";
import type { SiteImageKind } from "./site-images.ts";

/**
 * Every site setting and the rules that belong to it, in one place (decision 008): the settings service, the admin
 * form, the first-run checklist, the backup test and the dictionaries' test read this; nothing else lists keys.
 * Client-safe: the admin form imports it.
 */

/** How the admin screen edits a setting, and what the server accepts for it (settings-form.ts). */
export type SettingKind =
  | "text"
  | "longText"
  | "markdown"
  | "url"
  | "path"
  | "boolean"
  | "email"
  | "menuOrder"
  | "theme"
  | "retention";

/** The longest value each kind of text accepts (the form's `maxLength`, the server's check and its message). */
export const SETTING_LIMITS = {
  text: 200,
  longText: 1000,
  markdown: 20_000,
  url: 2000,
  path: 2000,
  email: 254,
} as const;

/** The sections of the settings screen, in the order a site owner thinks of them; each is saved on its own. */
export const SETTING_GROUP_IDS = [
  "identity",
  "home",
  "pages",
  "footer",
  "legal",
  "watermark",
  "sharing",
  "contact",
  "statistics",
  "security",
] as const;
export type SettingGroupId = (typeof SETTING_GROUP_IDS)[number];

/**
 * What a save does beyond writing the row. Every write also moves the database's change version, which drops the
 * kept pages (decision 001), so the page cache needs no entry here.
 * - `watermark-redraw`: the gallery's drawn watermarks are redrawn (settings-admin.server.ts);
 * - `site-image-cleanup`: the files of an uploaded site image the setting no longer names are removed.
 */
export type SaveEffect = "watermark-redraw" | "site-image-cleanup";

export type SettingSpec = {
  /** The section of the admin form it is edited in. */
  group: SettingGroupId;
  kind: SettingKind;
  default: string;
  /** Declares the German twin `<key>_de` with this default: same kind, group and limit; empty falls back. */
  de?: string;
  /** Whether what it holds reaches visitors' pages (false: it steers the admin side or the server only). */
  visitors: boolean;
  effects?: readonly SaveEffect[];
  /** Stored empty until the owner writes something; shown as a text made from `site_name` (brand.ts). */
  followsSiteName?: true;
  /** The kind of uploaded site image it names (site-images.ts): the form offers the upload beside it. */
  siteImage?: SiteImageKind;
  /**
   * What earlier versions shipped (English, German). Upgrades never overwrite a stored value (an owner may have
   * kept the old text on purpose), so these count as "not the owner's own yet" (the dashboard's checklist).
   */
  former?: readonly string[];
  formerDe?: readonly string[];
  /**
   * No longer does anything: still stored, so that backups and `/api/settings` keep their shape, but not edited
   * in the admin form, and ignored when a form from before posts it.
   */
  retired?: true;
};

/** How long the statistics' daily sums are kept, in days ("0": for ever). */
export const RETENTION_CHOICES = ["0", "30", "90", "365", "730"] as const;

const WATERMARK: readonly SaveEffect[] = ["watermark-redraw"];
const SITE_IMAGE: readonly SaveEffect[] = ["site-image-cleanup"];

/** In each group the order of its fields on the form. */
export const SETTING_REGISTRY = {
  // Site identity. Empty brand texts (logo text, footer name, copyright, watermark) follow `site_name`: brand.ts.
  // A new site name changes a watermark that follows it; the refresh redraws only images whose text differs.
  site_name: { group: "identity", kind: "text", default: "Vitrine", visitors: true, effects: WATERMARK },
  site_logo_text: { group: "identity", kind: "text", default: "", visitors: true, followsSiteName: true },
  site_logo_url: {
    group: "identity",
    kind: "path",
    default: "",
    visitors: true,
    siteImage: "logo",
    effects: SITE_IMAGE,
  },
  site_favicon_url: {
    group: "identity",
    kind: "path",
    default: "",
    visitors: true,
    siteImage: "favicon",
    effects: SITE_IMAGE,
  },
  // The theme of a visitor who has not chosen one: "dark", "light", or "system" (the browser's colour scheme).
  default_theme: { group: "identity", kind: "theme", default: "dark", visitors: true },

  // Home page: written for visitors from the start (no instructions to the owner; the dashboard has a step for it).
  home_title: {
    group: "home",
    kind: "text",
    default: "Hello, and welcome",
    de: "Hallo und willkommen",
    visitors: true,
    former: ["Welcome to Vitrine"],
    formerDe: ["Willkommen bei Vitrine"],
  },
  home_subtitle: {
    group: "home",
    kind: "longText",
    default: "Pictures, notes and links from my corner of the web.",
    de: "Bilder, Notizen und Links aus meiner Ecke des Netzes.",
    visitors: true,
    former: ["Photographs, links and videos, all in one place."],
    formerDe: ["Fotos, Links und Videos an einem Ort."],
  },
  home_content: {
    group: "home",
    kind: "markdown",
    default:
      "Thanks for stopping by. This is where I keep the pictures I take, the things I write and the places I like to visit online.\n\nLook around the [gallery](/), or find me elsewhere through the [links](/links).",
    de: "Schön, dass Sie vorbeischauen. Hier sammle ich meine Bilder, was ich schreibe und die Orte im Netz, die ich gern besuche.\n\nSehen Sie sich in der [Galerie](/) um oder finden Sie mich über die [Links](/links) auch anderswo.",
    visitors: true,
    former: [
      "This is the home page of your new site. Sign in as the admin to replace this text with your own story.\n\nUse **Markdown** for emphasis, lists and [links](https://example.com).",
    ],
    formerDe: [
      "Dies ist die Startseite Ihrer neuen Website. Melden Sie sich als Admin an, um diesen Text durch Ihre eigene Geschichte zu ersetzen.\n\nMit **Markdown** gelingen Hervorhebungen, Listen und [Links](https://example.com).",
    ],
  },

  // Page titles and subtitles
  gallery_page_title: { group: "pages", kind: "text", default: "Gallery", de: "Galerie", visitors: true },
  gallery_page_subtitle: {
    group: "pages",
    kind: "longText",
    default: "A selection of recent pictures.",
    de: "Eine Auswahl aktueller Bilder.",
    visitors: true,
  },
  links_page_title: { group: "pages", kind: "text", default: "Links", de: "Links", visitors: true },
  links_page_subtitle: {
    group: "pages",
    kind: "longText",
    default: "Find me elsewhere on the web.",
    de: "Hier finden Sie mich sonst noch im Netz.",
    visitors: true,
  },
  faq_page_title: {
    group: "pages",
    kind: "text",
    default: "Frequently asked questions",
    de: "Häufige Fragen",
    visitors: true,
  },
  faq_page_subtitle: {
    group: "pages",
    kind: "longText",
    default: "Answers to what people ask most.",
    de: "Antworten auf die häufigsten Fragen.",
    visitors: true,
  },
  video_page_title: { group: "pages", kind: "text", default: "Videos", de: "Videos", visitors: true },
  video_page_subtitle: {
    group: "pages",
    kind: "longText",
    default: "Moving pictures, watched when you choose.",
    de: "Bewegte Bilder, abgespielt erst auf Ihren Wunsch.",
    visitors: true,
  },
  // "true" keeps the links, FAQ and videos pages in the main menu while they have no published entry.
  menu_show_empty_sections: { group: "pages", kind: "boolean", default: "false", visitors: true },
  // The main menu's sections in the owner's order (menu-sections.ts: a section it does not name goes last).
  menu_order: { group: "pages", kind: "menuOrder", default: DEFAULT_MENU_ORDER, visitors: true },

  // Footer
  footer_site_name: { group: "footer", kind: "text", default: "", de: "", visitors: true, followsSiteName: true },
  footer_description: {
    group: "footer",
    kind: "longText",
    default: "A personal site with a gallery, links, questions and videos.",
    de: "Eine persönliche Website mit Galerie, Links, Fragen und Videos.",
    visitors: true,
  },
  footer_copyright: { group: "footer", kind: "text", default: "", de: "", visitors: true, followsSiteName: true },
  footer_imprint_title: { group: "footer", kind: "text", default: "Legal notice", de: "Impressum", visitors: true },
  footer_imprint_content: {
    group: "footer",
    kind: "markdown",
    default:
      "**Responsible for this site:** add your name and postal address here.\n\nSee the full legal notice for all details.",
    de: "**Verantwortlich für diese Website:** tragen Sie hier Ihren Namen und Ihre Anschrift ein.\n\nAlle Angaben finden Sie im vollständigen Impressum.",
    visitors: true,
  },
  footer_privacy_title: { group: "footer", kind: "text", default: "Privacy", de: "Datenschutz", visitors: true },
  footer_privacy_content: {
    group: "footer",
    kind: "markdown",
    default:
      "This site sets only the cookies it needs (theme, language, and a session cookie when you sign in) and loads nothing from other sites.",
    de: "Diese Website setzt nur die nötigen Cookies (Farbschema, Sprache und beim Anmelden ein Sitzungs-Cookie) und lädt nichts von anderen Websites.",
    visitors: true,
  },

  // Legal pages
  imprint_title: { group: "legal", kind: "text", default: "Legal notice", de: "Impressum", visitors: true },
  imprint_content: {
    group: "legal",
    kind: "markdown",
    default:
      "## Template: fill this in\n\nThe owner of this site has not completed the legal notice yet. Depending on where you live, it usually needs:\n\n- your full name (or your company's name and legal form)\n- a postal address where you can be reached\n- an e-mail address and, where required, a telephone number\n- registry entries or VAT numbers, if you have them\n\nReplace this text in the admin area under the site settings.",
    de: "## Vorlage: bitte ausfüllen\n\nDer Betreiber dieser Website hat das Impressum noch nicht vervollständigt. Nach § 5 DDG gehören in der Regel hinein:\n\n- Ihr vollständiger Name (oder Firma und Rechtsform)\n- eine ladungsfähige Anschrift\n- eine E-Mail-Adresse und, wo nötig, eine Telefonnummer\n- Registereinträge oder Umsatzsteuer-Identifikationsnummer, falls vorhanden\n\nErsetzen Sie diesen Text im Adminbereich unter den Website-Einstellungen.",
    visitors: true,
  },
  privacy_title: {
    group: "legal",
    kind: "text",
    default: "Privacy policy",
    de: "Datenschutzerklärung",
    visitors: true,
  },
  privacy_content: {
    group: "legal",
    kind: "markdown",
    default:
      "## Template: fill this in\n\nThe owner of this site has not completed the privacy policy yet. What this site does by design:\n\n- **No third parties.** Fonts and icons are served from this site; videos from other hosts load only after you click play.\n- **Cookies.** `theme` and `lang` remember your display choices; a session cookie keeps you signed in. None is used for tracking.\n- **Accounts.** If you register, your e-mail address and a salted password hash are stored.\n- **Statistics.** Visits are counted on this server, without cookies and without any other service. To count a visitor once a day, the address and browser are turned, together with a random value that is made anew each day and deleted after it, into a code that cannot be traced back; the address and browser themselves are never stored. A browser that sends Global Privacy Control (`Sec-GPC`) is not counted. Only daily sums are kept: the pages viewed, the referring site, the language and the kind of device.\n\nAdd who is responsible for processing, how to contact them, how long server logs are kept, and the rights of data subjects (access, correction, erasure, complaint to a supervisory authority).",
    de: "## Vorlage: bitte ausfüllen\n\nDer Betreiber dieser Website hat die Datenschutzerklärung noch nicht vervollständigt. Was diese Website von sich aus tut:\n\n- **Keine Dritten.** Schriften und Symbole kommen von dieser Website; Videos anderer Anbieter laden erst, wenn Sie auf Abspielen klicken.\n- **Cookies.** `theme` und `lang` merken sich Ihre Anzeige-Einstellungen; ein Sitzungs-Cookie hält Sie angemeldet. Keines dient dem Tracking.\n- **Konten.** Wenn Sie sich registrieren, werden Ihre E-Mail-Adresse und ein gesalzener Passwort-Hash gespeichert.\n- **Statistik.** Besuche werden auf diesem Server gezählt, ohne Cookies und ohne fremden Dienst. Damit ein Besucher einmal am Tag zählt, werden Adresse und Browser zusammen mit einem Zufallswert, der jeden Tag neu erzeugt und danach gelöscht wird, in einen Code verwandelt, der sich nicht zurückverfolgen lässt; Adresse und Browser selbst werden nie gespeichert. Ein Browser, der Global Privacy Control (`Sec-GPC`) sendet, wird nicht gezählt. Gespeichert werden nur Tagessummen: die aufgerufenen Seiten, die verweisende Website, die Sprache und die Art des Geräts.\n\nErgänzen Sie den Verantwortlichen, Kontaktdaten, die Speicherdauer von Server-Logs und die Betroffenenrechte (Auskunft, Berichtigung, Löschung, Beschwerde bei einer Aufsichtsbehörde).",
    visitors: true,
    // The template before the statistics (issue 46) had no paragraph on them.
    former: [
      "## Template: fill this in\n\nThe owner of this site has not completed the privacy policy yet. What this site does by design:\n\n- **No third parties.** Fonts and icons are served from this site; videos from other hosts load only after you click play.\n- **Cookies.** `theme` and `lang` remember your display choices; a session cookie keeps you signed in. None is used for tracking.\n- **Accounts.** If you register, your e-mail address and a salted password hash are stored.\n\nAdd who is responsible for processing, how to contact them, how long server logs are kept, and the rights of data subjects (access, correction, erasure, complaint to a supervisory authority).",
    ],
    formerDe: [
      "## Vorlage: bitte ausfüllen\n\nDer Betreiber dieser Website hat die Datenschutzerklärung noch nicht vervollständigt. Was diese Website von sich aus tut:\n\n- **Keine Dritten.** Schriften und Symbole kommen von dieser Website; Videos anderer Anbieter laden erst, wenn Sie auf Abspielen klicken.\n- **Cookies.** `theme` und `lang` merken sich Ihre Anzeige-Einstellungen; ein Sitzungs-Cookie hält Sie angemeldet. Keines dient dem Tracking.\n- **Konten.** Wenn Sie sich registrieren, werden Ihre E-Mail-Adresse und ein gesalzener Passwort-Hash gespeichert.\n\nErgänzen Sie den Verantwortlichen, Kontaktdaten, die Speicherdauer von Server-Logs und die Betroffenenrechte (Auskunft, Berichtigung, Löschung, Beschwerde bei einer Aufsichtsbehörde).",
    ],
  },

  // Watermark: the `watermark_*` keys (and `site_name`, which an empty watermark text follows) redraw the gallery's
  // watermarks.
  watermark_enabled: { group: "watermark", kind: "boolean", default: "true", visitors: true, effects: WATERMARK },
  watermark_text: {
    group: "watermark",
    kind: "text",
    default: "",
    visitors: true,
    followsSiteName: true,
    effects: WATERMARK,
  },
  watermark_url: { group: "watermark", kind: "url", default: "", visitors: true, effects: WATERMARK },
  // "true": the watermark text as a small mark on the thumbnails (grid, home page, blog covers), whose clean
  // widths do not carry it; "false": the thumbnails show nothing, the large sizes still carry the drawn text.
  thumbnail_watermark: { group: "watermark", kind: "boolean", default: "true", visitors: true },
  // "true": each picture's title under its thumbnail in the gallery and the home page's latest pictures.
  thumbnail_titles: { group: "watermark", kind: "boolean", default: "false", visitors: true },
  // "true" offers visitors a download of each picture's largest served size in the lightbox (never the original).
  gallery_allow_download: { group: "watermark", kind: "boolean", default: "false", visitors: true },

  // Search and social sharing: empty means "use the fallbacks".
  meta_title: { group: "sharing", kind: "text", default: "", visitors: true },
  meta_description: { group: "sharing", kind: "longText", default: "", de: "", visitors: true },
  meta_og_image: {
    group: "sharing",
    kind: "url",
    default: "",
    visitors: true,
    siteImage: "share-image",
    effects: SITE_IMAGE,
  },
  // "true": the blog's RSS and Atom feeds carry each post in full; "false": its excerpt and a link.
  feed_full_content: { group: "sharing", kind: "boolean", default: "true", visitors: true },
  // og:url and the canonical link come from BASE_URL.
  meta_og_url: { group: "sharing", kind: "url", default: "", visitors: false, retired: true },

  // Contact form (/contact): off until the owner turns it on. Empty address: the first admin's.
  contact_enabled: { group: "contact", kind: "boolean", default: "false", visitors: true },
  contact_email: { group: "contact", kind: "email", default: "", visitors: false },

  // Statistics (issue 46): counted on the server without cookies; off, nothing is counted or kept. The daily sums
  // hold nothing personal, so by default they are kept for ever ("0"); else the days kept (RETENTION_CHOICES).
  statistics_enabled: { group: "statistics", kind: "boolean", default: "true", visitors: false },
  statistics_retention_days: { group: "statistics", kind: "retention", default: "0", visitors: false },

  // Security: "true" sends an admin without two-factor sign-in to set it up before any admin screen.
  admin_require_two_factor: { group: "security", kind: "boolean", default: "false", visitors: false },
} as const satisfies Record<string, SettingSpec>;

type Registry = typeof SETTING_REGISTRY;
/** A key as the registry declares it (the English one where there are two). */
export type DeclaredSettingKey = keyof Registry;

/** Keys that have a German variant, named without the `_de` suffix. */
export type LocalizedSettingKey = {
  [K in DeclaredSettingKey]: Registry[K] extends { de: string } ? K : never;
}[DeclaredSettingKey];

export type SettingKey = DeclaredSettingKey | `${LocalizedSettingKey}_de`;

/** The settings whose empty value stands for one made from the site name. */
export type BrandKey = {
  [K in DeclaredSettingKey]: Registry[K] extends { followsSiteName: true } ? K : never;
}[DeclaredSettingKey];

/** One key's rules, a German twin's included (it has its English key's). */
export type ResolvedSetting = Omit<SettingSpec, "de" | "former" | "formerDe"> & {
  key: SettingKey;
  /** The English key of a German twin, or the key itself. */
  english: DeclaredSettingKey;
  /** The German twin of an English key that has one. */
  german?: SettingKey;
  language: "en" | "de";
  /** The longest value accepted; none for a choice (boolean, theme). */
  limit?: number;
  effects: readonly SaveEffect[];
  former: readonly string[];
};

/** The longest value of each kind; a menu order is checked as a text. */
function limitOf(kind: SettingKind): number | undefined {
  if (kind === "menuOrder") return SETTING_LIMITS.text;
  return kind in SETTING_LIMITS ? SETTING_LIMITS[kind as keyof typeof SETTING_LIMITS] : undefined;
}

function resolve(): Record<SettingKey, ResolvedSetting> {
  const resolved: Partial<Record<SettingKey, ResolvedSetting>> = {};
  for (const [key, spec] of Object.entries(SETTING_REGISTRY) as [DeclaredSettingKey, SettingSpec][]) {
    const { de, former = [], formerDe = [], effects = [], ...rules } = spec;
    const limit = limitOf(spec.kind);
    const german = de === undefined ? undefined : (`${key}_de` as SettingKey);
    const shared = { ...rules, english: key, effects, ...(limit === undefined ? {} : { limit }) };
    resolved[key] = { ...shared, key, language: "en", former, ...(german ? { german } : {}) };
    if (german && de !== undefined) {
      resolved[german] = { ...shared, key: german, language: "de", default: de, former: formerDe };
    }
  }
  return resolved as Record<SettingKey, ResolvedSetting>;
}

/** Every key's rules, in the registry's order, each German twin right after its English key. */
export const settingSpecs: Readonly<Record<SettingKey, ResolvedSetting>> = resolve();

/** Whether visitors may read the key (the public /api/settings); false for what steers only the admin side. */
export function isVisitorSetting(key: string): boolean {
  return settingSpecs[key as SettingKey]?.visitors !== false;
}

/** The keys whose save has the effect, in the registry's order. */
export function settingsWithEffect(effect: SaveEffect): SettingKey[] {
  return Object.values(settingSpecs)
    .filter((spec) => spec.effects.includes(effect))
    .map((spec) => spec.key);
}

/**
 * The setting each kind of site image fills in (the registry's `siteImage`), in the registry's order. Here and not
 * in site-images.ts, which visitors' pages load without the registry.
 */
export const SITE_IMAGE_SETTING = Object.fromEntries(
  Object.values(settingSpecs).flatMap((spec) => (spec.siteImage ? [[spec.siteImage, spec.key]] : [])),
) as Readonly<Record<SiteImageKind, SettingKey>>;
