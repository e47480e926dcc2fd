import { useAdminData } from "#app/lib/admin-data.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";

/** A contact message's time as the server renders it and every admin reads it alike (UTC), in the admin's language. */
export function useMessageTime(): (iso: string) => string {
  const lang = useAdminData()?.lang ?? "en";
  const format = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
    dateStyle: "medium",
    timeStyle: "short",
    timeZone: "UTC",
  });
  return (iso: string) => `${format.format(new Date(iso))} UTC`;
}
