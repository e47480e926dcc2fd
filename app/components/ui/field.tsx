import {
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
  useId,
} from "react";

export const inputClass =
  "mt-1 block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-zinc-900 placeholder:text-zinc-500 focus:border-indigo-600 focus:outline-2 focus:outline-indigo-500 aria-[invalid=true]:border-red-600 dark:border-zinc-600 dark:bg-zinc-900 dark:text-zinc-100 dark:placeholder:text-zinc-400 dark:aria-[invalid=true]:border-red-400";

type Described = { label: string; hint?: string; error?: string };

function FieldText({ id, hint, error }: { id: string; hint?: string; error?: string }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-zinc-600 dark:text-zinc-300">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
    </>
  );
}

function describedBy(id: string, hint?: string, error?: string): string | undefined {
  const ids = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean);
  return ids.length > 0 ? ids.join(" ") : undefined;
}

/** The attributes that tie a control to its label, hint and error. */
type ControlProps = { id: string; "aria-invalid": true | undefined; "aria-describedby": string | undefined };

/** A label above a control, with the hint and error below it, tied to it for screen readers. */
function LabelledField(props: Described & { className: string; control: (control: ControlProps) => ReactNode }) {
  const id = useId();
  return (
    <div className={props.className}>
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      {props.control({
        id,
        "aria-invalid": props.error ? true : undefined,
        "aria-describedby": describedBy(id, props.hint, props.error),
      })}
      <FieldText id={id} hint={props.hint} error={props.error} />
    </div>
  );
}

/** Splits a field's props into the label, hint, error and wrapper class, and the control's own attributes. */
function splitField<T extends Described & { className?: string }>({
  label,
  hint,
  error,
  className = "",
  ...control
}: T) {
  return [{ label, hint, error, className }, control] as const;
}

/** A labelled input; its hint and error are tied to it for screen readers. */
export function TextField(props: Described & InputHTMLAttributes<HTMLInputElement>) {
  const [field, input] = splitField(props);
  return <LabelledField {...field} control={(control) => <input {...control} className={inputClass} {...input} />} />;
}

/**
 * A labelled text area. `controlClassName` styles the text area alone (a monospaced font for Markdown, say):
 * `className` is the wrapper's, and the label keeps the font of every other label.
 */
export function TextAreaField({
  rows = 4,
  controlClassName = "",
  ...props
}: Described & TextareaHTMLAttributes<HTMLTextAreaElement> & { controlClassName?: string }) {
  const [field, textarea] = splitField(props);
  return (
    <LabelledField
      {...field}
      control={(control) => (
        <textarea {...control} rows={rows} className={`${inputClass} ${controlClassName}`} {...textarea} />
      )}
    />
  );
}

/** A labelled select of a few options, each a value and its visible label. */
export function SelectField({
  options,
  ...props
}: Described & SelectHTMLAttributes<HTMLSelectElement> & { options: { value: string; label: string }[] }) {
  const [field, select] = splitField(props);
  return (
    <LabelledField
      {...field}
      control={(control) => (
        <select {...control} className={inputClass} {...select}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

export function CheckboxField({
  label,
  hint,
  error,
  className = "",
  ...props
}: Described & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className={`flex items-start gap-2 ${className}`}>
      <input
        id={id}
        type="checkbox"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className="mt-1 size-4 rounded border-zinc-400 accent-indigo-700"
        {...props}
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <FieldText id={id} hint={hint} error={error} />
      </div>
    </div>
  );
}
