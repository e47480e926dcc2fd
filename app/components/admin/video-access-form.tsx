import type { ContentVisibility } from "#app/domains/access/reader.ts";
import { type AccessFormTexts, ItemAccessForm } from "./item-access-form.tsx";

const TEXTS: AccessFormTexts = {
  legend: "admin.videos.access.legend",
  everyone: "admin.videos.access.everyone",
  members: "admin.videos.access.members",
  groups: "admin.videos.access.groups",
  groupsLegend: "admin.videos.access.groupsLegend",
  noGroups: "admin.videos.access.noGroups",
  note: "admin.videos.access.note",
  save: "admin.videos.access.save",
};

/** Who may see a video (issue 21), saved on its own: an uploaded file and a poster move with the choice. */
export function VideoAccessForm(props: {
  item: { id: string; visibility: ContentVisibility; groupIds: readonly string[] };
  name: string;
  groups: { id: string; name: string }[];
}) {
  return <ItemAccessForm kind="video" item={props.item} name={props.name} groups={props.groups} texts={TEXTS} />;
}
