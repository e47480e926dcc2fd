import { AsyncLocalStorage } from "node:async_hooks";
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";
import { areasOfTable, CHANGE_AREAS, type ChangeArea, SHOWN_AREAS } from "./change-areas.ts";

/**
 * Bench only (scripts/bench/area-dropping.ts): `VITRINE_BENCH_DROP_EVERYTHING=1`, read once at start, makes every
 * write move every area, as before areas existed, so that the bench can compare the two. Not a setting: nothing
 * else reads it, and the site is correct either way (dropping everything is only slower).
 */
const DROP_EVERYTHING = process.env.VITRINE_BENCH_DROP_EVERYTHING === "1";

/**
 * One counter per area and one for "every area". The version of a set of areas is the sum of their counters and
 * the shared one: counters only grow, so the sum moves exactly when one of them does, and a reader compares one
 * number per kept thing. Moving an area is synchronous, so a write counted here is seen by the very next request.
 */
export class ChangeVersions {
  #everything = 0;
  readonly #counts = new Map<ChangeArea, number>(CHANGE_AREAS.map((area) => [area, 0]));

  /** Moves `areas`; without them (a change whose areas are unknown), every area. */
  move(areas?: Iterable<ChangeArea>): void {
    if (!areas || DROP_EVERYTHING) {
      this.#everything++;
      return;
    }
    for (const area of areas) this.#counts.set(area, (this.#counts.get(area) ?? 0) + 1);
  }

  /** The version of `areas`; without them, of everything shown (see SHOWN_AREAS). */
  version(areas: readonly ChangeArea[] = SHOWN_AREAS): number {
    let sum = this.#everything;
    for (const area of areas) sum += this.#counts.get(area) ?? 0;
    return sum;
  }
}

/** The writes made inside one scope (a write request): the areas they moved, or every area when one was unknown. */
export class WriteLog {
  /** Whether any write (shown or not) was seen. */
  wrote = false;
  everything = false;
  readonly areas = new Set<ChangeArea>();

  add(areas: readonly ChangeArea[] | undefined): void {
    this.wrote = true;
    if (!areas) this.everything = true;
    else for (const area of areas) this.areas.add(area);
  }

  /**
   * What the end of the scope must move: the areas written, or every area when a write could not be classified
   * or none was seen at all (what such a request changed, if anything, is not known: files only, a write the
   * observer does not see).
   */
  areasToMove(): ChangeArea[] | undefined {
    return this.wrote && !this.everything ? [...this.areas] : undefined;
  }
}

const writeScope = new AsyncLocalStorage<WriteLog>();

/** Runs `fn` with every write it makes through the query layer (in any database) recorded in `log`. */
export function recordWrites<T>(log: WriteLog, fn: () => T): T {
  return writeScope.run(log, fn);
}

function tableNameOf(node: unknown, depth = 0): string | undefined {
  if (!node || typeof node !== "object" || depth > 4) return undefined;
  const record = node as Record<string, unknown>;
  if (record.kind === "TableNode") {
    const table = record.table as { identifier?: { name?: string } } | undefined;
    return table?.identifier?.name;
  }
  for (const key of ["into", "table", "from", "froms", "node"]) {
    const child = record[key];
    const found = Array.isArray(child) ? tableNameOf(child[0], depth + 1) : tableNameOf(child, depth + 1);
    if (found) return found;
  }
  return undefined;
}

const READ_STATEMENT = /^(select|with|pragma|explain|begin|commit|rollback|savepoint|release)\b/;
/** The table a plain raw insert, update or delete writes; anything else raw is not classified (every area). */
const RAW_WRITE =
  /^(?:insert\s+(?:or\s+\w+\s+)?into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"?([a-z_][a-z0-9_]*)"?[\s(]/i;

/** The areas a statement writes: null for a read, undefined (every area) when it cannot be told. */
export function writtenAreas(node: RootOperationNode): readonly ChangeArea[] | null | undefined {
  if (node.kind === "InsertQueryNode" || node.kind === "UpdateQueryNode" || node.kind === "DeleteQueryNode") {
    const table = tableNameOf(node);
    return table === undefined ? undefined : areasOfTable(table);
  }
  if (node.kind === "RawNode") {
    const text = node.sqlFragments.join("").trimStart().toLowerCase();
    if (READ_STATEMENT.test(text)) return null;
    const table = RAW_WRITE.exec(`${text} `)?.[1];
    return table === undefined ? undefined : areasOfTable(table);
  }
  if (node.kind === "SelectQueryNode") return null;
  return undefined; // schema changes (migrations)
}

/**
 * Moves the areas of every insert, update and delete (and raw statement that is not a read) once it has run.
 * Moving after the statement, not before, means a page rendered while the write runs is never kept under the
 * new version. The write is also recorded in the current WriteLog (the request's), whose end moves its areas
 * again once the transaction has surely committed (server/app.ts).
 */
export class WriteObserverPlugin implements KyselyPlugin {
  readonly #pending = new Map<unknown, readonly ChangeArea[] | undefined>();
  private readonly onWrite: (areas: readonly ChangeArea[] | undefined) => void;
  constructor(onWrite: (areas: readonly ChangeArea[] | undefined) => void) {
    this.onWrite = onWrite;
  }

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    const areas = writtenAreas(args.node);
    if (areas !== null) {
      writeScope.getStore()?.add(areas);
      this.#pending.set(args.queryId, areas);
    }
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.#pending.has(args.queryId)) {
      const areas = this.#pending.get(args.queryId);
      this.#pending.delete(args.queryId);
      // An unshown table's write ([]) moves nothing, as before.
      if (areas === undefined || areas.length > 0) this.onWrite(areas);
    }
    return args.result;
  }
}
