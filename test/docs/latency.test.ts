/**
 * Keeps docs/latency.md true to the committed latency runs: the rates each
 * codec kept, the knees of the three back-to-back sweeps and how far they
 * moved, where the server's time goes at 20,000 messages/s, and Chromium's
 * two p50s.
 */
import { describe, expect, it } from "vitest";
import { csvSample, doc, flat, num, type Row } from "../helpers/samples.ts";

const text = flat(doc("latency.md"));
/** A count as the page writes it: 12,000. */
const whole = (x: number) => Math.round(x).toLocaleString("en-US");
/** A codec as the page names it in prose. */
const named = (codec: string) => (codec === "json" ? "JSON" : codec);
/** A codec's possessive as the page writes it: JSON's, msgpackr-records'. */
const whose = (codec: string) => (codec.endsWith("s") ? `${named(codec)}'` : `${named(codec)}'s`);
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
  sweeps.map((rows) => num(rows.find((r) => r("payload") === payload && r("codec") === codec)!, "knee_rate"));
/** How far a codec's knee moved across the sweeps: the highest over the lowest. */
const moved = (payload: string, codec: string) =>
  Math.max(...knees(payload, codec)) / Math.min(...knees(payload, codec));
/** The lowest and highest knee, as the page writes them: "60,000 to 84,000". */
const span = (payload: string, codec: string) =>
  `${whole(Math.min(...knees(payload, codec)))} to ${whole(Math.max(...knees(payload, codec)))}`;
/** The codecs whose knee came within 25% across the three sweeps. */
const steady = (payload: string) => codecsOf(payload).filter((c) => moved(payload, c) <= 1.25);
/** The ladder's top: the highest rate a sweep asks. */
const top = Math.max(...sweeps.flatMap((rows) => rows.map((r) => num(r, "target_rate"))));

