/** A document's generated spans: found inline and around blocks, filled by name, a stray marker refused by line. */
import { describe, expect, it } from "vitest";
import { spansOf, withFigures } from "../../../../bench/tools/figures/spans.ts";

const PAGE = [
  "# Title",
  "",
  "It took <!--fig:took-->25<!--/fig--> s, and <!--fig:codec-->json<!--/fig--> led.",
  "",
  "<!--fig:table-->",
  "",
  "| a | b |",
  "|---|---|",
  "",
  "<!--/fig-->",
  "",
  "More prose.",
].join("\n");

describe("spansOf", () => {
  it("finds inline spans and blocks, with their text and the line each opens on", () => {
    expect(spansOf(PAGE, "p.md")).toEqual([
      { name: "took", text: "25", block: false, line: 3 },
      { name: "codec", text: "json", block: false, line: 3 },
      { name: "table", text: "| a | b |\n|---|---|", block: true, line: 5 },
    ]);
  });

  it("refuses a marker that opens no span or is never closed, naming its line", () => {
    expect(() => spansOf("a\n<!--fig:x-->b\n", "p.md")).toThrow(/^p\.md:2: <!--fig:x--> is not one span/);
    expect(() => spansOf("a <!--/fig--> b", "p.md")).toThrow(/^p\.md:1: <!--\/fig--> is not one span/);
    expect(() => spansOf("<!--fig:Bad Name-->x<!--/fig-->", "p.md")).toThrow(/is not one span/);
  });

  it("takes no marker in code for a span: an example in backticks or a fenced block", () => {
    const text = "Write `<!--fig:NAME-->0.78x<!--/fig-->` like this:\n\n```\n<!--fig:x-->1<!--/fig-->\n```\n";
    expect(spansOf(text, "p.md")).toEqual([]);
    expect(withFigures(text, new Map([["x", "2"]]))).toBe(text);
  });

  it("refuses an inline span that opens a line, which Markdown would read as raw HTML", () => {
    expect(() => spansOf("It took\n<!--fig:took-->25<!--/fig--> s.", "p.md")).toThrow(
      /^p\.md:2: <!--fig:took--> opens a line, which Markdown reads as raw HTML/,
    );
    expect(() => spansOf("It took <!--fig:took-->25\n<!--/fig--> s.", "p.md")).toThrow(
      /^p\.md:2: <!--\/fig--> opens a line/,
    );
  });

  it("reads a block indented in a list item without its indent, and writes it back indented", () => {
    const item = "- sizes:\n\n  <!--fig:t-->\n\n  | a |\n  |---|\n\n  <!--/fig-->\n";
    expect(spansOf(item, "p.md")).toEqual([{ name: "t", text: "| a |\n|---|", block: true, line: 3 }]);
    expect(withFigures(item, new Map([["t", "| b |\n|---|"]]))).toBe(
      "- sizes:\n\n  <!--fig:t-->\n\n  | b |\n  |---|\n\n  <!--/fig-->\n",
    );
  });
});

describe("withFigures", () => {
  it("rewrites the named spans' text and nothing else, a block between blank lines", () => {
    const next = withFigures(
      PAGE,
      new Map([
        ["took", "31"],
        ["table", "| a |\n|---|"],
      ]),
    );
    expect(next).toContain("It took <!--fig:took-->31<!--/fig--> s, and <!--fig:codec-->json<!--/fig--> led.");
    expect(next).toContain("<!--fig:table-->\n\n| a |\n|---|\n\n<!--/fig-->\n\nMore prose.");
    expect(
      withFigures(
        next,
        new Map([
          ["took", "25"],
          ["table", "| a | b |\n|---|---|"],
        ]),
      ),
    ).toBe(PAGE);
  });
});
