import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { storageIn } from "#tests/support/gallery-factories.ts";
import { faviconIcoResponse } from "./favicon-ico.server.ts";

// No uploaded favicon is read here (the HTTP tests upload one): a storage with nothing in it.
const storage = storageIn(path.join(os.tmpdir(), "vitrine-favicon-test"));
const ask = (setting: string) => faviconIcoResponse(setting, new Request("http://localhost/favicon.ico"), storage);

describe("/favicon.ico for a favicon address typed into the settings", () => {
  it("sends the browser to an icon elsewhere on this site", async () => {
    const answer = await ask("/icons/mine.png");
    expect(answer.status).toBe(302);
    expect(answer.headers.get("Location")).toBe("/icons/mine.png");
  });

  it("never redirects to itself, however the address is written (the router matches it whatever the case)", async () => {
    for (const typed of ["/favicon.ico", "/FAVICON.ICO", "/favicon.ico?v=2", "/Favicon.ico#x", "/./favicon.ico"]) {
      const answer = await ask(typed);
      expect(answer.status, typed).toBe(200);
      expect(answer.headers.get("Content-Type"), typed).toBe("image/png");
    }
  });

  it("never redirects off the site, even for a value that was not checked when it was saved", async () => {
    for (const typed of [
      "//evil.example/x.png",
      "/\\evil.example/x.png",
      "/\\/evil.example",
      "https://evil.example/x",
    ]) {
      const answer = await ask(typed);
      expect(answer.status, typed).toBe(200);
      expect(answer.headers.get("Location"), typed).toBeNull();
    }
  });
});
