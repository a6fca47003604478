/** One page's spans filled by its figures: what changed, and every span or figure that stands alone, named by page and line. */
import { describe, expect, it } from "vitest";
import { changeLine, fill } from "../../../../bench/tools/figures/generate.ts";
import { claim } from "../../../../bench/tools/figures/figure-spec.ts";

const TEXT = "A <!--fig:a-->1<!--/fig--> and\nso <!--fig:b-->2<!--/fig-->.\n\n<!--fig:t-->\n\nx\ny\n\n<!--/fig-->\n";

describe("fill", () => {
  it("names each span whose figure moved, with what the page reads and what the samples give", () => {
    const out = fill("docs/p.md", TEXT, {
      page: "docs/p.md",
      figures: { a: () => "1", b: () => "3", t: () => "x\nz" },
    });
    expect(out.problems).toEqual([]);
    expect(out.changed.map((c) => changeLine(out.page, c))).toEqual([
      'docs/p.md:2 fig:b reads "2", the samples give "3"',
      'docs/p.md:4 fig:t, its line 2, reads "y", the samples give "z"',
    ]);
    expect(out.next).toBe(
      "A <!--fig:a-->1<!--/fig--> and\nso <!--fig:b-->3<!--/fig-->.\n\n<!--fig:t-->\n\nx\nz\n\n<!--/fig-->\n",
    );
  });

  it("reports a span no figure writes, a figure no span shows, and a claim the samples no longer hold", () => {
    const out = fill("docs/p.md", TEXT, {
      page: "docs/p.md",
      figures: {
        a: () => claim(false, "1", "that a leads"),
        t: () => "x\ny",
        gone: () => "9",
      },
    });
    expect(out.problems).toEqual([
      "docs/p.md:1 fig:a: the samples no longer show that a leads: rewrite the sentence",
      "docs/p.md:2 fig:b: no figure writes it",
      "docs/p.md: figure gone has no span (<!--fig:gone-->...<!--/fig-->)",
    ]);
    expect(out.next).toBe(TEXT);
  });
});
