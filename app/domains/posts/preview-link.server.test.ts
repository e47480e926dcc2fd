import { describe, expect, it } from "vitest";
import { PREVIEW_LIFETIME_MS, previewSecretOf, signPreviewLink, verifyPreviewLink } from "./preview-link.server.ts";

const secret = previewSecretOf("a".repeat(40));
const now = new Date("2026-03-01T10:00:00.000Z");
const paramsOf = (link: string) => new URL(link, "http://site.test").searchParams;

describe("post preview links", () => {
  it("names the post until it expires", () => {
    const link = signPreviewLink("post-1", { secret, now });
    expect(link).toMatch(/^\/blog\/preview\?post=post-1&expires=\d+&signature=[\w-]+$/);
    expect(verifyPreviewLink(paramsOf(link), { secret, now })).toEqual({
      postId: "post-1",
      expiresAt: new Date(now.getTime() + PREVIEW_LIFETIME_MS),
    });
    const expired = new Date(now.getTime() + PREVIEW_LIFETIME_MS);
    expect(verifyPreviewLink(paramsOf(link), { secret, now: expired })).toBeNull();
  });

  it("refuses a changed post, expiry or signature, and another site's key", () => {
    const params = paramsOf(signPreviewLink("post-1", { secret, now }));
    for (const [name, value] of [
      ["post", "post-2"],
      ["expires", String(Number(params.get("expires")) + 1)],
      ["signature", `${params.get("signature")}x`],
      ["signature", ""],
      ["post", "../etc"],
    ] as const) {
      const changed = new URLSearchParams(params);
      changed.set(name, value);
      expect(verifyPreviewLink(changed, { secret, now }), `${name}=${value}`).toBeNull();
    }
    expect(verifyPreviewLink(params, { secret: previewSecretOf("b".repeat(40)), now })).toBeNull();
    expect(verifyPreviewLink(new URLSearchParams(), { secret, now })).toBeNull();
  });
});
