import fs from "node:fs";
import path from "node:path";
import { createS3Storage } from "#app/domains/media/s3-storage.server.ts";
import { mediaSigningSecret } from "#app/domains/media/storage.server.ts";
import { createGalleryPicture } from "#tests/support/gallery-factories.ts";
import { type InstanceCluster, startInstanceCluster } from "#tests/support/instance-cluster.ts";
import { type NginxBalancer, startNginxBalancer } from "#tests/support/nginx-balancer.ts";
import { canRunPrivatePostgres, PrivatePostgres } from "#tests/support/private-postgres.ts";
import { addSampleContent } from "#tests/support/sample-content.ts";
import { request } from "#tests/support/server-process.ts";
import { pinned, startFlags } from "./processes.ts";
import { describe, formatNumber, median, type Row, range } from "./stats.ts";
import type { WrkResult } from "./wrk.ts";

/*
 * The several-instances section (`--instances`, issue 20): what a second instance costs. Two instances of the
 * server on one PostgreSQL database and one S3 bucket (s3rver), as tests/support/instance-cluster.ts runs them, and
 * three ways to reach them, loaded in turn round by round (the order rotating, so a busy moment of the machine hits
 * each): the first instance directly, the first alone behind an nginx of its own, both behind the cluster's nginx
 * (round-robin). Uncached `/` (PAGE_CACHE=off: every request renders, reading the database) at 50 connections.
 * Servers and nginx are pinned to the servers' core like every server of the bench, so two instances share one
 * core: the figure is the cost of a second instance, not a speed-up (which two cores of their own would give).
 * PostgreSQL is the shared server of TEST_DATABASE_URL (or BENCH_DATABASE_URL), or else a cluster of the bench's
 * own; it is not pinned.
 */

export type InstanceSettings = { rounds: number; seconds: number; pictures: number; authSecret: string };

const CONNECTIONS = 50;
const PAGE = "/";
const SIDES = ["one instance", "one behind nginx", "two behind nginx"] as const;
type Side = (typeof SIDES)[number];

export type InstanceSetup = {
  cluster: InstanceCluster;
  /** nginx in front of the first instance alone. */
  single: NginxBalancer;
  stop: () => Promise<void>;
};

/** Where the section's database server is: a URL given, or a cluster of its own (null when neither can be). */
async function postgresServer(): Promise<{ url: string; stop: () => Promise<void> } | null> {
  const given = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: async () => {} };
  if (!canRunPrivatePostgres()) return null;
  const own = await PrivatePostgres.create();
  return { url: own.url, stop: () => own.destroy() };
}

/**
 * Starts the two instances and both nginx, and seeds the site through the real pipeline into the bucket (the
 * sample content and `pictures` pictures: a full first page of the gallery). Null when no PostgreSQL can be had.
 */
export async function startInstanceSetup(settings: InstanceSettings): Promise<InstanceSetup | null> {
  const server = await postgresServer();
  if (!server) return null;
  let cluster: InstanceCluster | undefined;
  let single: NginxBalancer | undefined;
  try {
    cluster = await startInstanceCluster({
      instances: 2,
      authSecret: settings.authSecret,
      postgresServerUrl: server.url,
      env: { PAGE_CACHE: "off" },
      nodeFlags: startFlags(),
      launch: (command, args) => pinned("server", command, args),
    });
    const storage = createS3Storage({ ...cluster.s3.location(), secret: mediaSigningSecret(settings.authSecret) });
    try {
      const sample = await addSampleContent(cluster.database.db, storage);
      for (let index = sample.pictures; index < settings.pictures; index++) {
        await createGalleryPicture(cluster.database.db, storage, {
          title: `Picture ${index + 1}`,
          hue: (index * 37) % 360,
          width: 960,
          height: 640,
        });
      }
    } finally {
      storage.close();
    }
    const dir = path.join(cluster.dir, "nginx-single");
    fs.mkdirSync(dir);
    single = await startNginxBalancer({
      dir,
      upstreams: [cluster.ports[0] as number],
      launch: (command, args) => pinned("server", command, args),
    });
    const started = { cluster, single };
    return {
      ...started,
      stop: async () => {
        await started.single.stop().catch(() => {});
        await started.cluster.teardown().catch(() => {});
        await server.stop();
      },
    };
  } catch (error) {
    await single?.stop().catch(() => {});
    await cluster?.teardown().catch(() => {});
    await server.stop();
    throw error;
  }
}

export type InstanceContext = {
  setup: InstanceSetup;
  settings: InstanceSettings;
  hasWrk: boolean;
  record: (name: string, value: number) => void;
  load: (label: string, round: number, url: string, connections: number) => Promise<WrkResult>;
  problems: string[];
};

export type InstanceResult = { rounds: number; pictures: number };

const pictureCount = (html: string) => (html.match(/<picture/g) ?? []).length;

