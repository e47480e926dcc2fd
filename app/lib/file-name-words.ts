/**
 * The words of an uploaded file's name, for a first title or alt text the owner can improve: the folder and
 * extension dropped, a numbering prefix dropped ("01-", "10 ", "001_", "2024-05-01 " : the digits a camera or a
 * sorted export put in front, which no reader wants in a title), dashes, underscores, dots and plus signs read
 * as spaces. A name that is nothing but numbering ("0042.jpg") keeps its digits, and a name starting with
 * letters keeps its numbers ("IMG_0001" → "IMG 0001"): there they are the only name the picture has.
 */
export function fileNameWords(fileName: string): string {
  const base = fileName.replace(/^.*[/\\]/, "").replace(/\.[^.\s]{1,5}$/, "");
  const words = (text: string) =>
    text
      .replace(/[-_.+]+/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  // Digit groups and separators up to the first other character (none: the name is all numbering, kept).
  const unnumbered = words(base.replace(/^\s*(\d+[\s\-_.+]+)+(?=[^\d\s\-_.+])/, ""));
  return unnumbered === "" ? words(base) : unnumbered;
}
