import { describe, expect, it } from "vitest";
import { de } from "#app/i18n/de.ts";
import { en } from "#app/i18n/en.ts";
import { loader as rootLoader } from "#app/root.tsx";
import { routeArgs, useRouteRuntime } from "../support/route-context.ts";

// The root loader called in-process (tests/support/route-context.ts): the data every page carries.
describe("the root loader's dictionary", () => {
  const current = useRouteRuntime("sqlite");

  it("is the visitor's language's whole dictionary, sent as one JSON text (one value for the page's serialiser)", async () => {
    const { runtime } = current();
    const english = await rootLoader(routeArgs(runtime, null, "/"));
    expect(typeof english.dictionary).toBe("string");
    expect(JSON.parse(english.dictionary)).toEqual(en);
    const german = await rootLoader(routeArgs(runtime, null, "/?lang=de"));
    expect(german.lang).toBe("de");
    expect(JSON.parse(german.dictionary)).toEqual(de);
    expect(JSON.parse(german.dictionary)["nav.gallery"]).not.toBe(en["nav.gallery"]);
  });
});
