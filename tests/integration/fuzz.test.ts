import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { albumFieldsSchema } from "#app/domains/albums/album-schema.ts";
import { addAlbumPictures, createAlbum } from "#app/domains/albums/albums.server.ts";
import { BACKUP_TABLES } from "#app/domains/backup/tables.server.ts";
import { faqService } from "#app/domains/faq/faq.server.ts";
import { linksService } from "#app/domains/links/links.server.ts";
import { createPost } from "#app/domains/posts/post-admin.server.ts";
import { settingKinds } from "#app/domains/settings/settings-form.ts";
import { videosService } from "#app/domains/videos/videos.server.ts";
import { withoutControlCharacters } from "#app/lib/text-schema.ts";
import routes from "#app/routes.ts";
import {
  signedInAdminAndMember,
  startServerOnFreshDatabase,
  stopServerAndDatabase,
} from "#tests/support/admin-server.ts";
import { contactFormFields, enableContactForm } from "#tests/support/contact-form.ts";
import { type CreatedUser, createInvite, createUser } from "#tests/support/factories.ts";
import {
  NASTY_VALUES,
  plain,
  randomValues,
  seededRandom,
  valuesForField,
  wireBytes,
  wireForm,
} from "#tests/support/fuzz-values.ts";
import { createGalleryPicture, factoryActor, storageIn } from "#tests/support/gallery-factories.ts";
import {
  type HttpResponse,
  ROOT,
  request,
  type ServerProcess,
  TEST_AUTH_SECRET,
} from "#tests/support/server-process.ts";
import { databaseKinds, type TestDatabase } from "#tests/support/test-database.ts";

/**
 * Issue 9: every form field and query parameter, on both databases, with values no form sends (NUL,
 * control characters, lone surrogates and invalid UTF-8 as raw bytes, very long text, numbers out of range,
 * repeated fields, RTL and zero-width characters, SQL and HTML metacharacters). No answer may be a 5xx,
 * the process must stay up, and a refused write must change nothing.
 */

type RouteEntry = { file: string; path?: string; index?: boolean; children?: RouteEntry[] };

/** The route table as `{ file, path }` with full paths (`:kind` and `*` as written). */
function flattenRoutes(entries: RouteEntry[], parent = ""): { file: string; path: string }[] {
  return entries.flatMap((entry) => {
    const own = entry.index ? parent || "/" : `${parent}/${entry.path ?? ""}`.replace(/\/+/g, "/");
    return [{ file: entry.file, path: own }, ...flattenRoutes(entry.children ?? [], own === "/" ? "" : own)];
  });
}

const ROUTES = flattenRoutes(routes as RouteEntry[]);
const source = (file: string) => fs.readFileSync(path.join(ROOT, "app", file), "utf8");
/** A route module and its sibling `.server.ts` (a big route's loader and action live there). */
const sourceWithServer = (file: string) => {
  const sibling = path.join(ROOT, "app", file.replace(/\.tsx?$/, ".server.ts"));
  return source(file) + (fs.existsSync(sibling) ? fs.readFileSync(sibling, "utf8") : "");
};
const hasExport = (file: string, name: "action" | "loader") =>
  new RegExp(`export (async )?function ${name}\\b|export const ${name}\\b`).test(source(file));

/** Every query parameter a route module reads (`lang` is read for every page, by languageOf). */
function queryParamsReadBy(file: string): string[] {
  const names = [...sourceWithServer(file).matchAll(/(?:searchParams|params)\.get\("([^"]+)"\)/g)].map(
    (match) => match[1] ?? "",
  );
  return [...new Set(names)];
}

type Who = "admin" | "visitor";

/** One form of one route: a valid baseline and the fields to replace, one at a time, with each value. */
type FormTarget = {
  file: string;
  path: string;
  who: Who;
  baseline: Record<string, string>;
  fuzz: string[];
  /** Fields checked by the same code as one in `fuzz`: only the values that broke things before. */
  light?: string[];
  /** multipart: sent as the upload screens send it, the file's name fuzzed too. */
  multipart?: { fileField: string; file: Buffer; type: string };
};

type Seeded = {
  admin: CreatedUser;
  member: CreatedUser;
  pictureId: string;
  linkId: string;
  faqId: string;
  videoId: string;
  postId: string;
  albumId: string;
  inviteCode: string;
  messageId: string;
  /** A contact form as a browser sends it: a signed token old enough, its proof of work. */
  contactForm: Record<string, string>;
};

const CONTENT_FIELDS = {
  "routes/admin.links.tsx": ["title", "title_de", "url", "icon", "active"],
  "routes/admin.faq.tsx": ["question", "question_de", "answer", "answer_de", "active"],
  "routes/admin.videos.tsx": ["title", "title_de", "description", "description_de", "embed_url", "active"],
} as const;

