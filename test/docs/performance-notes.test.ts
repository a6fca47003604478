/**
 * Keeps docs/performance-notes.md true to the committed runs it quotes: the
 * machine they come from, and how the field figure of the three default runs
 * stands against the lab echo.
 */
import { describe, expect, it } from "vitest";
import { SAMPLES } from "../../bench/tools/sample-list.ts";
import { csvSample, doc, flat, num, type Row, sample } from "../helpers/samples.ts";
import { fixed, list, range } from "../helpers/prose.ts";

const text = flat(doc("performance-notes.md"));
const two = fixed(2);
const one = fixed(1);

/** The three default runs: each socket-mode row beside the codec-mode row of its payload and codec. */
const runs = [1, 2, 3].map((n) => {
  const file = csvSample(`epyc-default-${n}.csv`);
  return file.rows
    .filter((r) => r("mode") !== "codec" && r("codec") !== "raw")
    .map((r) => ({ field: r, lab: file.row({ mode: "codec", payload: r("payload"), codec: r("codec") }) }));
});
const pairs = runs.flat();
const inMode = (mode: string) => pairs.filter((p) => p.field("mode") === mode);

describe("docs/performance-notes.md", () => {
  it("names the machine the committed runs come from", () => {
    const machines = new Set<string>();
    for (const entry of SAMPLES)
      for (const file of Object.keys(entry.files).filter((f) => f.endsWith(".csv"))) {
        // The results CSVs, not the link sweep's summary.
        if (!sample(file).split("\n")[0]!.split(",").includes("cpu")) continue;
        const first = csvSample(file).rows[0];
        // A browser does not tell a page what CPU it runs on.
        if (first && !first("cpu").startsWith("unknown")) machines.add(`${first("cores")}-core ${first("cpu")}`);
      }
    expect([...machines]).toHaveLength(1);
    expect(text).toContain(`The committed results (\`results/sample/\`) come from a ${[...machines][0]}`);
  });

  it("how far the field figure of the three default runs exceeds the lab echo, per mode, and which cases inflated most and least", () => {
    const over = (p: (typeof pairs)[number]) => num(p.field, "field_total_ns") / num(p.lab, "echo_ns");
    const spread = (mode: string) => range(inMode(mode).map(over), one);
    expect(text).toContain(
      `the field figure was ${spread("stream")}x the lab echo's in stream mode and ${spread("roundtrip")}x in roundtrip mode in the three committed default runs (\`field_total_ns\` over \`echo_ns\`)`,
    );
    const name = (p: (typeof pairs)[number]) => `${p.field("codec")} on the ${p.field("payload")} message`;
    const ends = (mode: string) => {
      const sorted = [...inMode(mode)].sort((a, b) => over(a) - over(b));
      return [name(sorted.at(-1)!), name(sorted[0]!)];
    };
    expect(ends("roundtrip")).toEqual(ends("stream"));
    const [most, least] = ends("stream");
    expect(text).toContain(`${most} inflated most, ${least} least`);
  });

  it("where the roundtrip field ratios lie against the lab echo's in the three default runs", () => {
    const rows = (codec: string) => inMode("roundtrip").filter((p) => p.field("codec") === codec);
    const below = (p: (typeof pairs)[number]) => num(p.field, "field_vs_json") < num(p.lab, "echo_vs_json");
    const payloadsOf = (codec: string) => [...new Set(rows(codec).map((p) => p.field("payload")))];
    /** The payloads on which a codec's field ratio lies below its lab echo's in all three runs. */
    const payloadsBelow = (codec: string) =>
      payloadsOf(codec).filter((payload) =>
        rows(codec)
          .filter((p) => p.field("payload") === payload)
          .every(below),
      );
    // "their ... lie below" covers a codec below on every payload; one below on fewer is named with those payloads.
    const fewer = ["protobuf", "msgpack"]
      .filter((c) => payloadsBelow(c).length < payloadsOf(c).length)
      .map((c) =>
        payloadsBelow(c).length > 0 ? `${c}'s on the ${list(payloadsBelow(c))} messages` : `${c}'s on no message`,
      );
    expect(text).toContain(
      `their roundtrip field ratios lie below their lab echo's${fewer.map((f) => `, ${f}`).join("")})`,
    );
    const cb = rows("custom-binary");
    // Above, or level: within 1% of the lab echo's counts as level, named with its payload.
    const ratioOf = (p: (typeof pairs)[number]) => num(p.field, "field_vs_json") / num(p.lab, "echo_vs_json");
    expect(
      cb
        .filter((p) => ratioOf(p) < 0.99)
        .map((p) => `${p.field("payload")}: ${p.field("field_vs_json")} against ${p.lab("echo_vs_json")}`),
      "custom-binary's roundtrip field ratios more than 1% below its lab echo's",
    ).toEqual([]);
    const level = [...new Set(cb.filter((p) => ratioOf(p) < 1).map((p) => p.field("payload")))];
    const col = (c: string) => (r: Row) => num(r, c);
    expect(text).toContain(
      `whose roundtrip field ratios there lie above its lab echo's${
        level.length > 0 ? ` or within 1% of them on the ${list(level)} message${level.length > 1 ? "s" : ""}` : ""
      } (${range(
        cb.map((p) => col("field_vs_json")(p.field)),
        two,
      )} against ${range(
        cb.map((p) => col("echo_vs_json")(p.lab)),
        two,
      )})`,
    );
  });
});
