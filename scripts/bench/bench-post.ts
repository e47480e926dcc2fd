/*
 * The post of the Lighthouse pages (lighthouse.ts's publishBenchPost, and the `--before` checkout's, before-build.ts):
 * of a realistic length, with headings, paragraphs, a list and a code block, as a post's page renders them. Plain
 * data, so that another revision's code can publish the very same post.
 */

const PARAGRAPH =
  "A walk above the lake in the early light, when the water still holds the night's cold and the first boats have not yet left the harbour. The path climbs through larches to a ridge with a view of the whole valley.";

export const BENCH_POST = {
  title: "Above the lake at dawn",
  body: [
    "## Setting out",
    PARAGRAPH,
    PARAGRAPH,
    "## What to take",
    "- water and something warm\n- a map of the valley\n- a camera with a spare battery",
    PARAGRAPH,
    '```js\nconst start = new Date("2026-06-21T05:30:00");\n```',
    "## Coming back",
    PARAGRAPH,
  ].join("\n\n"),
  tags: "walks",
};