describe("docs/latency.md", () => {
  it("the 2,000 messages/s run is the 2-core AMD EPYC's", () => {
    const rows = latency("epyc-latency-2000.csv");
    expect(rows.every((r) => r("cpu") === "AMD EPYC" && r("cores") === "2")).toBe(true);
    expect(rows.every((r) => num(r, "target_rate") === 2000)).toBe(true);
    expect(text).toContain(`Measured here (${rows[0]!("cpu")}, ${rows[0]!("cores")} cores;`);
  });

  it("at 10,000/s on the large message the codecs that kept the rate and the one that fell short are the run's", () => {
    const codecs = latency("epyc-latency-large-10000.csv").filter((r) => r("codec") !== "raw");
    const short = codecs.filter((r) => r("flags").includes("below-rate"));
    const kept = codecs.filter((r) => !r("flags").includes("below-rate")).map((r) => named(r("codec")));
    expect(short).toHaveLength(1);
    expect(text).toContain(
      `at 10,000/s ${kept.join(" and ")} keep up and ${named(short[0]!("codec"))} falls just short (${whole(num(short[0]!, "achieved_rate"))} achieved, flagged \`below-rate\`)`,
    );
  });

  it("how long a sweep takes is what the three sweeps took, on the AMD EPYC", () => {
    const seconds = sweeps.map((rows) => num(rows[0]!, "account_elapsed_ms") / 1000);
    expect(sweeps.every((rows) => rows[0]!("cpu") === "AMD EPYC")).toBe(true);
    expect(text).toContain(
      `a sweep takes ${Math.round(Math.min(...seconds))}-${Math.round(Math.max(...seconds))} s on the AMD EPYC that made them`,
    );
  });

  it("on the small message every codec and raw kept the ladder's top in all three sweeps but one, once", () => {
    const misses = codecsOf("small").flatMap((c) =>
      knees("small", c)
        .filter((k) => k < top)
        .map((k) => ({ codec: c, knee: k })),
    );
    expect(misses).toHaveLength(1);
    expect(text).toContain(
      `every codec and \`raw\` kept ${whole(top)} messages/s, the top of the ladder, on the small message in all three but ${misses[0]!.codec} once (${whole(misses[0]!.knee)})`,
    );
  });

  it("which knees came within 25% across the sweeps on the medium and the large message, and how far the others moved", () => {
    // "JSON's, the three MessagePack codecs' and raw's" on the medium message.
    expect(steady("medium")).toEqual(["json", "msgpack", "msgpackr", "msgpackr-records", "raw"]);
    expect(span("medium", "protobuf")).toBe(span("medium", "json-bytes"));
    expect(text).toContain(
      `json-bytes', protobuf's (${span("medium", "json-bytes")} each) and custom-binary's (${span("medium", "custom-binary")}) did not`,
    );
    expect(steady("large")).toEqual(["msgpack", "raw"]);
    expect(text).toContain(
      `on the large message only msgpack's (${span("large", "msgpack")}) and \`raw\`'s (${span("large", "raw")}) did`,
    );
  });

  it("on the large message every knee rose from the first sweep to the second, two again to the third, and JSON's fell back", () => {
    const codecs = codecsOf("large");
    expect(codecs.filter((c) => knees("large", c)[1]! <= knees("large", c)[0]!)).toEqual([]);
    const again = codecs.filter((c) => knees("large", c)[2]! > knees("large", c)[1]!);
    const fell = codecs.filter((c) => knees("large", c)[2]! < knees("large", c)[1]!);
    expect(text).toContain(
      `There every knee rose from the first sweep to the second, ${again.map(whose).join(" and ")} again to the third, and ${fell.map(whose).join(" and ")} fell back.`,
    );
  });

  it("raw's knee rose from the same rate to the ladder's top on the medium and the large message", () => {
    const [medium, large] = [knees("medium", "raw"), knees("large", "raw")];
    expect(medium[0]).toBe(large[0]);
    expect([...medium.slice(1), ...large.slice(1)].every((k) => k === top)).toBe(true);
    expect(text).toContain(
      `\`raw\`'s (no codec at all) rose from ${whole(medium[0]!)} to the ladder's top on the medium and the large message alike`,
    );
  });

  it("the sweeps ran within ten minutes, and the widest move of a knee is the one the text names", () => {
    const start = (rows: Row[]) => Date.parse(rows[0]!("timestamp"));
    const last = sweeps[2]!;
    expect(start(last) + num(last[0]!, "account_elapsed_ms") - start(sweeps[0]!)).toBeLessThanOrEqual(10 * 60_000);
    const all = payloads.flatMap((p) => codecsOf(p).map((c) => ({ p, c, x: moved(p, c) })));
    const widest = all.reduce((a, b) => (b.x > a.x ? b : a));
    expect(text).toContain(
      `by up to ${widest.x.toFixed(1)}x (${widest.c} on the ${widest.p} message, ${span(widest.p, widest.c)})`,
    );
  });

  it("custom-binary kept the highest rate of the codecs on the large message in every sweep", () => {
    const codecs = codecsOf("large").filter((c) => c !== "raw" && c !== "custom-binary");
    const cb = knees("large", "custom-binary");
    sweeps.forEach((_, i) => {
      for (const c of codecs) expect(cb[i], `sweep ${i + 1}: ${c}`).toBeGreaterThan(knees("large", c)[i]!);
    });
    expect(text).toContain(
      `custom-binary kept the highest rate of the codecs on the large message in all three (${whole(cb[0]!)}, ${whole(cb[1]!)} and ${whole(cb[2]!)})`,
    );
  });

  it("at 20,000/s the server's encode + decode of the large message is what the first sweep measured, against its CPU per message", () => {
    const rows = sweeps[0]!.filter(
      (r) => r("payload") === "large" && num(r, "target_rate") === 20_000 && r("codec") !== "raw",
    );
    const byCodec = [...rows].sort((a, b) => num(a, "server_codec_ns") - num(b, "server_codec_ns"));
    const [least, most] = [byCodec[0]!, byCodec.at(-1)!];
    const us1 = (r: Row) => (num(r, "server_codec_ns") / 1000).toFixed(1);
    const cpu = rows.map((r) => num(r, "server_cpu_ns_per_msg") / 1000);
    expect(text).toContain(
      `on the large message the server's encode + decode took ${us1(least)} µs (${least("codec")}) to ${us1(most)} µs (${most("codec")}) of ${Math.min(...cpu).toFixed(0)}-${Math.max(...cpu).toFixed(0)} µs`,
    );
  });

  it("in Chromium at 1,000/s the corrected and the service p50 lie within 5% of each other", () => {
    const at1000 = latency("chromium-latency.csv").filter((r) => num(r, "target_rate") === 1000);
    expect(at1000.length).toBeGreaterThan(0);
    const apart = Math.max(...at1000.map((r) => Math.abs(num(r, "latency_p50_ns") / num(r, "service_p50_ns") - 1)));
    expect(apart, `the two p50s are up to ${(apart * 100).toFixed(1)}% apart`).toBeLessThanOrEqual(0.05);
    expect(text).toContain("(in the committed run above, at 1,000/s, within 5%)");
  });
});
