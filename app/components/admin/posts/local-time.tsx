import { useEffect, useState } from "react";
import { useAdminData } from "#app/lib/admin-data.ts";
import { dateTimeFormat } from "#app/lib/intl-format.ts";

/** The browser's time zone, known only once the page runs in the browser (the server renders UTC until then). */
export function useBrowserTimeZone(): string | null {
  const [zone, setZone] = useState<string | null>(null);
  useEffect(() => {
    setZone(Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC");
  }, []);
  return zone;
}

/** Formats a moment in the admin's language and, once the browser has said it, in the admin's time zone. */
export function useFormatTime(): (iso: string) => string {
  const lang = useAdminData()?.lang ?? "en";
  const zone = useBrowserTimeZone();
  return (iso: string) => {
    const text = dateTimeFormat(lang === "de" ? "de-DE" : "en-GB", {
      dateStyle: "medium",
      timeStyle: "short",
      timeZone: zone ?? "UTC",
    }).format(new Date(iso));
    return zone ? text : `${text} UTC`;
  };
}

export function LocalTime({ iso }: { iso: string }) {
  const format = useFormatTime();
  return <time dateTime={iso}>{format(iso)}</time>;
}
