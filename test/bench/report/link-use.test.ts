/** What a link did to a case, as the tables say it (bench/report/link-use.ts). */
import { describe, expect, it } from "vitest";
import { caseLinkUse, heldByText, linkCellText } from "../../../bench/report/link-use.ts";
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
    expect(linkCellText(caseOf("stream", 100, { link: undefined }))).toBe("");
    expect(caseLinkUse({ ...caseOf("codec", 100) } as CaseResult)).toBeUndefined();
  });

  it("one cell: the link's name and, for a round trip, its frames' time on the wire; for a stream, what held it", () => {
    expect(linkCellText(caseOf("roundtrip", 9))).toBe("custom: on wire 9.00 ms");
    expect(linkCellText(caseOf("stream", 100))).toBe("custom: held by up 80%");
    expect(linkCellText(caseOf("stream", 1))).toBe("custom: held by cpu");
    // A failed case has no figures to judge the link by: its name alone.
    expect(linkCellText({ ...caseOf("stream", 100), verified: false } as CaseResult)).toBe("custom");
  });

  it("compressed frames nothing counted (--deflate in fanout or a browser): the link's name, no way named full", () => {
    const unknown = { wireBytes: Number.NaN, replyWireBytes: Number.NaN };
    expect(caseLinkUse(caseOf("stream", 100, unknown))!.limit).toBe("");
    expect(linkCellText(caseOf("stream", 100, unknown))).toBe("custom");
    expect(linkCellText(caseOf("roundtrip", 9, unknown))).toBe("custom");
  });
});
