/*
 * What a change event is, and who may receive one (issue 19). Client-safe: the browser's live connection reads the
 * same shapes. An event names what changed (area, action, id), never the changed data: no address, no draft text.
 */

/**
 * Who may receive an event: every visitor, signed-in members, the members of the item's groups (and admins), admins,
 * or nobody (read by the server only).
 */
export type Audience = "everyone" | "members" | "groups" | "admins" | "nobody";

export const AUDIENCES: readonly Audience[] = ["everyone", "members", "groups", "admins", "nobody"];

/** Who holds a stream: a visitor without a session, a signed-in member, or an admin. */
export type Viewer = "visitor" | "member" | "admin";

export type ChangeAction = "insert" | "update" | "delete";

/** One change as a stream carries it. */
export type ChangeEvent = { seq: number; area: string; action: ChangeAction; id: string | null };

const RANK: Record<Viewer, number> = { visitor: 0, member: 1, admin: 2 };
/** A group's event needs an admin, or a member of the item's groups (`inItsGroups`, asked when it is sent). */
const NEEDED: Record<Audience, number> = {
  everyone: 0,
  members: 1,
  groups: 2,
  admins: 2,
  nobody: Number.POSITIVE_INFINITY,
};

/**
 * The one rule every stream applies to every event, live or replayed. `inItsGroups`: the holder is a member of the
 * groups of the item a `groups` event names, as the database says when the event is sent.
 */
export function mayReceive(viewer: Viewer, audience: string, inItsGroups = false): boolean {
  if (audience === "groups" && viewer === "member" && inItsGroups) return true;
  const needed = NEEDED[audience as Audience];
  // An audience this version does not know is nobody's: a new kind of event is never sent by mistake.
  return needed !== undefined && RANK[viewer] >= needed;
}
