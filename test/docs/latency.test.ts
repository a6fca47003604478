/**
 * Keeps docs/latency.md true to the committed latency runs: the rates each
 * codec kept, the knees of the three back-to-back sweeps and how far they
 * moved, where the server's time goes at 20,000 messages/s, and Chromium's
 * two p50s.
 */
import { describe, expect, it } from "vitest";
import { csvSample, doc, flat, machineOf, num, type Row } from "../helpers/samples.ts";
import { fixed, list, ordinal, range, sayer, whole } from "../helpers/prose.ts";

const page = doc("latency.md");
const text = flat(page);
/** A codec as the page names it in prose: JSON, `raw`, the others by their names. */
const named = (codec: string) => (codec === "json" ? "JSON" : codec === "raw" ? "`raw`" : codec);
/** A codec's possessive as the page writes it: JSON's, msgpackr-records', `raw`'s. */
const whose = (codec: string) => (codec.endsWith("s") ? `${named(codec)}'` : `${named(codec)}'s`);
/** How many times, as the page writes it: once, twice, 3 times. */
const times = (n: number): string => ["", "once", "twice"][n] ?? `${n} times`;
const MESSAGEPACK = ["msgpack", "msgpackr", "msgpackr-records"];
/**
 * Codecs' possessives as a sentence lists them; when all three MessagePack
 * codecs are among them the page says "the three MessagePack codecs'", in the
 * place of the first.
 */
const theirs = (codecs: string[]): string => {
  const together = MESSAGEPACK.every((c) => codecs.includes(c));
  const first = codecs.find((c) => MESSAGEPACK.includes(c));
  return list(
    codecs.flatMap((c) =>
      !together || !MESSAGEPACK.includes(c) ? [whose(c)] : c === first ? ["the three MessagePack codecs'"] : [],
    ),
  );
};
/** The latency rows of a committed run. */
const latency = (name: string) => csvSample(name).where({ mode: "latency" });

/** The three back-to-back sweeps, first to third. */
const sweeps = [1, 2, 3].map((n) => latency(`epyc-sweep-${n}.csv`));
const payloads = ["small", "medium", "large"] as const;
/** The codecs (and raw) a sweep ran on a payload, in the file's order. */
const codecsOf = (payload: string) => [
  ...new Set(sweeps[0]!.filter((r) => r("payload") === payload).map((r) => r("codec"))),
];
/** A codec's knee on a payload in each of the three sweeps. */
const knees = (payload: string, codec: string): number[] =>
  sweeps.map((rows, i) => {
    const r = rows.find((x) => x("payload") === payload && x("codec") === codec);
    if (!r) throw new Error(`epyc-sweep-${i + 1}.csv has no ${payload} ${codec} row`);
    return num(r, "knee_rate");
  });
/** How far a codec's knee moved across the sweeps: the highest over the lowest. */
const moved = (payload: string, codec: string) =>
  Math.max(...knees(payload, codec)) / Math.min(...knees(payload, codec));
/** The lowest and highest knee, as the page writes them: "60,000 to 84,000". */
const span = (payload: string, codec: string) =>
  `${whole(Math.min(...knees(payload, codec)))} to ${whole(Math.max(...knees(payload, codec)))}`;
/** The codecs whose knee came within 25% across the three sweeps. */
const steady = (payload: string) => codecsOf(payload).filter((c) => moved(payload, c) <= 1.25);
/** The codecs whose knee moved further. */
const unsteady = (payload: string) => codecsOf(payload).filter((c) => moved(payload, c) > 1.25);
/**
 * Codecs' possessives with their knees' spans, as the page lists them:
 * codecs whose knees spanned the same rates share one span, "each", after the
 * last of them ("json-bytes', protobuf's (60,000 to 84,000 each) and
 * custom-binary's (71,000 to 100,000)"), in the file's order of the first.
 */
