import autocannon from "autocannon";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseVariants } from "#app/domains/media/image-rows.server.ts";
import { createInvite, createUser, strongPassword, uniqueEmail } from "#tests/support/factories.ts";
import { testPhoto } from "#tests/support/gallery-factories.ts";
import { type InstanceCluster, startInstanceCluster } from "#tests/support/instance-cluster.ts";
import { mp4Like } from "#tests/support/media-fixtures.ts";
import { postMultipart } from "#tests/support/multipart.ts";
import { hasNginx, NGINX } from "#tests/support/nginx-balancer.ts";
import { skipUnlessAvailable } from "#tests/support/required-suites.ts";
import { type HttpResponse, postForm, request, type ServerProcess } from "#tests/support/server-process.ts";
import { createSessionCookie } from "#tests/support/sessions.ts";
import { hasPostgres } from "#tests/support/test-database.ts";

/*
 * Three instances of the real server on one PostgreSQL database and one S3 bucket, behind a real nginx balancing
 * round-robin (tests/support/instance-cluster.ts), as docs/DEPLOY.md's "Several instances" runs them (issue 20):
 * what one instance promises must hold across all three. Requests "through nginx" come from a client address of
 * their own (127.x.y.z), which nginx hands on in X-Forwarded-For and the instances trust (TRUST_PROXY=1); where a
 * test needs a given instance it asks that instance's own port.
 */

const INSTANCES = 3;
const range = (count: number) => Array.from({ length: count }, (_, index) => index);

/** A form post to nginx from `localAddress`, with the public origin a browser on the site sends. */
function postViaProxy(cluster: InstanceCluster, pathname: string, fields: Record<string, string>, from: string) {
  return cluster.viaProxy(pathname, {
    method: "POST",
    localAddress: from,
    headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: cluster.origin },
    body: new URLSearchParams(fields).toString(),
  });
}

