import { DEFAULT_MENU_ORDER } from "#app/domains/content/menu-sections.ts";

/**
 * Every site setting with its default. Keys ending in `_de` hold the German text;
 * an empty German value falls back to the English one.
 */
export const settingDefaults = {
  // Site identity. Empty brand texts (logo text, footer name, copyright, watermark) follow `site_name`: brand.ts.
  site_name: "Vitrine",
  site_logo_text: "",
  site_logo_url: "",
  site_favicon_url: "",
  // The theme of a visitor who has not chosen one: "dark", "light", or "system" (the browser's colour scheme).
  default_theme: "dark",

  // Home page: written for visitors from the start (no instructions to the owner; the dashboard has a step for it).
  home_title: "Hello, and welcome",
  home_title_de: "Hallo und willkommen",
  home_subtitle: "Pictures, notes and links from my corner of the web.",
  home_subtitle_de: "Bilder, Notizen und Links aus meiner Ecke des Netzes.",
  home_content:
    "Thanks for stopping by. This is where I keep the pictures I take, the things I write and the places I like to visit online.\n\nLook around the [gallery](/), or find me elsewhere through the [links](/links).",
  home_content_de:
    "Schön, dass Sie vorbeischauen. Hier sammle ich meine Bilder, was ich schreibe und die Orte im Netz, die ich gern besuche.\n\nSehen Sie sich in der [Galerie](/) um oder finden Sie mich über die [Links](/links) auch anderswo.",

  // Page titles and subtitles
  gallery_page_title: "Gallery",
  gallery_page_title_de: "Galerie",
  gallery_page_subtitle: "A selection of recent pictures.",
  gallery_page_subtitle_de: "Eine Auswahl aktueller Bilder.",
  links_page_title: "Links",
  links_page_title_de: "Links",
  links_page_subtitle: "Find me elsewhere on the web.",
  links_page_subtitle_de: "Hier finden Sie mich sonst noch im Netz.",
  faq_page_title: "Frequently asked questions",
  faq_page_title_de: "Häufige Fragen",
  faq_page_subtitle: "Answers to what people ask most.",
  faq_page_subtitle_de: "Antworten auf die häufigsten Fragen.",
  video_page_title: "Videos",
  video_page_title_de: "Videos",
  video_page_subtitle: "Moving pictures, watched when you choose.",
  video_page_subtitle_de: "Bewegte Bilder, abgespielt erst auf Ihren Wunsch.",
  // "true" keeps the links, FAQ and videos pages in the main menu while they have no published entry.
  menu_show_empty_sections: "false",
  // The main menu's sections in the owner's order (menu-sections.ts: a section it does not name goes last).
  menu_order: DEFAULT_MENU_ORDER,

  // Footer
  footer_copyright: "",
  footer_copyright_de: "",
  footer_site_name: "",
  footer_site_name_de: "",
  footer_description: "A personal site with a gallery, links, questions and videos.",
  footer_description_de: "Eine persönliche Website mit Galerie, Links, Fragen und Videos.",
  footer_imprint_title: "Legal notice",
  footer_imprint_title_de: "Impressum",
  footer_imprint_content:
    "**Responsible for this site:** add your name and postal address here.\n\nSee the full legal notice for all details.",
  footer_imprint_content_de:
    "**Verantwortlich für diese Website:** tragen Sie hier Ihren Namen und Ihre Anschrift ein.\n\nAlle Angaben finden Sie im vollständigen Impressum.",
  footer_privacy_title: "Privacy",
  footer_privacy_title_de: "Datenschutz",
  footer_privacy_content:
    "This site sets only the cookies it needs (theme, language, and a session cookie when you sign in) and loads nothing from other sites.",
  footer_privacy_content_de:
    "Diese Website setzt nur die nötigen Cookies (Farbschema, Sprache und beim Anmelden ein Sitzungs-Cookie) und lädt nichts von anderen Websites.",

  // Legal pages
  imprint_title: "Legal notice",
  imprint_title_de: "Impressum",
  imprint_content:
    "## Template: fill this in\n\nThe owner of this site has not completed the legal notice yet. Depending on where you live, it usually needs:\n\n- your full name (or your company's name and legal form)\n- a postal address where you can be reached\n- an e-mail address and, where required, a telephone number\n- registry entries or VAT numbers, if you have them\n\nReplace this text in the admin area under the site settings.",
  imprint_content_de:
    "## Vorlage: bitte ausfüllen\n\nDer Betreiber dieser Website hat das Impressum noch nicht vervollständigt. Nach § 5 DDG gehören in der Regel hinein:\n\n- Ihr vollständiger Name (oder Firma und Rechtsform)\n- eine ladungsfähige Anschrift\n- eine E-Mail-Adresse und, wo nötig, eine Telefonnummer\n- Registereinträge oder Umsatzsteuer-Identifikationsnummer, falls vorhanden\n\nErsetzen Sie diesen Text im Adminbereich unter den Website-Einstellungen.",
  privacy_title: "Privacy policy",
  privacy_title_de: "Datenschutzerklärung",
  privacy_content:
    "## Template: fill this in\n\nThe owner of this site has not completed the privacy policy yet. What this site does by design:\n\n- **No third parties.** Fonts and icons are served from this site; videos from other hosts load only after you click play.\n- **Cookies.** `theme` and `lang` remember your display choices; a session cookie keeps you signed in. None is used for tracking.\n- **Accounts.** If you register, your e-mail address and a salted password hash are stored.\n\nAdd who is responsible for processing, how to contact them, how long server logs are kept, and the rights of data subjects (access, correction, erasure, complaint to a supervisory authority).",
  privacy_content_de:
    "## Vorlage: bitte ausfüllen\n\nDer Betreiber dieser Website hat die Datenschutzerklärung noch nicht vervollständigt. Was diese Website von sich aus tut:\n\n- **Keine Dritten.** Schriften und Symbole kommen von dieser Website; Videos anderer Anbieter laden erst, wenn Sie auf Abspielen klicken.\n- **Cookies.** `theme` und `lang` merken sich Ihre Anzeige-Einstellungen; ein Sitzungs-Cookie hält Sie angemeldet. Keines dient dem Tracking.\n- **Konten.** Wenn Sie sich registrieren, werden Ihre E-Mail-Adresse und ein gesalzener Passwort-Hash gespeichert.\n\nErgänzen Sie den Verantwortlichen, Kontaktdaten, die Speicherdauer von Server-Logs und die Betroffenenrechte (Auskunft, Berichtigung, Löschung, Beschwerde bei einer Aufsichtsbehörde).",

  // Watermark
  watermark_enabled: "true",
  watermark_text: "",
  watermark_url: "",
  // "true": the watermark text as a small mark on the thumbnails (grid, home page, blog covers), whose clean
  // widths do not carry it; "false": the thumbnails show nothing, the large sizes still carry the drawn text.
  thumbnail_watermark: "true",
  // "true": each picture's title under its thumbnail in the gallery and the home page's latest pictures.
  thumbnail_titles: "false",
  // "true" offers visitors a download of each picture's largest served size in the lightbox (never the original).
  gallery_allow_download: "false",

  // Search and social sharing: empty means "use the fallbacks".
  meta_title: "",
  meta_description: "",
  meta_description_de: "",
  meta_og_image: "",
  // "true": the blog's RSS and Atom feeds carry each post in full; "false": its excerpt and a link.
  feed_full_content: "true",
  // Retired (RETIRED_SETTING_KEYS): og:url and the canonical link come from BASE_URL.
  meta_og_url: "",

  // Security: "true" sends an admin without two-factor sign-in to set it up before any admin screen.
  admin_require_two_factor: "false",

  // Contact form (/contact): off until the owner turns it on. Empty address: the first admin's.
  contact_enabled: "false",
  contact_email: "",
} as const satisfies Record<string, string>;

