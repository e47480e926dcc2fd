import { describe, expect, it } from "vitest";
import { altFromFileName } from "#app/components/admin/posts/post-image-upload.ts";
import { fileNameWords } from "./file-name-words.ts";

describe("the words of a file's name", () => {
  it.each([
    ["01-alpine-lake.jpg", "alpine lake"],
    ["10 coffee still life.jpg", "coffee still life"],
    ["001_harbour_at_dawn.png", "harbour at dawn"],
    ["12.3-night.avif", "night"],
    ["2024-05-01 beach walk.webp", "beach walk"],
    ["  07   - evening.jpg", "evening"],
    ["folder/02-sub\\03_night.png", "night"],
    // Only numbering: the digits are the name.
    ["0042.jpg", "0042"],
    ["2024-05-01.jpg", "2024 05 01"],
    // Numbers after a word belong to the name.
    ["IMG_0001.JPG", "IMG 0001"],
    ["alpine-lake_02.jpg", "alpine lake 02"],
    ["route66.jpg", "route66"],
    ["über den wolken.avif", "über den wolken"],
    [".jpg", ""],
  ])("%s → %s", (fileName, words) => {
    expect(fileNameWords(fileName)).toBe(words);
  });
});

describe("a post picture's first alt text", () => {
  it.each([
    ["03-lake-at_dawn.jpg", "lake at dawn"],
    ["[draft] (v2).png", "draft v2"],
    ["IMG_0001.jpg", "IMG 0001"],
  ])("%s → %s", (fileName, alt) => {
    expect(altFromFileName(fileName)).toBe(alt);
  });
});
