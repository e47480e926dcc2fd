/** Whether the main menu offers each content page (see menu-sections.server.ts), and the contact form. */
export type MenuSections = {
  links: boolean;
  faq: boolean;
  videos: boolean;
  blog: boolean;
  contact: boolean;
  /** An album the reader may see, with a picture to show (issue 21). */
  albums: boolean;
};

/**
 * Every section the main menu can show, in the order a new site shows them. A section added later goes at the
 * end of this list: an order the owner saved before it existed shows it last (`menuOrderOf`).
 */
export const MENU_SECTION_IDS = ["gallery", "home", "links", "faq", "videos", "blog", "contact", "albums"] as const;
export type MenuSectionId = (typeof MENU_SECTION_IDS)[number];

/** The setting `menu_order` as stored: the section ids, comma-separated. */
export const DEFAULT_MENU_ORDER: string = MENU_SECTION_IDS.join(",");

export type MenuItem<Label extends string> = {
  id: MenuSectionId;
  to: string;
  label: Label;
  section?: keyof MenuSections;
};

function isMenuSectionId(value: string): value is MenuSectionId {
  return (MENU_SECTION_IDS as readonly string[]).includes(value);
}

/** The ids of a stored or submitted order, as written (trimmed, empty entries dropped). */
function entriesOf(value: string): string[] {
  return value
    .split(",")
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

/**
 * The menu's order from the stored setting: its known sections in its order (an unknown or repeated one is
 * skipped, so a value from an older or newer version never breaks the menu), then every section it does not
 * name yet, in their default order.
 */
export function menuOrderOf(stored: string): MenuSectionId[] {
  const order: MenuSectionId[] = [];
  for (const entry of entriesOf(stored)) if (isMenuSectionId(entry) && !order.includes(entry)) order.push(entry);
  for (const id of MENU_SECTION_IDS) if (!order.includes(id)) order.push(id);
  return order;
}

export type MenuOrderProblem = "menuOrderUnknown" | "menuOrderDuplicate" | "menuOrderMissing";

/**
 * What is wrong with a submitted order, or null when it is one of each known section: an unknown name, a
 * name given twice, or a section left out (the form always sends all of them).
 */
export function menuOrderProblem(value: string): MenuOrderProblem | null {
  const entries = entriesOf(value);
  if (entries.some((entry) => !isMenuSectionId(entry))) return "menuOrderUnknown";
  if (new Set(entries).size !== entries.length) return "menuOrderDuplicate";
  if (entries.length !== MENU_SECTION_IDS.length) return "menuOrderMissing";
  return null;
}

/** The submitted order in the stored form ("gallery,home,…"); call after `menuOrderProblem` found nothing. */
export function normalizeMenuOrder(value: string): string {
  return entriesOf(value).join(",");
}

/**
 * The menu's items in the owner's order (`order`, from `menuOrderOf`), without the content pages it does not
 * offer; pages that are no section always stay.
 */
export function menuItemsFor<Label extends string>(
  items: readonly MenuItem<Label>[],
  sections: MenuSections,
  order: readonly MenuSectionId[] = MENU_SECTION_IDS,
): MenuItem<Label>[] {
  const rank = (item: MenuItem<Label>) => {
    const index = order.indexOf(item.id);
    return index === -1 ? order.length : index;
  };
  return items
    .filter((item) => item.section === undefined || sections[item.section])
    .toSorted((a, b) => rank(a) - rank(b));
}
