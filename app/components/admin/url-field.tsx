import { useEffect, useState } from "react";
import { buttonClass } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * The button under an address the server refused because it only lacked its beginning, offering what it most
 * likely meant. With JavaScript it fills the field in (`onUse`; the admin saves when ready) and moves the focus
 * there; without, it is a submit button named like the field, later in the form, so the server reads its value.
 */
export function SuggestionButton(props: {
  name: string;
  suggestion: string;
  onUse: (field: HTMLInputElement) => void;
}) {
  const t = useAdminTranslate();
  const [hydrated, setHydrated] = useState(false);
  const [used, setUsed] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);
  const { suggestion } = props;
  if (suggestion === used) return null;
  return (
    <button
      type={hydrated ? "button" : "submit"}
      name={hydrated ? undefined : props.name}
      value={hydrated ? undefined : suggestion}
      className={`${buttonClass("secondary", "sm")} mt-2 max-w-full break-all`}
      onClick={(event) => {
        if (!hydrated) return;
        const field = event.currentTarget.form?.elements.namedItem(props.name);
        if (!(field instanceof HTMLInputElement)) return;
        props.onUse(field);
        field.focus();
        setUsed(suggestion);
      }}
    >
      {t("admin.common.useSuggestion", { suggestion })}
    </button>
  );
}

/** An address field of a content form, with the completion the server offered for a refused value. */
export function UrlField(props: {
  name: string;
  label: string;
  hint: string;
  defaultValue: string;
  error?: string;
  suggestion?: string;
}) {
  return (
    <div>
      <TextField
        name={props.name}
        type="url"
        inputMode="url"
        label={props.label}
        hint={props.hint}
        defaultValue={props.defaultValue}
        error={props.error}
        required
      />
      {props.suggestion ? (
        <SuggestionButton
          name={props.name}
          suggestion={props.suggestion}
          onUse={(field) => {
            field.value = props.suggestion ?? field.value;
          }}
        />
      ) : null}
    </div>
  );
}
