import {
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  TableNode,
  type UnknownRow,
  ValuesNode,
} from "kysely";

/*
 * What the statistics recorder sends to its database, counted as it goes (the statistics section, statistics.ts): a
 * Kysely plugin on the recorders' handle sees each statement and its result, so the section can say how many
 * statements of each kind, how many rows each sent and how many it wrote, on SQLite as on PostgreSQL, without a
 * hook in the recorder itself.
 */

export type StatementCount = { statements: number; rowsSent: number; rowsWritten: number };

function tableOf(node: RootOperationNode): string {
  // Only the node kinds the recorder makes; another is counted under its kind alone.
  const name = (table: OperationNode | undefined) => (table && TableNode.is(table) ? table.table.identifier.name : "?");
  if (node.kind === "InsertQueryNode") return name(node.into);
  if (node.kind === "SelectQueryNode" || node.kind === "DeleteQueryNode") return name(node.from?.froms[0]);
  if (node.kind === "UpdateQueryNode") return name(node.table);
  return "?";
}

const verbs: Partial<Record<RootOperationNode["kind"], string>> = {
  InsertQueryNode: "insert",
  SelectQueryNode: "select",
  DeleteQueryNode: "delete",
  UpdateQueryNode: "update",
};

export class StatementCounter implements KyselyPlugin {
  readonly counts = new Map<string, StatementCount>();
  private readonly pending = new WeakMap<QueryId, { label: string; rowsSent: number }>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const label = `${verbs[node.kind] ?? node.kind} ${tableOf(node)}`;
    const values =
      node.kind === "InsertQueryNode" && node.values && ValuesNode.is(node.values) ? node.values.values : [];
    this.pending.set(queryId, { label, rowsSent: values.length });
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const query = this.pending.get(queryId);
    if (!query) return result;
    const count = this.counts.get(query.label) ?? { statements: 0, rowsSent: 0, rowsWritten: 0 };
    count.statements += 1;
    count.rowsSent += query.rowsSent;
    // An insert … returning (stats_seen) answers the rows it inserted; an upsert (stats_daily) its rows inserted or
    // updated; a select writes nothing.
    if (!query.label.startsWith("select")) {
      count.rowsWritten +=
        query.label.startsWith("insert") && result.rows.length > 0
          ? result.rows.length
          : Number(result.numAffectedRows ?? 0);
    }
    this.counts.set(query.label, count);
    return result;
  }

  of(label: string): StatementCount {
    return this.counts.get(label) ?? { statements: 0, rowsSent: 0, rowsWritten: 0 };
  }

  total(): StatementCount {
    const sum = { statements: 0, rowsSent: 0, rowsWritten: 0 };
    for (const count of this.counts.values()) {
      sum.statements += count.statements;
      sum.rowsSent += count.rowsSent;
      sum.rowsWritten += count.rowsWritten;
    }
    return sum;
  }
}