const spanned = (payload: string, codecs: string[]): string => {
  const groups = new Map<string, string[]>();
  for (const c of codecs) groups.set(span(payload, c), [...(groups.get(span(payload, c)) ?? []), c]);
  return list(
    [...groups].flatMap(([s, group]) =>
      group.map((c, i) => (i < group.length - 1 ? whose(c) : `${whose(c)} (${s}${group.length > 1 ? " each" : ""})`)),
    ),
  );
};
/** The ladder's top: the highest rate a sweep asks. */
const top = Math.max(...sweeps.flatMap((rows) => rows.map((r) => num(r, "target_rate"))));

/** The page says this, word for word (its lines joined); a failure names the fragment it should hold, with the file's figures in it. */
const says = sayer(text, "docs/latency.md");
/** Nanoseconds as the page writes them: whole µs, ms to one decimal. */
const us = (ns: number) => (ns / 1000).toFixed(0);
const ms = (ns: number) => (ns / 1e6).toFixed(1);

describe("docs/latency.md", () => {
  it("the 2,000 messages/s run is the 2-core AMD EPYC's", () => {
    const rows = latency("epyc-latency-2000.csv");
    const { cpu, cores } = machineOf("epyc-latency-2000.csv", rows);
    const rates = [...new Set(rows.map((r) => num(r, "target_rate")))];
    expect(rates, "the rates epyc-latency-2000.csv asked").toEqual([2000]);
    says(`Measured here (${cpu}, ${cores} cores; \`bun run bench --modes latency\`, ${whole(rates[0]!)} messages/s,`);
  });

  it("at 10,000/s on the large message the codecs that kept the rate and the one that fell short are the run's", () => {
    const codecs = latency("epyc-latency-large-10000.csv").filter((r) => r("codec") !== "raw");
    const rate = num(codecs[0]!, "target_rate");
    const short = codecs.filter((r) => r("flags").includes("below-rate"));
    const kept = codecs.filter((r) => !r("flags").includes("below-rate")).map((r) => named(r("codec")));
    const achieved = short.map((r) => num(r, "achieved_rate"));
    // "Just short" while every codec that fell short still sent 95% of the rate or more.
    const just = achieved.every((a) => a >= 0.95 * rate) ? "just short" : "short";
    const keep = kept.length === 0 ? "none keeps up" : `${list(kept)} keep${kept.length === 1 ? "s" : ""} up`;
    const fall =
      short.length === 0
        ? ""
        : ` and ${list(short.map((r) => named(r("codec"))))} ${short.length === 1 ? "falls" : "fall"} ${just} (${
            short.length === 1 ? whole(achieved[0]!) : `${whole(Math.min(...achieved))}-${whole(Math.max(...achieved))}`
          } achieved, flagged \`below-rate\`)`;
    says(`at ${whole(rate)}/s ${keep}${fall}`);
  });

  it("how long a sweep takes is what the three sweeps took, on the AMD EPYC", () => {
    const seconds = sweeps.map((rows) => num(rows[0]!, "account_elapsed_ms") / 1000);
    const { cpu } = machineOf("epyc-sweep-{1,2,3}.csv", sweeps.flat());
    says(
      `a sweep takes ${Math.round(Math.min(...seconds))}-${Math.round(Math.max(...seconds))} s on the ${cpu} that made them`,
    );
    says(`\`epyc-sweep-3.csv\`, ${cpu}, back to back)`);
    says(`block (${cpu}, \`bun run bench --modes latency --rate sweep\`,`);
  });

  it("on the small message every codec and raw kept the ladder's top in all three sweeps but one, once", () => {
    const missed = codecsOf("small").flatMap((c) => {
      const below = knees("small", c).filter((k) => k < top);
      return below.length === 0 ? [] : [`${named(c)} ${times(below.length)} (${list(below.map(whole))})`];
    });
    says(
      `every codec and \`raw\` kept ${whole(top)} messages/s, the top of the ladder, on the small message in all three${
        missed.length === 0 ? "" : ` but ${list(missed)}`
      }:`,
    );
  });

  it("which knees came within 25% across the sweeps on the medium and the large message, and how far the others moved", () => {
    // The page names the steady knees of the medium message and gives the spans of those that
    // moved more; of the large message, the spans of the steady ones ("only ... did").
    const medium =
      unsteady("medium").length === 0
        ? "On the medium message every knee came within 25% across the three sweeps"
        : steady("medium").length === 0
          ? `On the medium message no knee came within 25% across the three sweeps: ${spanned("medium", unsteady("medium"))}`
          : `On the medium message ${theirs(steady("medium"))} knees came within 25% across the three sweeps, ${spanned("medium", unsteady("medium"))} did not`;
    says(medium);
    const large = steady("large");
    says(
      `on the large message ${
        large.length === 0
          ? "none did"
          : large.length === codecsOf("large").length
            ? "all did"
            : `only ${spanned("large", large)} did`
      }`,
    );
  });

  it("on the large message every knee rose from the first sweep to the second, two again to the third, and JSON's fell back", () => {
    const codecs = codecsOf("large");
    const step = (from: number, to: number) => ({
      rose: codecs.filter((c) => knees("large", c)[to]! > knees("large", c)[from]!),
      fell: codecs.filter((c) => knees("large", c)[to]! < knees("large", c)[from]!),
    });
    const [first, second] = [step(0, 1), step(1, 2)];
    const rose =
      first.rose.length === codecs.length
        ? "every knee rose"
        : first.rose.length === 0
          ? "no knee rose"
          : `${theirs(first.rose)} knees rose`;
    const again = second.rose.length === 0 ? "none" : theirs(second.rose);
    const fell = second.fell.length === 0 ? "none" : theirs(second.fell);
    says(`There ${rose} from the first sweep to the second, ${again} again to the third, and ${fell} fell back.`);
  });

  it("where raw's knee went on the medium and the large message is the sweeps'", () => {
    // "Stayed at the ladder's top" in all three; "rose from X to the ladder's top" while its first
    // knee was below the top and both later ones at it; otherwise the three knees.
    const course = (payload: string) => {
      const k = knees(payload, "raw");
      return k.every((x) => x === top)
        ? "stayed at the ladder's top"
        : k[0]! < top && k.slice(1).every((x) => x === top)
          ? `rose from ${whole(k[0]!)} to the ladder's top`
          : `went ${list(k.map(whole))}`;
    };
    const [medium, large] = [course("medium"), course("large")];
    says(
      medium === large
        ? `\`raw\`'s (no codec at all) ${medium} on the medium and the large message alike`
        : `\`raw\`'s (no codec at all) ${medium} on the medium message and ${large} on the large`,
    );
  });

  it("the sweeps ran within ten minutes, and the widest move of a knee is the one the text names", () => {
    const start = (rows: Row[]) => Date.parse(rows[0]!("timestamp"));
    const last = sweeps[2]!;
    const took = start(last) + num(last[0]!, "account_elapsed_ms") - start(sweeps[0]!);
    expect(took, `the three sweeps took ${Math.round(took / 1000)} s, first start to last end`).toBeLessThanOrEqual(
      10 * 60_000,
    );
    const all = payloads.flatMap((p) => codecsOf(p).map((c) => ({ p, c, x: moved(p, c) })));
    const widest = all.reduce((a, b) => (b.x > a.x ? b : a));
    says(
      `by up to ${widest.x.toFixed(1)}x (${named(widest.c)} on the ${widest.p} message, ${span(widest.p, widest.c)})`,
    );
  });

  it("the codec with the highest knee on the large message, in every sweep, is the sweeps' own, and who matched it", () => {
    const codecs = codecsOf("large").filter((c) => c !== "raw");
    // The codec the page names: at the highest knee of the codecs in every sweep (others may match it).
    const best = sweeps.map((_, i) => Math.max(...codecs.map((c) => knees("large", c)[i]!)));
    const leaders = codecs.filter((c) => knees("large", c).every((k, i) => k === best[i]));
    expect(leaders, `codecs at the highest knee in every sweep (highest: ${best.join(", ")})`).not.toHaveLength(0);
    const leader = leaders[0]!;
    const matched = codecs
      .filter((c) => c !== leader)
      .map((c) => ({ c, at: sweeps.map((_, i) => i).filter((i) => knees("large", c)[i] === best[i]) }))
      .filter((m) => m.at.length > 0);
    const also = matched
      .map((m) => `${named(m.c)} matched it in the ${list(m.at.map((i) => ordinal(i + 1)))}`)
      .join("; ");
    says(
      `${named(leader)} kept the highest rate of the codecs on the large message in all three (${list(best.map(whole))}${also ? `; ${also}` : ""})`,
    );
  });

  it("at 20,000/s the server's encode + decode of the large message is what the first sweep measured, against its CPU per message", () => {
    const rows = sweeps[0]!.filter(
      (r) => r("payload") === "large" && num(r, "target_rate") === 20_000 && r("codec") !== "raw",
    );
    expect(rows.length, "codec rows of the large message at 20,000/s in epyc-sweep-1.csv").toBeGreaterThan(0);
    const byCodec = [...rows].sort((a, b) => num(a, "server_codec_ns") - num(b, "server_codec_ns"));
    const [least, most] = [byCodec[0]!, byCodec.at(-1)!];
    const us1 = (r: Row) => (num(r, "server_codec_ns") / 1000).toFixed(1);
    const cpu = rows.map((r) => num(r, "server_cpu_ns_per_msg") / 1000);
    says(
      `on the large message the server's encode + decode took ${us1(least)} µs (${least("codec")}) to ${us1(most)} µs (${most("codec")}) of ${Math.min(...cpu).toFixed(0)}-${Math.max(...cpu).toFixed(0)} µs`,
    );
  });

  it("in Chromium at 1,000/s the corrected and the service p50 lie within 5% of each other", () => {
    const at1000 = latency("chromium-latency.csv").filter((r) => num(r, "target_rate") === 1000);
    expect(at1000.length, "rows at 1,000/s in chromium-latency.csv").toBeGreaterThan(0);
    const apart = Math.max(...at1000.map((r) => Math.abs(num(r, "latency_p50_ns") / num(r, "service_p50_ns") - 1)));
    expect(apart, `the two p50s are up to ${(apart * 100).toFixed(1)}% apart`).toBeLessThanOrEqual(0.05);
    says("(in the committed run above, at 1,000/s, within 5%)");
  });

  it("the page's latency figures at 2,000, 10,000 and 40,000 messages/s are the committed runs'", () => {
    const load = (name: string) => {
      const rows = csvSample(name).where({ mode: "latency" });
      const col = (c: string, raw = false) => rows.filter((r) => (r("codec") === "raw") === raw).map((r) => num(r, c));
      return { rows, col, flags: rows.map((r) => r("flags")) };
    };
    const at2000 = load("epyc-latency-2000.csv");
    const achieved = [...at2000.col("achieved_rate"), ...at2000.col("achieved_rate", true)];
    expect(text).toContain(
      `(${range(achieved, whole)} achieved, at most ${Math.max(...at2000.col("late_sends"), ...at2000.col("late_sends", true))} of 6,000 messages late)`,
    );
    expect(text).toContain(
      `corrected p50 ${range(at2000.col("latency_p50_ns"), us)} µs for all of them (\`raw\`, no codec, ${range(at2000.col("latency_p50_ns", true), us)} µs), p99 ${range(at2000.col("latency_p99_ns"), ms)} ms`,
    );
    const at10k = load("epyc-latency-large-10000.csv");
    const late10k = [...at10k.col("late_sends"), ...at10k.col("late_sends", true)];
    expect(text).toContain(
      `${range(late10k, whole)} of 12,000 messages late, p99 ${range(at10k.col("latency_p99_ns"), ms)} ms`,
    );
    const at40k = load("epyc-latency-large-40000.csv");
    expect(at40k.flags.every((f) => f.includes("below-rate"))).toBe(true);
    expect(text).toContain(`none does (${range(at40k.col("achieved_rate"), whole)} msgs/s achieved`);
    const corrected = at40k.col("latency_p99_ns");
    const service = at40k.col("service_p99_ns");
    const most = Math.max(...corrected.map((c, i) => c / service[i]!));
    expect(text).toContain(
      `corrected p99 (${range(corrected, ms)} ms) is at most ${most.toFixed(2)}x the service time's`,
    );
    expect(text).toContain(
      `service time's (${range(at40k.col("service_p99_ns"), ms)} ms): ${range(at40k.col("late_sends"), whole)} of 12,000 sends were late`,
    );
  });

  it("the page's Chromium latency figures are the committed run's, beside Bun's client in the first sweep", () => {
    const codecs = (rows: Row[]) => rows.filter((r) => r("codec") !== "raw");
    const chromium = codecs(latency("chromium-latency.csv"));
    const at = (rate: number) => chromium.filter((r) => num(r, "target_rate") === rate);
    expect(at(1000).every((r) => !r("flags").includes("below-rate"))).toBe(true);
    const bun = codecs(sweeps[0]!).filter((r) => num(r, "target_rate") === 1000);
    expect(text).toContain(
      `every codec kept the rate with corrected p50 ${range(
        at(1000).map((r) => Number(r("latency_p50_ns"))),
        us,
      )} µs (Bun's client in the first sweep above: ${range(
        bun.map((r) => Number(r("latency_p50_ns"))),
        us,
      )} µs)`,
    );
    const short = at(5000).filter((r) => r("flags").includes("below-rate")).length;
    const achieved = range(
      at(5000).map((r) => num(r, "achieved_rate")),
      whole,
    );
    const p50 = range(
      at(5000).map((r) => num(r, "latency_p50_ns")),
      ms,
    );
    expect(text).toContain(
      `at 5,000/s ${short} of the ${at(5000).length} cases fell short of it (the ${at(5000).length} achieved ${achieved}) with p50 ${p50} ms`,
    );
  });

  it("the page's latency sweep's CPU and memory table is the committed sweep's, rate by rate", () => {
    const codecs = csvSample("epyc-sweep-1.csv")
      .where({ mode: "latency" })
      .filter((r) => r("codec") !== "raw");
    const span = (values: number[], unit: string) => `${range(values, fixed(0))} ${unit}`.replace(" %", "%");
    const section = page.slice(page.indexOf("| rate (msgs/s) | server CPU per message"), page.indexOf("**Charts.**"));
    const lines = section.split("\n").filter((l) => /^\| [\d,]+ \|/.test(l));
    expect(lines.length).toBeGreaterThanOrEqual(4);
    for (const line of lines) {
      const [rate, cpu, share, busy, rss] = line
        .split("|")
        .slice(1, 6)
        .map((c) => c.trim());
      const at = codecs.filter((r) => num(r, "target_rate") === Number(rate!.replace(/,/g, "")));
      expect(at.length, line).toBeGreaterThan(0);
      const each = (f: (r: Row) => number, unit: string) => span(at.map(f), unit);
      expect([cpu, share, busy, rss], line).toEqual([
        each((r) => num(r, "server_cpu_ns_per_msg") / 1000, "µs"),
        each((r) => (100 * num(r, "server_cpu_ns_per_msg") * num(r, "achieved_rate")) / 1e9, "%"),
        each((r) => num(r, "client_busy_ns_per_msg") / 1000, "µs"),
        each((r) => num(r, "server_rss_peak_bytes") / 2 ** 20, "MiB"),
      ]);
    }
  });
});
