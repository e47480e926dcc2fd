/** Whether the main menu offers each content page (see menu-sections.server.ts), and the contact form. */
export type MenuSections = { links: boolean; faq: boolean; videos: boolean; blog: boolean; contact: boolean };

export type MenuItem<Label extends string> = { to: string; label: Label; section?: keyof MenuSections };

/** The menu's items without the content pages it does not offer; pages that are no section always stay. */
export function menuItemsFor<Label extends string>(
  items: readonly MenuItem<Label>[],
  sections: MenuSections,
): MenuItem<Label>[] {
  return items.filter((item) => item.section === undefined || sections[item.section]);
}
