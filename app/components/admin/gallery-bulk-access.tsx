import { useEffect, useState } from "react";
import { useFetcher } from "react-router";
import { useResultToast } from "#app/components/admin/use-result-toast.ts";
import { Button } from "#app/components/ui/button.tsx";
import { SelectField } from "#app/components/ui/field.tsx";
import type { ActionResult } from "#app/lib/action-result.ts";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * Who may see the selected pictures (issue 21), in one step: everyone, members, or one group (an album for
 * "Family" from existing pictures). Each picture's files move as they would one by one (gallery-access.server.ts).
 */
export function GalleryBulkAccess(props: {
  selected: string[];
  groups: { id: string; name: string }[];
  onDone: () => void;
}) {
  const t = useAdminTranslate();
  const fetcher = useFetcher<ActionResult>();
  useResultToast(fetcher.data, t("admin.common.error"));
  const [choice, setChoice] = useState("members");
  const { onDone } = props;
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) onDone();
  }, [fetcher.state, fetcher.data, onDone]);
  const options = [
    { value: "everyone", label: t("admin.gallery.access.everyone") },
    { value: "members", label: t("admin.gallery.access.members") },
    ...props.groups.map((group) => ({
      value: `group:${group.id}`,
      label: t("admin.gallery.bulk.group", { name: group.name }),
    })),
  ];
  const submit = () => {
    const group = choice.startsWith("group:") ? choice.slice("group:".length) : "";
    fetcher.submit(
      { intent: "bulk-access", ids: props.selected.join(","), visibility: group ? "groups" : choice, group_ids: group },
      { method: "post" },
    );
  };
  return (
    <div className="flex flex-wrap items-end gap-1">
      <SelectField
        label={t("admin.gallery.bulk.access")}
        value={choice}
        onChange={(event) => setChoice(event.currentTarget.value)}
        options={options}
        className="w-56"
      />
      <Button
        size="sm"
        variant="secondary"
        disabled={props.selected.length === 0 || fetcher.state !== "idle"}
        onClick={submit}
      >
        {t("admin.gallery.bulk.applyAccess")}
      </Button>
    </div>
  );
}
