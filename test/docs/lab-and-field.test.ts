/**
 * Keeps docs/lab-and-field.md true to the committed runs it quotes: the
 * default runs (lab against field), the calibrated run, the cross-check's
 * output and the every-codec run's compressed sizes.
 */
import { describe, expect, it } from "vitest";
import { crosscheckRows, csvSample, doc, flat, num, sample } from "../helpers/samples.ts";
import { fixed, list, range, whole } from "../helpers/prose.ts";

const page = doc("lab-and-field.md");
const text = flat(page);

describe("docs/lab-and-field.md", () => {
  it("how far the field departs from the lab echo is the three default runs'", () => {
    type Departure = { x: number; codec: string; payload: string };
    const by = { stream: [] as Departure[], roundtrip: [] as Departure[] };
    for (const n of [1, 2, 3]) {
      const run = csvSample(`epyc-default-${n}.csv`);
      for (const lab of run.where({ mode: "codec" }).filter((r) => r("codec") !== "raw"))
        for (const mode of ["stream", "roundtrip"] as const) {
          const row = run.row({ mode, payload: lab("payload"), codec: lab("codec") });
          by[mode].push({
            x: num(row, "field_total_ns") / num(lab, "echo_ns"),
            codec: lab("codec"),
            payload: lab("payload"),
          });
        }
    }
    const f1 = (x: number) => x.toFixed(1);
    const xs = (mode: keyof typeof by) => by[mode].map((d) => d.x);
    expect(text).toContain(
      `per message the field cost ${range(xs("stream"), f1)}x the lab echo in stream mode and ${range(xs("roundtrip"), f1)}x in roundtrip mode in the committed runs`,
    );
    // Where the field departs from the lab echo most and least, over both modes and the three runs.
    const all = [...by.stream, ...by.roundtrip].sort((a, b) => a.x - b.x);
    const [least, most] = [all[0]!, all.at(-1)!];
    expect(text).toContain(
      `most for ${most.codec} on the ${most.payload} message, least for ${least.codec} on the ${least.payload} one`,
    );
  });

  it("the slices of the socket modes are the default run's", () => {
    const run = csvSample("epyc-default-1.csv");
    const one = (mode: string, col: string) => {
      const values = new Set(run.where({ mode }).map((r) => r(col)));
      expect(values.size, `${mode} ${col}`).toBe(1);
      return [...values][0]!;
    };
    expect(one("stream", "rounds")).toBe(one("roundtrip", "rounds"));
    expect(text).toContain(
      `cut into ${one("stream", "rounds")} slices (at least four windows each: ${one("stream", "round_msgs")} messages in stream mode, ${one("roundtrip", "round_msgs")} round trips in roundtrip mode by default)`,
    );
  });

  it("its calibration figures are the committed calibrated run's", () => {
    const cal = csvSample("epyc-calibrate.csv");
    const socket = (codec: string) => cal.rows.filter((r) => r("codec") === codec && r("mode") !== "codec");
    const known = socket("cal-spin").map((r) => num(r, "calibration_known_ns"));
    expect(text).toContain(
      `\`cal-spin\` (JSON plus a loop of arithmetic in every decode, ${range(known, (ns) => (ns / 1000).toFixed(1))} µs in the committed run`,
    );
    const cpu = (codec: string) => socket(codec).map((r) => num(r, "calibration_cpu_share"));
    const f2 = (x: number) => x.toFixed(2);
    expect(text).toContain(
      `it found ${range(cpu("cal-spin"), f2)} of the known cost and \`cal-json\` ${range(cpu("cal-json"), f2)} of JSON's`,
    );
  });

  describe("what it says of the cross-check is the committed cross-check's", () => {
    const rows = crosscheckRows();

    it("the run it checks: its date and machine", () => {
      const run = csvSample("epyc-default-1.csv").rows[0]!;
      const cpu = run("cpu");
      expect(sample("crosscheck-epyc-default-1.txt").split("\n")[0], "the cross-check's first line").toContain(
        `codec mode (${cpu})`,
      );
      expect(text).toContain(
        `Against \`results/sample/epyc-default-1.csv\` (${run("timestamp").slice(0, 10)}, ${cpu};`,
      );
    });

    it("which disagreements the field explains, and how the one it explains least departs", () => {
      expect(rows).toHaveLength(18);
      const explained = rows.filter((r) => r.explains);
      const payloads = [...new Set(explained.map((r) => r.payload))];
      const byPayload = payloads
        .map(
          (p) =>
            `${p} ${explained
              .filter((r) => r.payload === p)
              .map((r) => r.codec)
              .join(" and ")}`,
        )
        .join(", ");
      expect(text).toContain(
        `It explained ${explained.length} of the ${rows.filter((r) => r.differs).length} (${byPayload})`,
      );
      // The example: of the disagreements the field does not explain, the one the plain loop moved furthest.
      const unexplained = rows.filter((r) => r.differs && !r.explains);
      expect(unexplained.length, "disagreements the field does not explain").toBeGreaterThan(0);
      const m = unexplained.reduce((a, b) =>
        Math.abs(Math.log(b.plain / b.codecMode)) > Math.abs(Math.log(a.plain / a.codecMode)) ? b : a,
      );
      const inServer = [m.fieldRt / m.codecMode, m.fieldStream / m.codecMode];
      expect(text).toContain(
        `(${m.codec} on the ${m.payload} message: ${(m.plain / m.codecMode).toFixed(2)}x codec mode's ratio in the plain loop, ${range(inServer, (x) => x.toFixed(1))}x in the server)`,
      );
    });

    it("how many processes each codec's plain loop ran in", () => {
      const match = /median of (\d+) processes/.exec(sample("crosscheck-epyc-default-1.txt"));
      expect(match, 'the cross-check\'s "median of N processes"').not.toBeNull();
      expect(text).toContain(`in ${match![1]} processes per codec taken in turn (\`--processes\`)`);
    });

    it("how far its processes were apart", () => {
      expect(text).toContain(
        `the "processes apart" column shows what remains (${range(
          rows.map((r) => r.apart),
          (x) => x.toFixed(2),
        )}x)`,
      );
    });

    it("which codecs changed places in the plain loop", () => {
      const swapped = new Map<string, string[]>();
      let farthestSwapped = 1;
      for (const p of ["small", "medium", "large"]) {
        const of = rows.filter((r) => r.payload === p).sort((a, b) => a.codecMode - b.codecMode);
        for (const [i, a] of of.entries())
          for (const b of of.slice(i + 1)) {
            if (a.plain <= b.plain) continue;
            swapped.set(p, [...(swapped.get(p) ?? []), `${a.codec} and ${b.codec}`]);
            farthestSwapped = Math.max(farthestSwapped, b.codecMode / a.codecMode);
          }
      }
      // "More than a third apart": the dearer over the cheaper above 4/3.
      expect(farthestSwapped).toBeLessThanOrEqual(4 / 3);
      const closer = [...swapped].map(([p, pairs]) => `${pairs.join(", ")} on the ${p} message`).join("; ");
      expect(text).toContain(
        `no two codecs whose ratios in codec mode were more than a third apart changed places in the plain loop, closer ones did (${closer})`,
      );
    });
  });

  describe("its compressed sizes are the every-codec run's", () => {
    const run = csvSample("epyc-every-codec.csv");
    const at = (payload: string, codec: string, col: string) =>
      Math.round(num(run.row({ mode: "codec", payload, codec }), col));
    const FOUR = ["custom-binary", "protobuf", "msgpackr", "json"];

    it("in a stream a game tick's JSON stays well above custom-binary's size", () => {
      const x =
        at("game-tick", "json", "deflate_context_bytes") / at("game-tick", "custom-binary", "deflate_context_bytes");
      expect(text).toContain(`even in a stream JSON stays ${x.toFixed(1)}x custom-binary's size`);
    });

    it("compressed on its own only the large JSON and MessagePack messages shrink; in a stream the small ones come close", () => {
      // The messages deflate makes smaller on their own, payload by payload, each codec as the page names its format.
      const FORMAT: Record<string, string> = {
        json: "JSON",
        msgpackr: "MessagePack",
        protobuf: "Protobuf",
        "custom-binary": "custom-binary",
      };
      const shrinking = ["small", "medium", "large"]
        .map((p) => ({ p, codecs: FOUR.filter((c) => at(p, c, "deflate_bytes") < at(p, c, "bytes")) }))
        .filter((s) => s.codecs.length > 0)
        .map(({ p, codecs }) => {
          return `${p} ${list(codecs.map((c) => FORMAT[c]!).sort())}`;
        });
      for (const p of ["small", "medium"])
        for (const c of FOUR) expect(at(p, c, "zstd_bytes"), `${p} ${c}`).toBeGreaterThanOrEqual(at(p, c, "bytes"));
      expect(text).toContain(
        `and only the ${shrinking.join(" and the ")} messages shrink (JSON ${at("large", "json", "bytes")} to ${at("large", "json", "deflate_bytes")} B)`,
      );
      const small = FOUR.map((c) => at("small", c, "deflate_context_bytes"));
      expect(text).toContain(
        `the codecs come within ${Math.max(...small) - Math.min(...small)} bytes of each other on small messages`,
      );
    });

    it("Bun's compressed large JSON replies match deflate per message, not in a stream", () => {
      const reply = num(
        csvSample("epyc-roundtrip-deflate.csv").row({ mode: "roundtrip", payload: "large", codec: "json" }),
        "reply_wire_bytes",
      );
      const header = 4;
      const alone = Math.abs(reply - header - at("large", "json", "deflate_bytes"));
      const stream = Math.abs(reply - header - at("large", "json", "deflate_context_bytes"));
      expect(alone).toBeLessThan(stream);
      expect(text).toContain(
        `its large JSON replies (${Math.round(reply)} B on the wire with their ${header}-byte header, above) match "deflate", not "in stream"`,
      );
    });
  });

  it("the cross-check figures it quotes are the committed cross-check's", () => {
    const output = sample("crosscheck-epyc-default-1.txt");
    const section = page.slice(page.indexOf("## Cross-check"), page.indexOf("The codecs (`protocols/`"));
    const text = flat(section);
    // Where codec mode and the plain loop disagree most, and where the server falls.
    const rows = crosscheckRows();
    expect(rows).toHaveLength(18);
    const most = rows.reduce((a, b) => (Math.abs(b.diffPct) > Math.abs(a.diffPct) ? b : a));
    const two = fixed(2);
    expect(text).toContain(
      `(${most.codec} on the ${most.payload} message: ${two(most.codecMode)} in codec mode, ${two(most.plain)} in the plain loop, ${two(most.fieldRt)} and ${two(most.fieldStream)} in the server, between the two)`,
    );
    const [lo, hi] = [most.codecMode, most.plain].sort((a, b) => a - b);
    for (const field of [most.fieldRt, most.fieldStream]) expect(field).toSatisfy((f: number) => f >= lo! && f <= hi!);
    const differing = rows.filter((r) => r.differs);
    const explained = differing.filter((r) => r.explains).length;
    expect(output).toContain(`the field explains ${explained} of them`);
    expect(text).toContain(`It explained ${explained} of the ${differing.length}`);
    expect(section).toContain(`${rows.length - differing.length} of 18 ratios agreed within 10%`);
  });

  it("the page's compression figures are the committed runs' (bytes counted on the socket, round trips)", () => {
    const load = (name: string) => {
      const run = csvSample(name);
      return (payload: string, codec: string, col: string): number => num(run.row({ payload, codec }), col);
    };
    const plain = load("epyc-roundtrip-plain.csv");
    const deflate = load("epyc-roundtrip-deflate.csv");
    const b = (payload: string, codec: string) => Math.round(deflate(payload, codec, "reply_wire_bytes"));
    const u = (payload: string, codec: string) => Math.round(plain(payload, codec, "reply_wire_bytes"));
    expect(text).toContain(
      `replies were ${b("large", "json")} B for large JSON (${u("large", "json")} B uncompressed), ${b("medium", "json")} B for medium (${u("medium", "json")} B)`,
    );
    expect(text).toContain(
      `(small JSON ${b("small", "json")} B against ${u("small", "json")} B, large custom-binary ${b("large", "custom-binary")} B against ${u("large", "custom-binary")} B)`,
    );
    expect(text).toContain(`${b("large", "msgpackr")} B for large msgpackr (${u("large", "msgpackr")} B)`);
    const us = (f: typeof plain, payload: string) => (f(payload, "json", "total_mean_ns") / 1000).toFixed(1);
    expect(text).toContain(
      `(the mean round trip of JSON ${us(plain, "small")} to ${us(deflate, "small")} µs, ${us(plain, "medium")} to ${us(deflate, "medium")} µs)`,
    );
    const ratios = ["small", "medium"].flatMap((p) =>
      ["json", "custom-binary", "msgpackr"].map((c) => deflate(p, c, "total_mean_ns") / plain(p, c, "total_mean_ns")),
    );
    expect(text).toContain(`took ${Math.min(...ratios).toFixed(1)}-${Math.max(...ratios).toFixed(1)}x as long`);
    for (const p of ["small", "medium", "large"])
      for (const c of ["json", "custom-binary", "msgpackr"]) expect(deflate(p, c, "wire_compressed_share")).toBe(0);
  });

  it("the page's compressed sizes are the every-codec run's, row by row", () => {
    const run = csvSample("epyc-every-codec.csv");
    const section = page.slice(page.indexOf("- **Compressed sizes**"), page.indexOf("Chat text and market symbols"));
    const lines = section.split("\n").filter((l) => /^ *\| (small|medium|large|chat|game-tick|market) \|/.test(l));
    expect(lines).toHaveLength(24);
    const n = (v: string) => whole(Number(v));
    for (const line of lines) {
      const [payload, codec, ...sizes] = line
        .split("|")
        .slice(1, 7)
        .map((c) => c.trim());
      const row = run.row({ mode: "codec", payload: payload!, codec: codec! });
      const cols = ["bytes", "deflate_bytes", "deflate_context_bytes", "zstd_bytes"];
      expect(sizes, line).toEqual(cols.map((c) => n(row(c))));
    }
    const exact = (payload: string, codec: string, col: string) => num(run.row({ mode: "codec", payload, codec }), col);
    const at = (payload: string, codec: string, col: string) => Math.round(exact(payload, codec, col));
    expect(text).toContain(
      `(chat JSON ${at("chat", "json", "bytes")} to ${at("chat", "json", "deflate_context_bytes")} bytes)`,
    );
    const excess = (col: string) => Math.round(exact("large", "json", col) - exact("large", "custom-binary", col));
    expect(text).toContain(`JSON's excess shrinks from ${excess("bytes")} to ${excess("deflate_context_bytes")} bytes`);
  });
});
