import { dateTimeFormat } from "#app/lib/intl-format.ts";

/**
 * The schedule picker's times: a `datetime-local` value ("2026-03-29T09:30", a wall-clock time without a zone)
 * means that time in the admin's own time zone, which the browser sends beside it (its IANA name). The server
 * turns it into a moment here; the editor shows a stored moment back as a wall-clock time in the same zone.
 * Pure (Intl only), so the browser and the server agree.
 */

const LOCAL_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** Whether the runtime knows this IANA time-zone name ("Europe/Berlin", "UTC"). */
export function isTimeZone(name: string): boolean {
  if (name === "" || name.length > 64) return false;
  try {
    dateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The parts of a moment in a zone (kept per zone by intl-format.ts). */
function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  return dateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });
}

/** The wall-clock time of a moment in a time zone, as a `datetime-local` value (minutes, no seconds). */
export function toZonedLocal(moment: Date, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const part of partsFormatter(timeZone).formatToParts(moment)) parts[part.type] = part.value;
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** Minutes the zone is ahead of UTC at that moment (Berlin in summer: 120). */
function offsetMinutes(moment: Date, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const part of partsFormatter(timeZone).formatToParts(moment)) parts[part.type] = Number(part.value);
  const asUtc = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return Math.round((asUtc - (moment.getTime() - moment.getUTCMilliseconds())) / 60_000);
}

export type ZonedTimeResult =
  | { ok: true; moment: Date }
  /** `invalid`: not a date and time; `skipped`: the clocks jumped over that time (spring forward) in that zone. */
  | { ok: false; reason: "invalid" | "skipped" };

/**
 * The moment a wall-clock time in a time zone names. When the clocks go back the hour that happens twice means
 * its first occurrence (the earlier moment: a schedule never slips an hour late); a time the clocks skip does
 * not exist there and is refused rather than moved, so the admin chooses.
 */
export function fromZonedLocal(local: string, timeZone: string): ZonedTimeResult {
  const match = LOCAL_PATTERN.exec(local.trim());
  if (!match || !isTimeZone(timeZone)) return { ok: false, reason: "invalid" };
  const [y, mo, d, h, mi, s] = match.slice(1).map((value) => Number(value ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 59) return { ok: false, reason: "invalid" };
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(asUtc);
  // Date.UTC rolls 31 February over into March: such a date does not exist.
  if (check.getUTCDate() !== d || check.getUTCMonth() !== mo - 1) return { ok: false, reason: "invalid" };
  // A zone's offset changes at most once within a day or so either side: the moment is the wall time less one of them.
  const day = 24 * 60 * 60_000;
  const offsets = new Set([
    offsetMinutes(new Date(asUtc - day), timeZone),
    offsetMinutes(new Date(asUtc + day), timeZone),
  ]);
  const wanted = local.trim().slice(0, 16);
  const candidates = [...offsets]
    .map((offset) => new Date(asUtc - offset * 60_000))
    .filter((moment) => toZonedLocal(moment, timeZone) === wanted)
    .sort((a, b) => a.getTime() - b.getTime());
  const first = candidates[0];
  return first ? { ok: true, moment: first } : { ok: false, reason: "skipped" };
}
