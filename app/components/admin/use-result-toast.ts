import { useEffect } from "react";
import { toast } from "sonner";
import { type ActionResult, isActionResult } from "#app/lib/action-result.ts";

/** Shows an action's answer as a toast, once per answer (a fetcher's or the page's `actionData`). */
export function useResultToast(result: unknown, errorTitle: string): ActionResult | undefined {
  const answer = isActionResult(result) ? result : undefined;
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) toast.success(answer.message);
    else toast.error(errorTitle, { description: answer.message });
  }, [answer, errorTitle]);
  return answer;
}
