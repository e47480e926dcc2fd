// Time to render a 5,000-word blog post on the server (renderPostBody: Markdown, Shiki highlighting, heading
// ids and table of contents), for the closing note.
//   npx tsx scripts/measure-post-render.ts [--words 5000] [--runs 10]
// The post mixes prose, lists, links, quotes and a code block in another language every section. Each timed run
// renders a text never rendered before (the renderer keeps results by text), so it is the uncached cost; the
// highlighter's one-time start and the first post's grammar compilation are reported on their own.
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { renderPostBody } from "#app/domains/posts/post-body.server.ts";

const { values } = parseArgs({
  options: { words: { type: "string", default: "5000" }, runs: { type: "string", default: "10" } },
});
const targetWords = Number(values.words);
const runs = Number(values.runs);

const CODE = [
  "```ts\ntype Post = { title: string; words: number };\nexport function readingTime(post: Post): number {\n  return Math.max(1, Math.round(post.words / 220)); // minutes\n}\n```",
  "```python\ndef fib(n: int) -> int:\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a\n```",
  "```bash\nnpm install --save-exact shiki\nnpx vitest run app/domains/posts\n```",
  "```sql\nSELECT id, title FROM posts WHERE status = 'published' ORDER BY publish_at DESC LIMIT 12;\n```",
  '```json\n{ "name": "vitrine", "private": true, "engines": { "node": ">=24" } }\n```',
  "```css\n.prose-content pre { overflow-x: auto; padding: 1em; }\n```",
];
const PROSE =
  "Writing for the web means thinking about *readers* first: how fast the page arrives, whether the text is " +
  "easy to scan, and whether [links](https://example.com/guide) lead somewhere useful. Every `paragraph` here " +
  "is ordinary prose with some **emphasis** and an occasional inline reference.";
const perParagraph = PROSE.match(/[\p{L}\p{N}]+/gu)?.length ?? 40;

function post(seed: number): string {
  const parts: string[] = [`Run ${seed}.`];
  let words = 2;
  for (let section = 1; words < targetWords; section++) {
    parts.push(`## Section ${section}: notes ${seed}`);
    for (let paragraph = 0; paragraph < 3 && words < targetWords; paragraph++) {
      parts.push(PROSE);
      words += perParagraph;
    }
    parts.push(`### Details ${section}`, "- first point\n- second point\n- third point", "> A quoted line.");
    parts.push(CODE[section % CODE.length] ?? "");
  }
  return parts.join("\n\n");
}

const started = performance.now();
await renderPostBody("```ts\nconst start = 1;\n```", "en");
const startMs = performance.now() - started;
// The first post also compiles the grammars of the languages it uses (once per process and language).
const firstStarted = performance.now();
await renderPostBody(post(-1), "en");
const firstPostMs = performance.now() - firstStarted;

const times: number[] = [];
let words = 0;
let headings = 0;
for (let run = 0; run < runs; run++) {
  const text = post(run);
  const before = performance.now();
  const body = await renderPostBody(text, run % 2 === 0 ? "en" : "de");
  times.push(performance.now() - before);
  words = body.words;
  headings = body.toc.length;
}
const keptStart = performance.now();
await renderPostBody(post(0), "en");
const keptMs = performance.now() - keptStart;
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)] ?? 0;
console.log(
  `highlighter start: ${startMs.toFixed(0)} ms; first post, compiling its languages' grammars: ${firstPostMs.toFixed(0)} ms (once per process)\n` +
    `${words}-word post, ${headings} headings: first render ${times[0]?.toFixed(1)}–${times.at(-1)?.toFixed(1)} ms, median ${median.toFixed(1)} ms over ${runs} runs\n` +
    `kept (same text again): ${keptMs.toFixed(2)} ms`,
);
