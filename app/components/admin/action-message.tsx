import { type ActionResult, isActionResult } from "#app/lib/action-result.ts";

/**
 * An action's answer written into the page. With JavaScript the screens answer through fetchers and
 * toasts; without it a form post reloads the page, and this is where the admin reads what happened.
 */
export function ActionMessage({ result }: { result: unknown }) {
  if (!isActionResult(result)) return null;
  const answer: ActionResult = result;
  return (
    <p
      role={answer.ok ? "status" : "alert"}
      className={`mb-6 rounded-md border px-4 py-3 text-sm ${
        answer.ok
          ? "border-green-700 bg-green-50 text-green-900 dark:border-green-500 dark:bg-green-950 dark:text-green-100"
          : "border-red-700 bg-red-50 text-red-900 dark:border-red-400 dark:bg-red-950 dark:text-red-100"
      }`}
    >
      {answer.message}
    </p>
  );
}
