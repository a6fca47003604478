/** What a link did to a case, as the tables say it (bench/report/link-use.ts). */
import { describe, expect, it } from "vitest";
import { caseLinkUse, heldByText } from "../../../bench/report/link-use.ts";
import { MODE_VIEWS } from "../../../bench/report/columns.ts";

/** A case's cell in a mode's column of that title, as every table shows it. */
const cell = (mode: string, title: string, c: CaseResult): string =>
  MODE_VIEWS.find((v) => v.mode === mode)!
    .columns.find((col) => col.title === title)!
    .cell(c);
import { parseLink } from "../../../client/harness/link.ts";
import type { CaseResult } from "../../../client/harness/results.ts";

const link = parseLink("latency=100ms,down=8mbit,up=1mbit");

/** A verified socket case with the figures linkUse reads. */
const caseOf = (mode: string, msgsPerS: number, over: Record<string, unknown> = {}): CaseResult =>
  ({
    mode,
    msgsPerS,
    verified: true,
    socket: { link, wireBytes: 1000, replyWireBytes: 996, window: 64, clients: 1, ...over },
  }) as unknown as CaseResult;

describe("a case over a link", () => {
  it("a stream's share of each way, from its rate and its frames (the reply's without the client's mask)", () => {
    const u = caseLinkUse(caseOf("stream", 100))!;
    expect(u.upShare).toBeCloseTo(0.8);
    expect(u.downShare).toBeCloseTo((100 * 996 * 8) / 8_000_000);
    expect(heldByText(u)).toBe("up 80%");
  });

  it("a fanout's rate is every subscriber's together: each connection, over a link of its own, carries its share", () => {
    const u = caseLinkUse(caseOf("fanout", 800, { clients: 8 }))!;
    expect(u.upShare).toBeCloseTo(0.8);
  });

  it("over loopback, and in codec mode, there is nothing to say", () => {
    expect(caseLinkUse(caseOf("stream", 100, { link: undefined }))).toBeUndefined();
    expect(cell("stream", "held by", caseOf("stream", 100, { link: undefined }))).toBe("");
    expect(caseLinkUse({ ...caseOf("codec", 100) } as CaseResult)).toBeUndefined();
  });

  it("the tables' link columns: a round trip's frames' time on the wire; what held a stream", () => {
    expect(cell("roundtrip", "on wire", caseOf("roundtrip", 9))).toBe("9.00 ms");
    expect(cell("stream", "held by", caseOf("stream", 100))).toBe("up 80%");
    expect(cell("stream", "held by", caseOf("stream", 1))).toBe("cpu");
  });

  it("compressed frames nothing counted (--deflate in fanout or a browser): the link's name, no way named full", () => {
    const unknown = { wireBytes: Number.NaN, replyWireBytes: Number.NaN };
    expect(caseLinkUse(caseOf("stream", 100, unknown))!.limit).toBe("");
    expect(cell("stream", "held by", caseOf("stream", 100, unknown))).toBe("");
    expect(cell("roundtrip", "on wire", caseOf("roundtrip", 9, unknown))).toBe("-");
  });
});
