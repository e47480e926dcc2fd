import { KeyRound, Mail, MonitorSmartphone, ShieldCheck } from "lucide-react";
import { SectionLayout } from "#app/components/section-layout.tsx";
import { type AccountMessageKey, accountDictionaryFor } from "#app/i18n/account-dictionary.ts";
import { type AccountLayoutData, useAccountTranslate } from "#app/lib/account-data.ts";
import { languageOf } from "#app/lib/preferences.ts";
import { noindexPageMeta } from "#app/web/meta.ts";
import { requireUser } from "#app/web/session.server.ts";
import type { Route } from "./+types/account";

/** Every account page is for its signed-in owner only: visitors go to sign in and come back. */
export async function loader({ request, url, context }: Route.LoaderArgs): Promise<AccountLayoutData> {
  const user = requireUser(url, context);
  const { lang } = languageOf(request);
  return { email: user.email, isAdmin: user.isAdmin, lang, dictionary: accountDictionaryFor(lang) };
}

export function meta({ matches, location }: Route.MetaArgs) {
  return noindexPageMeta(matches, location.pathname, { en: "Your account", de: "Ihr Konto" });
}

const sections: { to: string; title: AccountMessageKey; icon: typeof KeyRound; end?: boolean }[] = [
  { to: "/account", title: "account.nav.overview", icon: KeyRound, end: true },
  { to: "/account/email", title: "account.nav.email", icon: Mail },
  { to: "/account/sessions", title: "account.nav.sessions", icon: MonitorSmartphone },
  { to: "/account/two-factor", title: "account.nav.twoFactor", icon: ShieldCheck },
];

export default function AccountLayout() {
  const t = useAccountTranslate();
  const links = sections.map(({ title, ...link }) => ({ ...link, label: t(title) }));
  return <SectionLayout label={t("account.nav.label")} links={links} navWidth="lg:w-56" />;
}
