import type { AuditActor } from "#app/domains/audit/audit.server.ts";
import type { ContentResult } from "#app/domains/content/content.server.ts";

/** The admin the service tests act as; the audit log records this id and address. */
export const testAdmin: AuditActor = { id: "admin-1", email: "owner@example.test" };

/** The item id a content service answered with; a refusal fails the test with the service's answer. */
export function idOfAccepted(result: ContentResult): string {
  if (!result.ok) throw new Error(`refused: ${JSON.stringify(result)}`);
  return result.id;
}
