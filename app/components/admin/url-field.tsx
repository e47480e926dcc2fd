import { useEffect, useState } from "react";
import { buttonClass } from "#app/components/ui/button.tsx";
import { TextField } from "#app/components/ui/field.tsx";
import { useAdminTranslate } from "#app/lib/admin-data.ts";

/**
 * An address field of a content form. When the server refused an address that only lacked its beginning, its
 * error says what it most likely meant and a button offers it: with JavaScript the button fills the field in
 * (the admin saves when ready); without, it is a submit button that sends the form with the completed address.
 */
export function UrlField(props: {
  name: string;
  label: string;
  hint: string;
  defaultValue: string;
  error?: string;
  suggestion?: string;
}) {
  const t = useAdminTranslate();
  const [hydrated, setHydrated] = useState(false);
  const [used, setUsed] = useState<string | null>(null);
  useEffect(() => setHydrated(true), []);
  const { suggestion } = props;
  const offered = suggestion && suggestion !== used ? suggestion : null;
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
      {offered ? (
        <button
          // Later in the form than the field: without JavaScript its value is the one the server reads.
          type={hydrated ? "button" : "submit"}
          name={hydrated ? undefined : props.name}
          value={hydrated ? undefined : offered}
          className={`${buttonClass("secondary", "sm")} mt-2 max-w-full break-all`}
          onClick={(event) => {
            if (!hydrated) return;
            const field = event.currentTarget.form?.elements.namedItem(props.name);
            if (!(field instanceof HTMLInputElement)) return;
            field.value = offered;
            field.focus();
            setUsed(offered);
          }}
        >
          {t("admin.common.useSuggestion", { suggestion: offered })}
        </button>
      ) : null}
    </div>
  );
}