function contentTargets(
  file: keyof typeof CONTENT_FIELDS,
  pathname: string,
  id: string,
  valid: Record<string, string>,
): FormTarget[] {
  const fields = [...CONTENT_FIELDS[file]];
  return [
    { file, path: pathname, who: "admin", baseline: { intent: "create", ...valid }, fuzz: ["intent", ...fields] },
    { file, path: pathname, who: "admin", baseline: { intent: "update", id, ...valid }, fuzz: ["id", ...fields] },
    { file, path: pathname, who: "admin", baseline: { intent: "toggle", id, active: "true" }, fuzz: ["id", "active"] },
    { file, path: pathname, who: "admin", baseline: { intent: "delete", id }, fuzz: ["id"] },
    { file, path: pathname, who: "admin", baseline: { intent: "reorder", ids: id }, fuzz: ["ids"] },
  ];
}

function formTargets(seeded: Seeded, tinyJpeg: Buffer): FormTarget[] {
  const galleryTexts = {
    title: "A title",
    title_de: "Ein Titel",
    description: "Text",
    description_de: "Text",
    category: "Nature",
    category_de: "Natur",
  };
  // One setting of each kind gets every value; the others share its code and get the few that broke things.
  const settingsKeys = Object.keys(settingKinds) as (keyof typeof settingKinds)[];
  const kindSamples = [...new Map(settingsKeys.map((key) => [settingKinds[key], key])).values()];
  return [
    {
      file: "routes/admin.gallery.tsx",
      path: "/admin/gallery",
      who: "admin",
      baseline: { intent: "update", id: seeded.pictureId, ...galleryTexts },
      fuzz: ["intent", "id", ...Object.keys(galleryTexts)],
    },
    {
      file: "routes/admin.gallery.tsx",
      path: "/admin/gallery",
      who: "admin",
      baseline: { intent: "publish", id: seeded.pictureId, name: "A title" },
      fuzz: ["id", "name"],
    },
    {
      file: "routes/admin.gallery.tsx",
      path: "/admin/gallery",
      who: "admin",
      baseline: { intent: "delete", id: seeded.pictureId },
      fuzz: ["id"],
    },
    {
      file: "routes/admin.gallery.tsx",
      path: "/admin/gallery",
      who: "admin",
      baseline: { intent: "reorder", ids: seeded.pictureId },
      fuzz: ["ids"],
    },
    // Who may see a picture (issue 21): moves its files between public and member names.
    {
      file: "routes/admin.gallery.tsx",
      path: "/admin/gallery",
      who: "admin",
      baseline: { intent: "access", id: seeded.pictureId, visibility: "members", group_ids: "", name: "A title" },
      fuzz: ["id", "visibility", "group_ids", "name"],
    },
    {
      file: "routes/admin.gallery.tsx",
      path: "/admin/gallery",
      who: "admin",
      baseline: { intent: "bulk-access", ids: seeded.pictureId, visibility: "everyone", group_ids: "" },
      fuzz: ["ids", "visibility", "group_ids"],
    },
    ...contentTargets("routes/admin.links.tsx", "/admin/links", seeded.linkId, {
      title: "Link",
      title_de: "",
      url: "https://example.com/",
      icon: "github",
      active: "on",
    }),
    ...contentTargets("routes/admin.faq.tsx", "/admin/faq", seeded.faqId, {
      question: "Why?",
      question_de: "",
      answer: "Because.",
      answer_de: "",
      active: "on",
    }),
    ...contentTargets("routes/admin.videos.tsx", "/admin/videos", seeded.videoId, {
      title: "Video",
      title_de: "",
      description: "",
      description_de: "",
      embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
      active: "on",
    }),
    // Who may see a video (issue 21): moves an uploaded file and a poster between public and member names.
    {
      file: "routes/admin.videos.tsx",
      path: "/admin/videos",
      who: "admin",
      baseline: { intent: "access", id: seeded.videoId, visibility: "members", group_ids: "", name: "Video" },
      fuzz: ["id", "visibility", "group_ids", "name"],
    },
    {
      file: "routes/admin.settings.tsx",
      path: "/admin/settings",
      who: "admin",
      baseline: { intent: "save", site_name: "Fuzzed site", __was__site_name: "Vitrine" },
      fuzz: ["intent", "__was__site_name", ...kindSamples],
      light: settingsKeys.filter((key) => !kindSamples.includes(key)),
    },
    {
      file: "routes/admin.markdown-preview.ts",
      path: "/admin/markdown-preview",
      who: "admin",
      baseline: { source: "**bold**" },
      fuzz: ["source"],
    },
    // The post editor (issue 12): every field of a save, the schedule picker, the autosave, the preview, the upload.
    {
      file: "routes/admin.posts.$id.tsx",
      path: `/admin/posts/${seeded.postId}`,
      who: "admin",
      baseline: {
        intent: "save",
        title: "Post",
        title_de: "Beitrag",
        slug: "post",
        slug_de: "",
        excerpt: "",
        excerpt_de: "",
        body: "## Hello",
        body_de: "",
        cover_image_id: "",
        cover_alt: "",
        cover_alt_de: "",
        tags: "notes, travel",
      },
      fuzz: [
        "intent",
        "title",
        "title_de",
        "slug",
        "slug_de",
        "excerpt",
        "body",
        "cover_image_id",
        "cover_alt",
        "tags",
        "base_updated_at",
      ],
      light: ["excerpt_de", "body_de", "cover_alt_de"],
    },
    {
      file: "routes/admin.posts.$id.tsx",
      path: "/admin/posts/new",
      who: "admin",
      baseline: { intent: "schedule", title: "Later", publish_local: "2099-01-01T10:00", time_zone: "Europe/Berlin" },
      fuzz: ["publish_local", "time_zone", "post_id"],
    },
    {
      file: "routes/admin.posts.autosave.ts",
      path: "/admin/posts/autosave",
      who: "admin",
      baseline: { post_id: "", title: "Draft", body: "Text" },
      fuzz: ["post_id", "title", "body", "base_updated_at"],
    },
    // A post's share links (issue 21): make one, revoke one (an id no link has).
    {
      file: "routes/admin.posts.$id.shares.ts",
      path: `/admin/posts/${seeded.postId}/shares`,
      who: "admin",
      baseline: { intent: "create", expires_on: "2099-12-31", password: "" },
      fuzz: ["intent", "expires_on", "password"],
    },
    {
      file: "routes/admin.posts.$id.shares.ts",
      path: `/admin/posts/${seeded.postId}/shares`,
      who: "admin",
      baseline: { intent: "revoke", link: "00000000-0000-4000-8000-000000000000" },
      fuzz: ["link"],
    },
    // An album's share links: the same writes on an album.
    {
      file: "routes/admin.albums.$id.shares.ts",
      path: `/admin/albums/${seeded.albumId}/shares`,
      who: "admin",
      baseline: { intent: "create", expires_on: "", password: "harbour" },
      fuzz: ["intent", "expires_on", "password", "link"],
    },
    // A share link's password form, on a link that names nothing (answered as a missing page, whatever is sent).
    {
      file: "routes/share.$token.tsx",
      path: "/s/sharenothing0000000000000000000000000000000",
      who: "visitor",
      baseline: { password: "lighthouse" },
      fuzz: ["password"],
    },
    {
      file: "routes/admin.posts.$id.presence.ts",
      path: `/admin/posts/${seeded.postId}/presence`,
      who: "admin",
      baseline: { intent: "here", tab: "0b6c3c1e-8d7a-4c55-9f11-1a2b3c4d5e6f" },
      fuzz: ["intent", "tab"],
    },
    {
      file: "routes/admin.posts.preview.ts",
      path: "/admin/posts/preview",
      who: "admin",
      baseline: { source: "## Hello ![x](image:no-such-image)", lang: "de" },
      fuzz: ["source", "lang"],
    },
    {
      file: "routes/admin.uploads.posts.ts",
      path: "/admin/uploads/posts",
      who: "admin",
      baseline: {},
      fuzz: [],
      multipart: { fileField: "file", file: tinyJpeg, type: "image/jpeg" },
    },
    // Last of the post's: once it went through, the post is gone and every later one is refused as unknown.
    {
      file: "routes/admin.posts.$id.tsx",
      path: `/admin/posts/${seeded.postId}`,
      who: "admin",
      baseline: { intent: "delete" },
      fuzz: ["intent"],
    },
    // Reads no field: only the whole bodies below reach it (each answered with a fresh archive).
    { file: "routes/admin.backup.ts", path: "/admin/backup", who: "admin", baseline: {}, fuzz: [] },
    {
      file: "routes/admin.invites.tsx",
      path: "/admin/invites",
      who: "admin",
      baseline: { intent: "create", count: "1", note: "For a friend", group_ids: "" },
      fuzz: ["intent", "count", "note", "group_ids"],
    },
    {
      file: "routes/admin.invites.tsx",
      path: "/admin/invites",
      who: "admin",
      baseline: { intent: "delete", code: seeded.inviteCode },
      fuzz: ["code"],
    },
    {
      file: "routes/admin.invites.tsx",
      path: "/admin/invites",
      who: "admin",
      baseline: { intent: "send", email: "fuzzed-invite@example.test", language: "en" },
      fuzz: ["email", "language"],
    },
    // The dashboard's "Try again" for failed background work (an id no job has: refused as answered already).
    {
      file: "routes/admin.jobs.ts",
      path: "/admin/jobs",
      who: "admin",
      baseline: { intent: "retry", id: "00000000-0000-4000-8000-000000000000" },
      fuzz: ["intent", "id"],
    },
    // The dashboard's "dismiss" for failed deliveries.
    {
      file: "routes/admin.outbox.tsx",
      path: "/admin/outbox",
      who: "admin",
      baseline: { intent: "dismiss-failures" },
      fuzz: ["intent"],
    },
    {
      file: "routes/admin.users.tsx",
      path: "/admin/users",
      who: "admin",
      baseline: { intent: "signOut", userId: seeded.member.id },
      fuzz: ["intent", "userId", "confirmSelf"],
    },
    // An account's groups (issue 21): one field per group (`group.<id>`), none here.
    {
      file: "routes/admin.users.tsx",
      path: "/admin/users",
      who: "admin",
      baseline: { intent: "setGroups", userId: seeded.member.id },
      fuzz: ["userId"],
    },
    // Albums (issue 21): a new one, the albums' order, one album's fields, pictures, order and cover.
    {
      file: "routes/admin.albums.tsx",
      path: "/admin/albums",
      who: "admin",
      baseline: { intent: "create", title: "Fuzzed album", visibility: "members" },
      fuzz: ["intent", "title", "slug", "visibility", "group_ids"],
    },
    {
      file: "routes/admin.albums.tsx",
      path: "/admin/albums",
      who: "admin",
      baseline: { intent: "reorder", ids: seeded.albumId },
      fuzz: ["ids"],
    },
    {
      file: "routes/admin.albums.$id.tsx",
      path: `/admin/albums/${seeded.albumId}`,
      who: "admin",
      baseline: { intent: "save", title: "Album", title_de: "Album", slug: "", slug_de: "", description: "Text" },
      fuzz: ["intent", "title", "title_de", "slug", "slug_de", "description", "visibility", "group_ids"],
    },
    {
      file: "routes/admin.albums.$id.tsx",
      path: `/admin/albums/${seeded.albumId}`,
      who: "admin",
      baseline: { intent: "cover", pictureId: seeded.pictureId },
      fuzz: ["intent", "pictureId", "ids"],
    },
    {
      file: "routes/admin.groups.tsx",
      path: "/admin/groups",
      who: "admin",
      baseline: { intent: "create", name: "Fuzzed group" },
      fuzz: ["intent", "name"],
    },
    {
      file: "routes/admin.groups.tsx",
      path: "/admin/groups",
      who: "admin",
      baseline: { intent: "addMember", groupId: "no-such-group", userId: seeded.member.id },
      fuzz: ["groupId", "userId"],
    },
    // The admin's own account: every password sent is wrong (refused, nothing changed), the language is harmless.
    {
      file: "routes/account._index.tsx",
      path: "/account?index",
      who: "admin",
      baseline: { intent: "language", language: "de" },
      fuzz: ["intent", "language"],
    },
    {
      file: "routes/account._index.tsx",
      path: "/account?index",
      who: "admin",
      baseline: { intent: "name", name: "Fuzzed Name" },
      fuzz: ["name"],
    },
    {
      file: "routes/account._index.tsx",
      path: "/account?index",
      who: "admin",
      baseline: { intent: "password", currentPassword: "wrong-password-1234", newPassword: "Fuzzed-new-password-1" },
      fuzz: ["currentPassword", "newPassword"],
    },
    {
      file: "routes/account._index.tsx",
      path: "/account?index",
      who: "admin",
      baseline: { intent: "delete", password: "wrong-password-1234" },
      fuzz: ["password"],
    },
    // The switch of mails about new posts: on or off, nothing else is taken.
    {
      file: "routes/account._index.tsx",
      path: "/account?index",
      who: "admin",
      baseline: { intent: "subscriptions", posts: "on" },
      fuzz: ["posts"],
    },
    // A made-up token names no account: every post is refused and changes nothing.
    {
      file: "routes/unsubscribe.$token.tsx",
      path: "/unsubscribe/bm8tc3VjaC1hY2NvdW50.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      who: "visitor",
      baseline: { "List-Unsubscribe": "One-Click" },
      fuzz: ["List-Unsubscribe"],
    },
    {
      file: "routes/account.sessions.tsx",
      path: "/account/sessions",
      who: "admin",
      baseline: { intent: "signOut", sessionId: "no-such-session" },
      fuzz: ["intent", "sessionId"],
    },
    {
      file: "routes/admin.uploads.gallery.ts",
      path: "/admin/uploads/gallery",
      who: "admin",
      baseline: {},
      fuzz: [],
      multipart: { fileField: "file", file: tinyJpeg, type: "image/jpeg" },
    },
    {
      file: "routes/admin.uploads.videos.ts",
      path: "/admin/uploads/videos",
      who: "admin",
      baseline: { intent: "poster", id: seeded.videoId },
      fuzz: ["intent", "id"],
      multipart: { fileField: "poster", file: tinyJpeg, type: "image/jpeg" },
    },
    {
      file: "routes/admin.uploads.videos.ts",
      path: "/admin/uploads/videos",
      who: "admin",
      baseline: { intent: "create", title: "Clip", title_de: "", description: "", description_de: "", active: "on" },
      fuzz: ["title", "title_de", "description", "description_de", "active"],
      multipart: { fileField: "video", file: Buffer.from("not a video"), type: "video/mp4" },
    },
    {
      file: "routes/admin.uploads.site.ts",
      path: "/admin/uploads/site/logo",
      who: "admin",
      baseline: {},
      fuzz: [],
      multipart: { fileField: "file", file: tinyJpeg, type: "image/jpeg" },
    },
    {
      file: "routes/api.preferences.ts",
      path: "/api/preferences",
      who: "visitor",
      baseline: { theme: "light", lang: "de", redirectTo: "/faq?lang=en" },
      fuzz: ["theme", "lang", "redirectTo"],
    },
    {
      file: "routes/auth.tsx",
      path: "/auth",
      who: "visitor",
      baseline: { intent: "sign-in", email: seeded.member.email, password: "wrong-password-1234", redirectTo: "/" },
      fuzz: ["intent", "email", "password", "redirectTo"],
    },
    {
      file: "routes/auth.tsx",
      path: "/auth",
      who: "visitor",
      baseline: { intent: "sign-up", email: "new-fuzz@example.test", password: "short", inviteCode: seeded.inviteCode },
      fuzz: ["email", "password", "inviteCode"],
    },
    // No sign-in is pending for a visitor here: every post is refused before any code is checked.
    {
      file: "routes/auth.two-factor.tsx",
      path: "/auth/two-factor",
      who: "visitor",
      baseline: { intent: "totp", code: "123456", redirectTo: "/" },
      fuzz: ["intent", "code", "redirectTo"],
    },
    // A wrong password (the admin's is not among the values): nothing starts.
    {
      file: "routes/account.two-factor.tsx",
      path: "/account/two-factor",
      who: "admin",
      baseline: { intent: "start", password: "wrong-password-1234" },
      fuzz: ["intent", "password"],
    },
    {
      file: "routes/account.two-factor.tsx",
      path: "/account/two-factor",
      who: "admin",
      baseline: {
        intent: "confirm",
        code: "123456",
        uri: "otpauth://totp/Vitrine:a%40example.test?secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP&issuer=Vitrine",
      },
      fuzz: ["code", "uri"],
    },
    {
      file: "routes/auth.forgot.tsx",
      path: "/auth/forgot",
      who: "visitor",
      baseline: { email: seeded.member.email },
      fuzz: ["email"],
    },
    {
      file: "routes/auth.reset.tsx",
      path: "/auth/reset",
      who: "visitor",
      baseline: { token: "a-made-up-reset-token-that-opens-nothing", password: "Fuzz-password-1234" },
      fuzz: ["token", "password"],
    },
    {
      file: "routes/account.email.tsx",
      path: "/account/email",
      who: "admin",
      baseline: { newEmail: "fuzz-new@example.test", password: "wrong-password-1234" },
      fuzz: ["newEmail", "password"],
    },
    {
      file: "routes/account.confirm-email.tsx",
      path: "/account/confirm-email",
      who: "visitor",
      baseline: { token: "a-made-up-confirmation-token-opens-nothing", password: "wrong-password-1234" },
      fuzz: ["token", "password"],
    },
    // The contact form (on for this test): until its token has sent one message, values reach the validation.
    {
      file: "routes/contact.tsx",
      path: "/contact",
      who: "visitor",
      baseline: seeded.contactForm,
      fuzz: ["name", "email", "message", "website", "token", "nonce"],
    },
    {
      file: "routes/admin.messages.$id.tsx",
      path: `/admin/messages/${seeded.messageId}`,
      who: "admin",
      baseline: { intent: "read", id: seeded.messageId },
      fuzz: ["intent", "id"],
    },
    {
      file: "routes/admin.messages.tsx",
      path: "/admin/messages",
      who: "admin",
      baseline: { intent: "unread", id: seeded.messageId },
      fuzz: ["intent", "id"],
    },
    // Signing out ends the session it is sent with: sent as a visitor, its body is all there is to fuzz.
    { file: "routes/auth.sign-out.ts", path: "/auth/sign-out", who: "visitor", baseline: {}, fuzz: ["anything"] },
  ];
}

