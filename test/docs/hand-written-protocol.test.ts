/**
 * Keeps docs/hand-written-protocol.md true to the default run it quotes
 * (results/sample/epyc-default-1.csv): the intervals of its table, what it
 * says of them, the decode's share and the machine.
 */
import { describe, expect, it } from "vitest";
import { ratioText } from "../../bench/report/format.ts";
import { casesOf, codecRows, crosscheckRows, csvSample, doc, flat, num } from "../helpers/samples.ts";
import { list } from "../helpers/prose.ts";

const page = doc("hand-written-protocol.md");
const text = flat(page);
const PAYLOADS = ["small", "medium", "large"] as const;

describe("docs/hand-written-protocol.md", () => {
  const cases = casesOf("epyc-default-1.csv");
  const run = csvSample("epyc-default-1.csv");
  const lab = (payload: string, codec: string) =>
    cases.find((c) => c.mode === "codec" && c.payload === payload && c.codec === codec)!;

  it("its table's ratios to JSON, with their intervals, are the default run's", () => {
    for (const payload of PAYLOADS) {
      const cell = ratioText(lab(payload, "custom-binary").ratios!.vsJson!).replace("†", "");
      expect(page, payload).toContain(`| ${payload} | ${cell} |`);
    }
  });

  it("what it says against json-bytes and json is what the default run's ratios say", () => {
    const vs = (payload: string, codec: string) =>
      lab(payload, "custom-binary").total.median / lab(payload, codec).total.median;
    for (const payload of PAYLOADS) expect(vs(payload, "json-bytes"), payload).toBeLessThanOrEqual(0.5);
    expect(text).toContain("it takes at most half the time on every message");
    // Against plain json: the messages on which its ratio is above one half, named in the sentence.
    const notHalf = PAYLOADS.filter((p) => lab(p, "custom-binary").ratios!.vsJson!.ratio > 0.5);
    const names = list(notHalf);
    expect(text).toContain(
      notHalf.length === 0
        ? "it takes at most half the time on every message too"
        : `it does not on the ${names} message${notHalf.length > 1 ? "s" : ""}`,
    );
  });

  it("the decode's share of json's on the large message is the default run's", () => {
    const decode = (codec: string) => num(run.row({ mode: "codec", payload: "large", codec }), "deserialize_ns");
    expect(text).toContain(
      `the floor has not been measured again on the ${run.rows[0]!("cpu")}, where the decode is now ${(decode("custom-binary") / decode("json")).toFixed(2)}x of the \`json\` codec's on the large message`,
    );
  });

  it("the machine it names is the default run's", () => {
    const row = run.rows[0]!;
    expect(text).toContain(`(${row("cpu")}, ${row("cores")} cores, Bun ${row("runtime_version")};`);
  });

  it("its table of how close custom-binary comes to the floor is the default run's, the cross-check's and the browser pair's", () => {
    const bun = codecRows("epyc-default-1.csv");
    const before = codecRows("browser-custom-binary-before-1.csv");
    const after = codecRows("browser-custom-binary-after-1.csv");
    const section = page.slice(page.indexOf("How close to the floor"), page.indexOf("Against JSON with its UTF-8"));
    const ratio = (r: typeof bun, payload: string) => num(r(payload, "custom-binary"), "total_vs_json").toFixed(2);
    const plain = crosscheckRows().filter((r) => r.codec === "custom-binary");
    for (const payload of PAYLOADS) {
      const line = section.split("\n").find((l) => l.startsWith(`| ${payload} |`))!;
      expect(line, payload).toBeDefined();
      const cells = line.split("|").map((c) => c.trim());
      expect(cells[2]).toMatch(new RegExp(`^${ratio(bun, payload)} `));
      expect(cells[3]).toBe(
        (num(bun(payload, "custom-binary"), "total_ns") / num(bun(payload, "json-bytes"), "total_ns")).toFixed(2),
      );
      expect(cells[4]).toBe(plain.find((r) => r.payload === payload)!.plain.toFixed(2));
      expect(cells[5]).toBe(`${ratio(before, payload)} / ${ratio(after, payload)}`);
    }
  });
});