/** A file's bytes as a browser gets them (the test helper `request` reads text). */
async function fetchBytes(url: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

const titleOf = (html: string) => html.match(/<title>([^<]*)<\/title>/)?.[1] ?? "";

describe.skipIf(
  skipUnlessAvailable(hasNginx && hasPostgres, `${NGINX} (nginx-light) and PostgreSQL (TEST_DATABASE_URL)`),
)("three instances on one PostgreSQL database and one bucket, behind nginx", () => {
  let cluster: InstanceCluster;
  let adminCookie: string;
  const instance = (slot: number): ServerProcess => cluster.instances[slot] as ServerProcess;

  beforeAll(async () => {
    cluster = await startInstanceCluster({ instances: INSTANCES });
    const admin = await createUser(cluster.database.db, { admin: true });
    const cookie = await createSessionCookie(cluster.database.db, admin.id, cluster.authSecret);
    adminCookie = `${cookie.name}=${cookie.value}`;
  }, 180_000);

  afterAll(async () => {
    await cluster?.teardown();
  }, 60_000);

  /** The slots that answered these responses (each found by its request id in the instances' logs). */
  const slotsOf = async (responses: HttpResponse[]) =>
    new Set(await Promise.all(responses.map((response) => cluster.answeredBy(response))));

  it("gives one invite code to exactly one of twenty simultaneous sign-ups, and refuses the others clearly", async () => {
    const inviteCode = await createInvite(cluster.database.db);
    const emails = range(20).map(() => uniqueEmail("racer"));
    // Twenty people, each from an address of their own (so that no per-address limit is involved), at once.
    const answers = await Promise.all(
      emails.map((email, index) =>
        postViaProxy(
          cluster,
          "/auth",
          { intent: "sign-up", email, password: strongPassword(), inviteCode },
          `127.0.4.${index + 1}`,
        ),
      ),
    );

    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    const won = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 400);
    expect(won).toHaveLength(1);
    expect(refused).toHaveLength(19);
    for (const answer of refused) expect(answer.body).toContain("The invite code is invalid or has already been used.");
    // The race ran on every instance, not on one that took turns.
    expect(await slotsOf(answers)).toEqual(new Set(range(INSTANCES)));

    const accounts = await cluster.database.db
      .selectFrom("user")
      .select(["id", "email"])
      .where("email", "in", emails)
      .execute();
    expect(accounts).toHaveLength(1);
    const invite = await cluster.database.db
      .selectFrom("invite_codes")
      .select(["is_used", "used_by"])
      .where("code", "=", inviteCode)
      .executeTakeFirstOrThrow();
    expect(Boolean(invite.is_used)).toBe(true);
    expect(invite.used_by).toBe(accounts[0]?.id);
  }, 60_000);

  it("counts one address's failed sign-ins on every instance together: 10 per 15 minutes, as on one", async () => {
    const owner = await createUser(cluster.database.db);
    const from = "127.0.5.1";
    // Fifteen wrong passwords at once, each for another address (so that no account's own count is involved):
    // three instances counting apart would let all of them be checked.
    const attempts = await Promise.all(
      range(15).map(() =>
        postViaProxy(cluster, "/auth", { intent: "sign-in", email: uniqueEmail(), password: "wrong-password-1" }, from),
      ),
    );
    const checked = attempts.filter((answer) => answer.status === 400);
    const refused = attempts.filter((answer) => answer.status === 429);
    expect(checked).toHaveLength(10);
    expect(refused).toHaveLength(5);
    for (const answer of checked) expect(answer.body).toContain("Invalid e-mail or password.");
    for (const answer of refused) {
      expect(answer.body).toContain("Too many attempts");
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(await slotsOf(attempts)).toEqual(new Set(range(INSTANCES)));

    // The address stays refused on every instance, even with the right password; another address is not.
    const again = await Promise.all(
      range(INSTANCES).map(() =>
        postViaProxy(cluster, "/auth", { intent: "sign-in", email: owner.email, password: owner.password }, from),
      ),
    );
    expect(again.map((answer) => answer.status)).toEqual([429, 429, 429]);
    expect(await slotsOf(again)).toEqual(new Set(range(INSTANCES)));
    const elsewhere = await postViaProxy(
      cluster,
      "/auth",
      { intent: "sign-in", email: owner.email, password: owner.password, redirectTo: "/" },
      "127.0.5.2",
    );
    expect(elsewhere.status).toBe(302);
  }, 60_000);

  it("counts one account's failed sign-ins from many addresses on every instance together", async () => {
    const owner = await createUser(cluster.database.db);
    const attempts: HttpResponse[] = [];
    // One wrong password from each of nine addresses, one after the other, spread over the instances by nginx.
    for (const index of range(9)) {
      const password = `wrong-password-${index}`;
      attempts.push(
        await postViaProxy(
          cluster,
          "/auth",
          { intent: "sign-in", email: owner.email, password },
          `127.0.6.${index + 1}`,
        ),
      );
    }
    // Five free failures, the sixth checked and starting a 15-second wait: the rest were never checked, on any
    // instance (three counting apart would each have checked six).
    expect(attempts.map((answer) => answer.status)).toEqual([400, 400, 400, 400, 400, 400, 429, 429, 429]);
    for (const answer of attempts.slice(6)) {
      expect(answer.body).toContain("Too many failed sign-ins for this account.");
      expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
    }
    expect(await slotsOf(attempts)).toEqual(new Set(range(INSTANCES)));
    const [row] = await cluster.database.db
      .selectFrom("sign_in_failures")
      .select("failures")
      .where("account", "=", owner.email)
      .execute();
    expect(row?.failures).toBe(6);
    // The owner too waits out the account's wait, whichever instance is asked.
    for (const slot of range(INSTANCES)) {
      const waiting = await postForm(instance(slot), "/auth", {
        intent: "sign-in",
        email: owner.email,
        password: owner.password,
      });
      expect(waiting.status, `instance ${slot}`).toBe(429);
    }
  }, 60_000);

  it("serves a picture uploaded through one instance, in every size and format, from each of the others", async () => {
    const photo = await testPhoto({ width: 900, height: 600, label: "Harbour" });
    const upload = await postMultipart(
      instance(0),
      "/admin/uploads/gallery",
      [{ field: "file", filename: "harbour.jpg", type: "image/jpeg", data: photo }],
      { cookie: adminCookie, accept: "application/json", fields: { publish: "now" } },
    );
    expect(upload.status, upload.body).toBe(200);
    const galleryId = (JSON.parse(upload.body) as { id: string }).id;
    const { image_id: imageId } = await cluster.database.db
      .selectFrom("gallery_images")
      .select("image_id")
      .where("id", "=", galleryId)
      .executeTakeFirstOrThrow();
    // The sizes are made after the answer, by the instance that took the upload.
    const image = async () =>
      cluster.database.db.selectFrom("images").selectAll().where("id", "=", imageId).executeTakeFirstOrThrow();
    await expect.poll(async () => Boolean((await image()).ready), { timeout: 60_000, interval: 200 }).toBe(true);
    const variants = parseVariants((await image()).variants);
    // Every width the pipeline makes of a 900-pixel photo, each in AVIF, WebP and JPEG.
    expect(variants.map((variant) => `${variant.width} ${variant.format}`).sort()).toEqual(
      [320, 640, 900].flatMap((width) => ["avif", "jpeg", "webp"].map((format) => `${width} ${format}`)),
    );

    for (const slot of [1, 2]) {
      for (const variant of variants) {
        const url = instance(slot).url(`/media/${variant.key.slice("public/".length)}`);
        const answer = await fetchBytes(url);
        expect(answer.status, `${url} on instance ${slot}`).toBe(200);
        expect(answer.headers.get("content-type")).toBe(`image/${variant.format}`);
        expect(answer.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
        expect(Number(answer.headers.get("content-length"))).toBe(answer.bytes.length);
        const decoded = await sharp(answer.bytes).metadata();
        expect(decoded.width, url).toBe(variant.width);
      }
      // And the gallery of each shows it to visitors.
      await expect
        .poll(async () => (await request(instance(slot).url("/"))).body.includes(`/media/images/${imageId}/`), {
          timeout: 5000,
          interval: 100,
        })
        .toBe(true);
    }
  }, 90_000);

  it("answers byte ranges of a video uploaded through one instance from each", async () => {
    const video = mp4Like(200_000);
    const form = new FormData();
    form.append("intent", "create");
    form.append("title", "Across the instances");
    form.append("active", "on");
    form.append("video", new Blob([new Uint8Array(video)]), "harbour.mp4");
    const uploaded = await fetch(instance(1).url("/admin/uploads/videos"), {
      method: "POST",
      body: form,
      headers: { Origin: instance(1).origin, Cookie: adminCookie },
    });
    expect(uploaded.status, await uploaded.clone().text()).toBe(200);
    const { file_key: key } = await cluster.database.db
      .selectFrom("videos")
      .select("file_key")
      .where("title", "=", "Across the instances")
      .executeTakeFirstOrThrow();
    const pathname = `/media/${(key ?? "").slice("public/".length)}`;
    const size = video.length;

    for (const slot of range(INSTANCES)) {
      const url = instance(slot).url(pathname);
      const middle = await fetchBytes(url, { Range: "bytes=1000-1999" });
      expect(middle.status, `instance ${slot}`).toBe(206);
      expect(middle.headers.get("content-range")).toBe(`bytes 1000-1999/${size}`);
      expect(middle.bytes.equals(video.subarray(1000, 2000))).toBe(true);
      const tail = await fetchBytes(url, { Range: "bytes=-500" });
      expect(tail.status).toBe(206);
      expect(tail.headers.get("content-range")).toBe(`bytes ${size - 500}-${size - 1}/${size}`);
      expect(tail.bytes.equals(video.subarray(size - 500))).toBe(true);
      const beyond = await fetchBytes(url, { Range: `bytes=${size + 10}-` });
      expect(beyond.status).toBe(416);
      const whole = await fetchBytes(url);
      expect(whole.status).toBe(200);
      expect(whole.bytes.equals(video)).toBe(true);
      // The videos page of each lists it with that address.
      expect((await request(instance(slot).url("/videos"))).body).toContain(`<source src="${pathname}"`);
    }
  }, 60_000);

  it("shows an admin's save on one instance on the next anonymous request to each of the others", async () => {
    const siteName = "Harbour Lights";
    // Each instance keeps its rendered home page for anonymous visitors (the page cache is on by default).
    for (const slot of range(INSTANCES)) {
      await request(instance(slot).url("/"));
      const kept = await request(instance(slot).url("/"));
      expect(kept.headers["x-vitrine-cache"], `instance ${slot}`).toBe("hit");
      expect(titleOf(kept.body)).not.toBe(siteName);
    }

    const saved = await postForm(
      instance(0),
      "/admin/settings",
      { intent: "save", site_name: siteName },
      {
        cookie: adminCookie,
      },
    );
    expect(saved.status).toBe(200);
    expect(saved.body).toContain("Saved. Settings changed: 1.");
    const savedAt = performance.now();

    // The others learn of it through the database's change notifications (NOTIFY), a moment after the commit.
    const delays: Record<number, number> = {};
    await Promise.all(
      [1, 2].map(async (slot) => {
        for (;;) {
          const page = await request(instance(slot).url("/"));
          if (titleOf(page.body) === siteName) {
            delays[slot] = performance.now() - savedAt;
            return;
          }
          if (performance.now() - savedAt > 2000)
            throw new Error(`Instance ${slot} still shows the old name after 2 s`);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    console.log(`The saved site name showed on the other instances after ${JSON.stringify(delays)} ms`);
    for (const slot of [1, 2]) expect(delays[slot]).toBeLessThanOrEqual(2000);
    // Through nginx, whichever instance answers, every visitor now sees it.
    for (const _ of range(INSTANCES)) expect(titleOf((await cluster.viaProxy("/")).body)).toBe(siteName);
  }, 30_000);

  it("loses no request while each instance in turn is stopped (SIGTERM) and started again under load", async () => {
    // A file of the bucket besides the page: each instance reads it from S3 while the others restart.
    const form = new FormData();
    form.append("intent", "create");
    form.append("title", "Under load");
    form.append("active", "on");
    form.append("video", new Blob([new Uint8Array(mp4Like(60_000))]), "load.mp4");
    const uploaded = await fetch(cluster.url("/admin/uploads/videos"), {
      method: "POST",
      body: form,
      headers: { Origin: cluster.origin, Cookie: adminCookie },
    });
    expect(uploaded.status).toBe(200);
    const { file_key: key } = await cluster.database.db
      .selectFrom("videos")
      .select("file_key")
      .where("title", "=", "Under load")
      .executeTakeFirstOrThrow();
    const media = `/media/${(key ?? "").slice("public/".length)}`;

    const statuses = new Map<number, number>();
    let load: autocannon.Instance | undefined;
    const finished = new Promise<autocannon.Result>((resolve, reject) => {
      // A steady rate well below what the machine can take: the restarts, not the load, are what is tested.
      load = autocannon(
        {
          url: cluster.origin,
          connections: 8,
          overallRate: 150,
          duration: 300,
          requests: [
            { method: "GET", path: "/" },
            { method: "GET", path: media },
          ],
        },
        (error, result) => (error ? reject(error) : resolve(result)),
      );
      load.on("response", (_client, status) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
    });
    const requestLines = (server: ServerProcess) => server.logLines().filter((line) => line.msg === "request").length;

    await new Promise((resolve) => setTimeout(resolve, 1000));
    const timings: string[] = [];
    for (const slot of range(INSTANCES)) {
      const began = performance.now();
      const exitCode = await cluster.stop(slot);
      expect(exitCode, `instance ${slot} stopped cleanly`).toBe(0);
      const stopped = performance.now();
      const restarted = await cluster.start(slot);
      timings.push(
        `instance ${slot}: stopped in ${Math.round(stopped - began)} ms, started in ${Math.round(performance.now() - stopped)} ms`,
      );
      // Back in nginx's turn (after its 2 s fail_timeout) before the next one stops.
      await expect.poll(() => requestLines(restarted), { timeout: 10_000, interval: 100 }).toBeGreaterThan(5);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
    load?.stop();
    const result = await finished;
    // Each refused or dropped connection nginx met is a request it passed on to the next instance.
    const passedOn = (cluster.nginx?.errorLog().match(/upstream/g) ?? []).length;
    console.log(
      `Rolling restart: ${timings.join("; ")}; answers by status ${JSON.stringify(Object.fromEntries(statuses))}; ` +
        `nginx logged ${passedOn} upstream errors (requests it passed on)`,
    );

    expect(result.errors).toBe(0);
    expect(result.timeouts).toBe(0);
    expect(result.non2xx).toBe(0);
    expect([...statuses.keys()].every((status) => status >= 200 && status < 400)).toBe(true);
    expect(result.requests.total).toBeGreaterThan(500);
  }, 120_000);
});
