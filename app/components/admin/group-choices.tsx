import { Link } from "react-router";

/**
 * The groups an item is for (issue 21), one checkbox each, in the editors of posts and pictures; with no group yet,
 * a link to the screen that makes them. The checkboxes carry no name: the editor sends the chosen ids as one field.
 */
export function GroupChoices(props: {
  id: string;
  legend: string;
  noGroups: string;
  groups: { id: string; name: string }[];
  chosen: ReadonlySet<string>;
  onToggle: (id: string, on: boolean) => void;
  error?: string | undefined;
}) {
  const errorId = `${props.id}-error`;
  return (
    <fieldset
      className="mt-3 border-t border-zinc-200 pt-3 dark:border-zinc-800"
      aria-describedby={props.error ? errorId : undefined}
    >
      <legend className="text-sm font-medium">{props.legend}</legend>
      {props.groups.length === 0 ? (
        <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-300">
          <Link to="/admin/groups" className="underline">
            {props.noGroups}
          </Link>
        </p>
      ) : (
        <div className="mt-1 flex flex-wrap gap-x-5 gap-y-1">
          {props.groups.map((group) => (
            <label key={group.id} className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                checked={props.chosen.has(group.id)}
                onChange={(event) => props.onToggle(group.id, event.target.checked)}
                className="size-4 rounded border-zinc-400 accent-indigo-700"
              />
              {group.name}
            </label>
          ))}
        </div>
      )}
      {props.error ? (
        <p id={errorId} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {props.error}
        </p>
      ) : null}
    </fieldset>
  );
}