/** Query parameters per page beyond `lang`, and the pages they belong to; checked against the sources below. */
const QUERY_PARAMS: Record<string, string[]> = {
  "routes/gallery.tsx": ["page", "category", "image"],
  "routes/auth.tsx": ["redirectTo", "invite", "mode"],
  "routes/admin.audit.tsx": ["area", "page"],
  "routes/admin.posts.tsx": ["status", "q", "done"],
  "routes/admin.posts.$id.tsx": ["done"],
  "routes/admin.posts.$id.presence.ts": ["tab"],
  "routes/auth.two-factor.tsx": ["redirectTo"],
  "routes/account.two-factor.tsx": ["required"],
  "routes/auth.reset.tsx": ["token"],
  "routes/account.confirm-email.tsx": ["token"],
  "routes/blog._index.tsx": ["page"],
  "routes/blog.tag.$tag.tsx": ["page"],
  "routes/blog.preview.tsx": ["post", "expires", "signature"],
  "routes/search.tsx": ["q", "page", "suggest", "scope"],
  "routes/albums.$slug.tsx": ["page", "image"],
  // A shared album's page and opened picture (issue 21).
  "routes/share.$token.tsx": ["page", "image"],
  "routes/admin.uploads.gallery.ts": ["album"],
  // The statistics' range (issue 46): a preset, or two dates.
  "routes/admin.statistics.tsx": ["range", "from", "to"],
};

