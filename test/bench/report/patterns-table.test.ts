/** The read-one table: per payload, every codec's read-one, how it reads the key, its ratio to JSON's and to its own decode. */
import { describe, expect, it } from "vitest";
import { withRatios } from "../../../client/harness/ratios.ts";
import type { CaseResult } from "../../../client/harness/results.ts";
import { summarize } from "../../../client/harness/statistics.ts";
import { patternLines, routeSection } from "../../../bench/report/patterns-table.ts";
import { readResults } from "../../../bench/cli/read-results.ts";
import { TERMINAL_WIDTH } from "../../../bench/report/format.ts";

function codecCase(codec: string, readNs: number, decodeNs: number, keyAccess: CaseResult["keyAccess"]): CaseResult {
  const raw = Array.from({ length: 8 }, (_, round) => ({
    run: 0,
    round,
    position: 0,
    serializeNs: 100,
    deserializeNs: decodeNs,
    totalNs: 100 + decodeNs,
    readOneNs: readNs * (1 + 0.01 * round),
  }));
  return {
    client: "inprocess",
    mode: "codec",
    codec,
    standard: true,
    payload: "market",
    verified: true,
    error: "",
    bytes: 10,
    raw,
    serialize: summarize(raw.map(() => 100)),
    deserialize: summarize(raw.map(() => decodeNs)),
    total: summarize(raw.map((r) => r.totalNs)),
    readOne: summarize(raw.map((r) => r.readOneNs)),
    keyAccess,
    flags: [],
  } as unknown as CaseResult;
}

describe("the read-one table", () => {
  it("lists the codecs fastest first, with how each reads the key, within the terminal's width", () => {
    const { cases } = withRatios([
      codecCase("json", 200, 220, "decode"),
      codecCase("custom-binary", 50, 120, "offset"),
      codecCase("capnp", 1900, 2900, "lazy"),
    ]);
    const lines = patternLines(cases);
    const rows = lines.slice(lines.indexOf("market (symbol)") + 3);
    expect(rows.map((r) => r.trim().split(/\s+/).slice(0, 2).join(" "))).toEqual([
      "custom-binary offset",
      "json decode",
      "capnp lazy",
    ]);
    expect(rows[0]).toMatch(/0\.25/);
    expect(rows[1]).toMatch(/1\.00/);
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(TERMINAL_WIDTH);
  });

  it("prints nothing when no case has read-one (a user's messages, an older file)", () => {
    const c = codecCase("json", 200, 220, "decode");
    expect(patternLines([{ ...c, readOne: undefined }])).toEqual([]);
  });
});

describe("the route table", () => {
  it("--wide shows a server timing below what its clock can tell as ≈0, never as a negative time", () => {
    const { cases } = readResults(new URL("../../../results/sample/bun-route.json.gz", import.meta.url).pathname);
    // custom-binary's key read on chat as a run can give it: its median less the clock's read cost below zero.
    const chat = cases.find((c) => c.mode === "route" && c.payload === "chat" && c.codec === "custom-binary")!;
    chat.route!.forward.keyNs.median = -37;
    const lines = routeSection(cases, true);
    expect(lines.join("\n")).toContain("(≈0: less than");
    const header = lines.findIndex((l) => l.startsWith("chat")) + 1;
    const titles = lines[header]!.trim().split(/\s{2,}/);
    const row = lines.slice(header).find((l) => l.startsWith("custom-binary"))!;
    expect(row.trim().split(/\s{2,}/)[titles.indexOf("key fwd")]).toBe("≈0");
    for (const line of lines) expect(line, line).not.toMatch(/(^|\s)-\d/);
  });
});
