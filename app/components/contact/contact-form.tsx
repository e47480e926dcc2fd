import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation, useSubmit } from "react-router";
import { TextAreaField, TextField } from "#app/components/ui/field.tsx";
import { CONTACT_LIMITS, challengeOf, HONEYPOT_FIELD, POW_BITS } from "#app/domains/contact/contact-fields.ts";
import type { ContactResult } from "#app/domains/contact/contact-result.ts";
import type { ContactMessageKey } from "#app/i18n/contact-dictionary.ts";
import type { MessageKey, TranslateWith } from "#app/i18n/i18n.ts";

type T = TranslateWith<MessageKey | ContactMessageKey>;

/** A little more than the server's least form age (contact-guard.server.ts), measured from when the token came. */
const WAIT_BEFORE_SENDING_MS = 3_500;

type Proof = { token: string; nonce: string; ready: boolean; since: number };

/** Whether a form sent now would come too early: before its proof of work, or before it is a few seconds old. */
function isEarly(proof: Proof): boolean {
  return !proof.ready || performance.now() - proof.since < WAIT_BEFORE_SENDING_MS;
}

/**
 * The proof of work for the current token, found in the background from the moment the page (or a new token)
 * arrives: the solver's module is fetched only here. `ready` once the nonce is found, or the browser cannot
 * (no WebCrypto outside a secure context): then the form goes without it, as it does without JavaScript.
 */
function useProofOfWork(token: string): Proof {
  const [state, setState] = useState<Proof>({
    token,
    nonce: "",
    ready: false,
    since: 0,
  });
  useEffect(() => {
    const since = performance.now();
    setState({ token, nonce: "", ready: false, since });
    const controller = new AbortController();
    import("./proof-of-work.ts")
      .then(({ solveProofOfWork }) => solveProofOfWork(challengeOf(token), POW_BITS, controller.signal))
      .then(
        (nonce) => {
          if (!controller.signal.aborted) setState({ token, nonce: nonce ?? "", ready: true, since });
        },
        () => {
          if (!controller.signal.aborted) setState({ token, nonce: "", ready: true, since });
        },
      );
    return () => controller.abort();
  }, [token]);
  return state.token === token ? state : { token, nonce: "", ready: false, since: 0 };
}

/** The status message people and screen readers get once a message has gone (focused, so it is read at once). */
export function ContactSent({ t, email }: { t: T; email: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div
      role="status"
      className="max-w-2xl rounded-md border border-emerald-300 bg-emerald-50 px-4 py-4 text-emerald-950 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-50"
    >
      <h2 ref={heading} tabIndex={-1} className="text-lg font-semibold focus:outline-none">
        {t("contact.sent")}
      </h2>
      <p className="mt-1 text-sm">{t("contact.sentText", { email })}</p>
      <p className="mt-3 text-sm">
        <Link
          to="/contact"
          className="font-medium text-emerald-950 underline hover:no-underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-emerald-700 dark:text-emerald-50"
        >
          {t("contact.sendAnother")}
        </Link>
      </p>
    </div>
  );
}

export function ContactForm({
  t,
  token: loadedToken,
  result,
}: {
  t: T;
  token: string;
  result: Extract<ContactResult, { ok: false }> | undefined;
}) {
  // A refused form is sent again with the token it came with (or the fresh one an expired form got).
  const token = result?.token || loadedToken;
  const proof = useProofOfWork(token);
  const navigation = useNavigation();
  const submit = useSubmit();
  const form = useRef<HTMLFormElement>(null);
  const problem = useRef<HTMLDivElement>(null);
  const [waiting, setWaiting] = useState(false);
  const busy = navigation.state === "submitting" && navigation.formAction?.startsWith("/contact") === true;

  // A refusal is announced and focused, so that keyboard and screen-reader users start from it.
  useEffect(() => {
    if (result) problem.current?.focus();
  }, [result]);

  // Sent before the proof of work is found or the form is a few seconds old: it goes as soon as both hold.
  const latest = useRef(proof);
  latest.current = proof;
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (isEarly(latest.current)) return;
      clearInterval(timer);
      setWaiting(false);
      if (form.current) submit(form.current);
    }, 200);
    return () => clearInterval(timer);
  }, [waiting, submit]);

  const errors = result?.fieldErrors ?? {};
  const hasFieldErrors = Object.keys(errors).length > 0;
  return (
    <Form
      ref={form}
      method="post"
      noValidate
      className="max-w-2xl space-y-4"
      onSubmit={(event) => {
        if (isEarly(proof)) {
          event.preventDefault();
          setWaiting(true);
        }
      }}
    >
      {result ? (
        <div
          ref={problem}
          tabIndex={-1}
          role="alert"
          className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900 focus:outline-none dark:border-red-700 dark:bg-red-950 dark:text-red-50"
        >
          <p className="font-semibold">{t("contact.failed")}</p>
          <p className="mt-1">{result.formError ?? (hasFieldErrors ? t("contact.fixFields") : "")}</p>
        </div>
      ) : null}
      <input type="hidden" name="token" value={token} />
      <input type="hidden" name="nonce" value={proof.nonce} />
      <TextField
        label={t("contact.name")}
        name="name"
        autoComplete="name"
        required
        maxLength={CONTACT_LIMITS.name}
        defaultValue={result?.values.name}
        error={errors.name}
      />
      <TextField
        label={t("contact.email")}
        name="email"
        type="email"
        autoComplete="email"
        required
        maxLength={CONTACT_LIMITS.email}
        defaultValue={result?.values.email}
        hint={t("contact.emailHint")}
        error={errors.email}
      />
      <TextAreaField
        label={t("contact.message")}
        name="message"
        rows={8}
        required
        maxLength={CONTACT_LIMITS.message}
        defaultValue={result?.values.message}
        hint={t("contact.messageHint", { max: CONTACT_LIMITS.message })}
        error={errors.message}
      />
      {/* The honeypot: out of sight, out of the tab order and hidden from screen readers, so only a bot fills it. */}
      <div aria-hidden="true" className="absolute -left-[10000px] h-px w-px overflow-hidden">
        <label htmlFor="contact-website">{t("contact.honeypot")}</label>
        <input
          id="contact-website"
          type="text"
          name={HONEYPOT_FIELD}
          tabIndex={-1}
          autoComplete="off"
          defaultValue=""
        />
      </div>
      <noscript>
        <p className="text-sm text-zinc-600 dark:text-zinc-300">{t("contact.noScript")}</p>
      </noscript>
      <div className="flex flex-wrap items-center gap-4">
        <button
          type="submit"
          disabled={busy}
          className="rounded-md bg-indigo-700 px-4 py-2 font-medium text-white hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:opacity-70"
        >
          {busy || waiting ? t("contact.sending") : t("contact.submit")}
        </button>
        <p role="status" className="text-sm text-zinc-600 dark:text-zinc-300">
          {waiting ? t("contact.preparing") : ""}
        </p>
      </div>
    </Form>
  );
}
