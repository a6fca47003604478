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