/** Tables a refused request may still write: the sign-in failure count, and better-auth's scratch table. */
const REFUSAL_MAY_WRITE = new Set(["sign_in_failures", "verification"]);

describe("the fuzz lists", () => {
  it("cover every route with an action, and every query parameter a route reads", () => {
    const seeded = { admin: {}, member: {} } as unknown as Seeded;
    const covered = new Set(formTargets(seeded, Buffer.alloc(0)).map((target) => target.file));
    const withAction = ROUTES.filter((route) => hasExport(route.file, "action")).map((route) => route.file);
    expect(withAction.length).toBeGreaterThan(10);
    expect(withAction.filter((file) => !covered.has(file))).toEqual([]);
    for (const route of ROUTES) {
      expect.soft(queryParamsReadBy(route.file), route.file).toEqual(QUERY_PARAMS[route.file] ?? []);
    }
  });
});

describe.each(databaseKinds)("every input, fuzzed over HTTP (%s)", (kind) => {
  let database: TestDatabase;
  let server: ServerProcess;
  let adminCookie: string;
  let seeded: Seeded;
  let tinyJpeg: Buffer;
  const random = seededRandom(20_261_123);
  let clientCounter = 0;
  const problems: string[] = [];
  // Said as found too, so that a run cut short still shows what it found.
  const report = (problem: string) => {
    problems.push(problem);
    console.warn(`fuzz (${kind}): ${problem}`);
  };

  beforeAll(async () => {
    ({ database, server } = await startServerOnFreshDatabase(kind));
    const users = await signedInAdminAndMember(database);
    adminCookie = users.adminCookie;
    const member = await createUser(database.db);
    const storage = storageIn(database.location.dataDir);
    const pictureId = await createGalleryPicture(database.db, storage, {
      title: "A title",
      category: "Nature",
      width: 400,
      height: 300,
    });
    const link = await linksService.create(database.db, factoryActor, {
      title: "Link",
      url: "https://example.com/",
      icon: "github",
      active: "on",
    });
    const faq = await faqService.create(database.db, factoryActor, { question: "Q?", answer: "A.", active: "on" });
    const video = await videosService.create(database.db, factoryActor, {
      title: "Video",
      embed_url: "https://www.youtube.com/watch?v=aqz-KE-bpKQ",
      active: "on",
    });
    const post = await createPost(database.db, factoryActor, { title: "Post", title_de: "Beitrag", body: "Text" });
    const album = await createAlbum(database.db, factoryActor, albumFieldsSchema.parse({ title: "Album" }));
    if (!link.ok || !faq.ok || !video.ok || !post.ok || !album.ok)
      throw new Error("The fuzz test's content was refused");
    await addAlbumPictures(database.db, factoryActor, album.id, [pictureId]);
    seeded = {
      admin: users.admin,
      member,
      pictureId,
      linkId: link.id,
      faqId: faq.id,
      videoId: video.id,
      postId: post.id,
      albumId: album.id,
      inviteCode: await createInvite(database.db),
      messageId: "fuzz-message",
      contactForm: contactFormFields(TEST_AUTH_SECRET, { email: "fuzz-sender@example.test" }),
    };
    await enableContactForm(database.db);
    await database.db
      .insertInto("contact_messages")
      .values({
        id: seeded.messageId,
        name: "Fuzz",
        email: "fuzz@example.test",
        message: "A message",
        language: "en",
        created_at: new Date(),
        read_at: null,
      })
      .execute();
    tinyJpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#336699" } })
      .jpeg()
      .toBuffer();
  });

  afterAll(() => stopServerAndDatabase(server, database));

  /** Every row count and the audit log's length: a refused request must leave all of them as they were. */
  async function fingerprint(): Promise<string> {
    // Every table a backup holds, except those a refused sign-in may rightly write (its failure count) and
    // better-auth's scratch table: a table added to the schema is watched here without anyone remembering to.
    const tables = BACKUP_TABLES.map((table) => table.name).filter((name) => !REFUSAL_MAY_WRITE.has(name));
    const counts = sql.join(tables.map((table) => sql`(select count(*) from ${sql.table(table)})`));
    const used = sql`(select count(*) from invite_codes where is_used = ${true})`;
    const { rows } = await sql<Record<string, unknown>>`select ${counts}, ${used}`.execute(database.db);
    return JSON.stringify(Object.values(rows[0] ?? {}).map(Number));
  }

  /** A fresh client address per visitor post, so the sign-in limiter never stands between the fuzz and the form. */
  function nextClient(): string {
    clientCounter += 1;
    return `127.${Math.floor(clientCounter / 250) % 250}.${clientCounter % 250}.${1 + (clientCounter % 200)}`;
  }

  async function sendForm(target: FormTarget, body: Buffer | string, contentType: string): Promise<HttpResponse> {
    const headers: Record<string, string> = { "Content-Type": contentType, Origin: server.origin };
    if (target.who === "admin") headers.Cookie = adminCookie;
    if (target.multipart) headers.Accept = "application/json";
    return requestRaw(server.url(target.path), headers, body, target.who === "visitor" ? nextClient() : undefined);
  }

  // The data as it was after the last answer; a write that went through makes it unknown again.
  let known: string | undefined;

  /** Checks one answer and, when it refused a write, that the data is as it was. */
  async function check(label: string, send: () => Promise<HttpResponse>, write = true) {
    if (write) known ??= await fingerprint();
    const before = known;
    let response: HttpResponse;
    try {
      response = await send();
    } catch (error) {
      const ended = server.child.exitCode !== null || server.child.signalCode !== null;
      report(
        `${label}: no answer (${(error as Error).message})${ended ? `; the server ended:\n${server.stderr.slice(-2000)}` : ""}`,
      );
      if (ended) throw new Error(`The server ended (${server.child.exitCode ?? server.child.signalCode})`);
      return;
    }
    if (response.status >= 500) report(`${label}: ${response.status} ${response.body.slice(0, 200)}`);
    if (!write) return;
    if (response.status >= 400 && response.status !== 429) {
      known = await fingerprint();
      if (known !== before) report(`${label}: refused with ${response.status} but changed ${before} → ${known}`);
    } else {
      known = undefined;
    }
  }

  /** Runs the checks a few at a time (reads only: a write's check needs the data to itself). */
  async function inParallel(checks: (() => Promise<void>)[], width = 4) {
    let next = 0;
    const worker = async () => {
      while (next < checks.length) {
        const run = checks[next];
        next += 1;
        await run?.();
      }
    };
    await Promise.all(Array.from({ length: width }, worker));
  }

  function multipartBody(target: FormTarget, fields: Record<string, string | string[]>, fileName: string) {
    const boundary = "----vitrine-fuzz-boundary";
    const parts: Buffer[] = [];
    for (const [name, value] of Object.entries(fields)) {
      for (const one of Array.isArray(value) ? value : [value]) {
        parts.push(
          Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`),
          wireBytes(one),
          Buffer.from("\r\n"),
        );
      }
    }
    const file = target.multipart;
    if (file) {
      parts.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.fileField}"; filename="`),
        wireBytes(fileName),
        Buffer.from(`"\r\nContent-Type: ${file.type}\r\n\r\n`),
        file.file,
        Buffer.from("\r\n"),
      );
    }
    parts.push(Buffer.from(`--${boundary}--\r\n`));
    return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
  }

  function send(target: FormTarget, fields: Record<string, string | string[]>, fileName = "photo.jpg") {
    if (target.multipart) {
      const { body, contentType } = multipartBody(target, fields, fileName);
      return sendForm(target, body, contentType);
    }
    return sendForm(target, wireForm(fields), "application/x-www-form-urlencoded");
  }

  // First, while the picture is as the test made it.
  it("treats an invalid picture id in the address like an unknown one: the gallery, no lightbox", async () => {
    const unknown = await requestRaw(server.url("/?image=no-such-picture"), {});
    expect(unknown.status).toBe(200);
    expect(unknown.body).toContain("A title");
    for (const value of ["%00", "%FF", "%ED%A0%80", "a%00b", "%C2%80"]) {
      const response = await requestRaw(server.url(`/?image=${value}`), {});
      expect(response.status, value).toBe(200);
      expect(response.body, value).toContain("A title");
    }
  });

  it("answers every form post without a server error, and a refused one changes nothing", async () => {
    problems.length = 0;
    const started = Date.now();
    let sent = 0;
    for (const target of formTargets(seeded, tinyJpeg)) {
      const baseline = Object.fromEntries(Object.entries(target.baseline).map(([name, value]) => [name, plain(value)]));
      const where = `POST ${target.path} ${JSON.stringify(target.baseline).slice(0, 60)}`;
      for (const field of target.fuzz) {
        for (const value of valuesForField(random, 4)) {
          await check(`${where} ${field}=${value.slice(0, 40)}`, () => send(target, { ...baseline, [field]: value }));
          sent += 1;
        }
        // A field sent twice, and as a bracketed "array".
        await check(`${where} ${field} twice`, () => send(target, { ...baseline, [field]: ["%00", "x"] }));
        await check(`${where} ${field}[]`, () => send(target, { ...baseline, [`${field}[]`]: "%00" }));
        sent += 2;
      }
      for (const field of target.light ?? []) {
        for (const value of ["%00", "%C2%80", "%E4%B8%AD".repeat(40_000)]) {
          await check(`${where} ${field}=${value.slice(0, 40)}`, () => send(target, { ...baseline, [field]: value }));
          sent += 1;
        }
      }
      if (target.multipart) {
        for (const value of [...NASTY_VALUES.slice(0, 24), ...randomValues(random, 3)]) {
          await check(`${where} filename=${value.slice(0, 40)}`, () => send(target, baseline, value));
          sent += 1;
        }
      }
      // Whole bodies no form sends.
      const bodies: [string, string | Buffer, string][] = [
        ["empty body", "", "application/x-www-form-urlencoded"],
        [
          "raw invalid UTF-8",
          Buffer.from([0x69, 0x64, 0x3d, 0xff, 0xfe, 0x00, 0x26, 0xc0]),
          "application/x-www-form-urlencoded",
        ],
        ["JSON", JSON.stringify({ ...target.baseline, id: ["x"] }), "application/json"],
        ["nasty field names", "%00=1&__proto__=x&constructor=y&%FF=z", "application/x-www-form-urlencoded"],
        [
          "broken multipart",
          '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n',
          "multipart/form-data; boundary=x",
        ],
        ["text", "hello", "text/plain"],
      ];
      for (const [label, body, type] of bodies) {
        await check(`${where} ${label}`, () => sendForm(target, body, type));
        sent += 1;
      }
    }
    console.info(`fuzz (${kind}): ${sent} form posts in ${Date.now() - started} ms`);
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
    // What was accepted was clean: no stored text holds a control character or a lone surrogate.
    const tables = [
      "gallery_images",
      "links",
      "faq_entries",
      "videos",
      "site_settings",
      "invite_codes",
      "audit_log",
      "user",
      "contact_messages",
    ];
    for (const table of tables) {
      const rows = await database.db
        .selectFrom(table as "links")
        .selectAll()
        .execute();
      for (const row of rows) {
        for (const value of Object.values(row)) {
          if (typeof value === "string" && !withoutControlCharacters(value)) {
            report(`${table} holds ${JSON.stringify(value).slice(0, 80)}`);
          }
        }
      }
    }
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
    // Nothing reached the database unchecked or better-auth with what it could not take (both would be logged).
    expect(server.stderr).not.toMatch(/invalid byte sequence|rejected unexpectedly|unsupported Unicode/i);
    expect(server.child.exitCode).toBeNull();
  }, 480_000);

  it("answers every page and query parameter without a server error", async () => {
    problems.length = 0;
    const started = Date.now();
    let sent = 0;
    const pages = ROUTES.filter((route) => hasExport(route.file, "loader") || route.path.includes("*"));
    const values = [...NASTY_VALUES.filter((value) => value.length < 1000), ...randomValues(random, 5)];
    // `lang` is read by one function for every page: its full set on the gallery, a sample elsewhere.
    const langSample = ["%00", "%FF", "%ED%A0%80", "de%00", "%C2%80", "1e309"];
    const checks: (() => Promise<void>)[] = [];
    const get = (url: string, headers: Record<string, string>, who: string) =>
      checks.push(() => check(`GET ${url.slice(0, 80)} as ${who}`, () => requestRaw(server.url(url), headers), false));
    for (const route of pages) {
      const pathname = route.path.replace(":kind", "logo").replace(":id", "1").replace("*", "no-such-page");
      const own = QUERY_PARAMS[route.file] ?? [];
      for (const who of ["visitor", "admin"] as const) {
        // Visitors are sent away from the admin area before any of its loaders read the address.
        if (who === "visitor" && pathname.startsWith("/admin") && own.length === 0) continue;
        const headers: Record<string, string> = who === "admin" ? { Cookie: adminCookie } : {};
        for (const value of pathname === "/" ? values : langSample) get(`${pathname}?lang=${value}`, headers, who);
        for (const param of own) {
          for (const value of values) get(`${pathname}?${param}=${value}`, headers, who);
          get(`${pathname === "/" ? "/_root" : pathname}.data?${param}=%00`, headers, who);
        }
      }
    }
    // Cookies, path segments and the router's own parameters.
    const extras: [string, Record<string, string>][] = [
      ["/", { Cookie: "lang=%00; theme=%FF%00" }],
      ["/", { Cookie: "vitrine.session_token=%00.%FF" }],
      ["/", { Cookie: `vitrine.session_token=${"a".repeat(3000)}` }],
      ["/admin", { Cookie: "vitrine.session_token=a%00b.c" }],
      ["/%00", {}],
      ["/%FF%ED%A0%80", {}],
      ["/admin/uploads/site/%00", { Cookie: "" }],
      // A mail's id names a row of the outbox only (once a file under DATA_DIR/outbox): nothing else is reached.
      ...["%00", "..%2F..%2Fauth-secret", "%2E%2E", "%FF", "x".repeat(500), "1.eml%00"].map(
        (id) => [`/admin/outbox/${id}`, { Cookie: adminCookie }] as [string, Record<string, string>],
      ),
      ["/media/%00", {}],
      ["/media-private/%00?expires=%00&sig=%FF", {}],
      ["/_.data?_routes=%00", {}],
      ["/?index&_routes=routes%2Fgallery%00", {}],
    ];
    for (const [url, headers] of extras) get(url, headers, JSON.stringify(headers).slice(0, 60));
    sent = checks.length;
    await inParallel(checks);
    console.info(`fuzz (${kind}): ${sent} page requests in ${Date.now() - started} ms`);
    expect(problems.slice(0, 30), `${problems.length} problems`).toEqual([]);
    expect(server.child.exitCode).toBeNull();
  }, 480_000);

  it("keeps the server up and answering", async () => {
    expect(server.child.exitCode).toBeNull();
    expect((await requestRaw(server.url("/api/settings"), {})).status).toBe(200);
  });
});

/** A request with a body sent byte for byte (no re-encoding) from an optional client address. */
async function requestRaw(
  url: string,
  headers: Record<string, string>,
  body?: string | Buffer,
  localAddress?: string,
): Promise<HttpResponse> {
  return request(url, { method: body === undefined ? "GET" : "POST", headers, body, localAddress });
}