export type SettingKey = keyof typeof settingDefaults;

/**
 * What earlier versions shipped for a setting. Upgrades never overwrite a stored value (an owner may have kept the
 * old text on purpose), so a site from before still holds these; they count as "not the owner's own yet" (the
 * dashboard's checklist).
 */
export const FORMER_DEFAULTS: Partial<Record<SettingKey, readonly string[]>> = {
  home_title: ["Welcome to Vitrine"],
  home_title_de: ["Willkommen bei Vitrine"],
  home_subtitle: ["Photographs, links and videos, all in one place."],
  home_subtitle_de: ["Fotos, Links und Videos an einem Ort."],
  home_content: [
    "This is the home page of your new site. Sign in as the admin to replace this text with your own story.\n\nUse **Markdown** for emphasis, lists and [links](https://example.com).",
  ],
  home_content_de: [
    "Dies ist die Startseite Ihrer neuen Website. Melden Sie sich als Admin an, um diesen Text durch Ihre eigene Geschichte zu ersetzen.\n\nMit **Markdown** gelingen Hervorhebungen, Listen und [Links](https://example.com).",
  ],
};

/** Whether a setting still holds what this or an earlier version shipped (spaces around it aside). */
export function isShippedValue(key: SettingKey, value: string): boolean {
  const shipped = [settingDefaults[key], ...(FORMER_DEFAULTS[key] ?? [])];
  return shipped.some((text) => text.trim() === value.trim());
}
export type SiteSettings = Record<SettingKey, string>;

/** Keys that have a German variant, named without the `_de` suffix. */
export type LocalizedSettingKey = {
  [K in SettingKey]: K extends `${infer Base}_de` ? (Base extends SettingKey ? Base : never) : never;
}[SettingKey];

export const settingKeys = Object.keys(settingDefaults) as SettingKey[];

/**
 * Settings that no longer do anything: still stored, so that backups and `/api/settings` keep their shape, but not
 * edited in the admin form, and ignored when a form from before posts them.
 */
export const RETIRED_SETTING_KEYS: readonly SettingKey[] = ["meta_og_url"];

export function isSettingKey(key: string): key is SettingKey {
  return Object.hasOwn(settingDefaults, key);
}
