import { describe, expect, it } from "vitest";
import { countWords, WORD_COUNTS_KEPT, wordCountsKept } from "./word-count.server.ts";

describe("countWords", () => {
  it("counts the words a reader reads, leaving out link targets, image addresses, tags and markup", () => {
    expect(countWords("")).toBe(0);
    expect(countWords("# Title\n\nOne **two** three.")).toBe(4);
    expect(countWords("See [the river](https://example.com/a-very-long-address) today")).toBe(4);
    expect(countWords("![a bridge at dawn](/media/x.jpg) <span>inside</span> - * >")).toBe(5);
    expect(countWords("Über die Brücke, 3 Mal")).toBe(5);
  });

  it("counts an edited text afresh, also when it has the same length as before", () => {
    expect(countWords("alpha beta gamma")).toBe(3);
    expect(countWords("alpha !!!! gamma")).toBe(2);
    expect(countWords("alpha beta gamma")).toBe(3);
  });

  it("keeps at most WORD_COUNTS_KEPT counts, however many texts it has seen", () => {
    for (let index = 0; index < WORD_COUNTS_KEPT + 50; index++) {
      expect(countWords(`word ${"more ".repeat(index % 7)}number${index}`)).toBe(2 + (index % 7));
    }
    expect(wordCountsKept()).toBe(WORD_COUNTS_KEPT);
  });
});
