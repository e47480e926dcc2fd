import type { AdminGalleryItem } from "#app/domains/gallery/gallery.ts";
import { type AccessFormTexts, ItemAccessForm } from "./item-access-form.tsx";

const TEXTS: AccessFormTexts = {
  legend: "admin.gallery.access.legend",
  everyone: "admin.gallery.access.everyone",
  members: "admin.gallery.access.members",
  groups: "admin.gallery.access.groups",
  groupsLegend: "admin.gallery.access.groupsLegend",
  noGroups: "admin.gallery.access.noGroups",
  note: "admin.gallery.access.note",
  save: "admin.gallery.access.save",
};

/** Who may see a picture (issue 21), saved on its own: a move between public and member names moves its files. */
export function GalleryAccessForm(props: {
  item: AdminGalleryItem;
  name: string;
  groups: { id: string; name: string }[];
}) {
  return <ItemAccessForm kind="picture" item={props.item} name={props.name} groups={props.groups} texts={TEXTS} />;
}