export async function measureInstances(context: InstanceContext): Promise<InstanceResult> {
  const { setup, settings, record, problems } = context;
  const { cluster, single } = setup;
  const urls: Record<Side, string> = {
    "one instance": cluster.instances[0]?.url(PAGE) ?? "",
    "one behind nginx": `${single.origin}${PAGE}`,
    "two behind nginx": cluster.url(PAGE),
  };
  // The same page from each way in, and both instances really answering behind the cluster's nginx.
  for (const side of SIDES) {
    const page = await request(urls[side]);
    if (page.status !== 200) problems.push(`Instances: ${side} answered ${page.status} for ${PAGE}`);
    const pictures = pictureCount(page.body);
    if (pictures < Math.min(settings.pictures, 24))
      problems.push(`Instances: ${side}'s ${PAGE} has ${pictures} pictures`);
  }
  const answered = await Promise.all(
    [1, 2, 3, 4].map(async () => cluster.answeredBy(await request(cluster.url(PAGE)))),
  );
  if (new Set(answered).size !== 2) problems.push(`Instances: nginx sent every request to instance ${answered[0]}`);
  if (!context.hasWrk) return { rounds: 0, pictures: settings.pictures };
  for (let round = 1; round <= settings.rounds; round++) {
    console.log(`Instances: round ${round} of ${settings.rounds}…`);
    // Each side goes first once every three rounds.
    const order = SIDES.map((_, index) => SIDES[(index + round - 1) % SIDES.length] as Side);
    for (const side of order) {
      const label = `${side} (PostgreSQL + S3, cache off) ${PAGE}, ${CONNECTIONS} connections`;
      const result = await context.load(label, round, urls[side], CONNECTIONS);
      record(`instances ${side} rps`, result.requestsPerSecond);
      record(`instances ${side} p99 ms`, result.p99Ms);
      record(`instances ${side} p50 ms`, result.p50Ms);
    }
  }
  return { rounds: settings.rounds, pictures: settings.pictures };
}

/**
 * The whole section: its own processes, database and bucket, started, measured and stopped. A null result says why
 * (nginx missing, no PostgreSQL). `setups` lists the running setup meanwhile, for the bench's clean-up on a signal.
 */
export async function runInstanceSection(
  context: Omit<InstanceContext, "setup"> & { hasNginx: boolean; setups: InstanceSetup[] },
): Promise<{ result: InstanceResult | null; why: string }> {
  if (!context.hasNginx) return { result: null, why: "nginx missing" };
  console.log("Instances: starting two instances on PostgreSQL and S3, seeding their gallery…");
  const setup = await startInstanceSetup(context.settings);
  if (!setup) return { result: null, why: "no PostgreSQL: set TEST_DATABASE_URL, or install its server binaries" };
  context.setups.push(setup);
  try {
    return { result: await measureInstances({ ...context, setup }), why: "" };
  } finally {
    context.setups.splice(context.setups.indexOf(setup), 1);
    await setup.stop();
  }
}

/** The section's rows; without a result (not asked for, or no PostgreSQL) rows saying why. */
export function instanceRows(
  result: InstanceResult | null,
  values: (name: string) => number[],
  hasWrk: boolean,
  why = "run with --instances",
): Row[] {
  const throughput = `Uncached \`${PAGE}\` (PAGE_CACHE=off) on PostgreSQL and S3, ${CONNECTIONS} connections: req/s of two instances behind nginx ÷ one instance behind nginx (all pinned to one core)`;
  const latency = `Same load, p99 latency: one instance, one behind nginx, two behind nginx`;
  const goal = "none set (reported)";
  const skip = (reason: string): Row[] =>
    [throughput, latency].map((figure) => ({ figure, measured: "n/a", goal, verdict: `skipped (${reason})` }));
  if (!result) return skip(why);
  if (!hasWrk || result.rounds === 0) return skip("wrk missing");
  const rps = (side: Side) => values(`instances ${side} rps`);
  const p99 = (side: Side) => values(`instances ${side} p99 ms`);
  const ratio = median(rps("two behind nginx")) / median(rps("one behind nginx"));
  const perRound = rps("two behind nginx").map(
    (value, index) => value / (rps("one behind nginx")[index] ?? Number.NaN),
  );
  return [
    {
      figure: throughput,
      measured:
        `${formatNumber(ratio)} (rounds ${range(perRound)}); ` +
        SIDES.map((side) => `${side} ${describe(rps(side), "req/s")}`).join("; "),
      goal,
      verdict: Number.isFinite(ratio) ? "reported" : "skipped",
    },
    {
      figure: latency,
      measured: SIDES.map(
        (side) => `${side} ${describe(p99(side), "ms")} (p50 ${describe(values(`instances ${side} p50 ms`), "ms")})`,
      ).join("; "),
      goal,
      verdict: Number.isFinite(median(p99("two behind nginx"))) ? "reported" : "skipped",
    },
  ];
}
