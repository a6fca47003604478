/**
 * docs/clusters.md says what the three committed fanout runs show (one
 * process alone, one through Redis, two through Redis): each figure is worked
 * out here from those files, over the codecs of the figures block's table in
 * docs/results.md, which the page's "(the codecs in the table)" means.
 */
import { describe, expect, it } from "vitest";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { csvSample, doc, flat, machineOf, num, type Row, sample } from "../helpers/samples.ts";
import { hi, lo, sayer, thousands, whole } from "../helpers/prose.ts";

const text = flat(doc("clusters.md"));
/** The page says this, word for word (its lines joined); a failure names the fragment it should hold, with the file's figures in it. */
const says = sayer(text, "docs/clusters.md");

const FILES = {
  alone: "fanout-1-process.csv",
  redis: "fanout-1-process-redis.csv",
  two: "fanout-2-processes-redis.csv",
} as const;
type Setup = keyof typeof FILES;
const SETUPS = Object.keys(FILES) as Setup[];

/** The codecs of results.md's fanout table: its rows, from its header to the first line that is not the table's. */
const TABLE_CODECS = (() => {
  const header = "| payload | codec | bytes | 1 process: deliveries/s";
  const lines = doc("results.md").split("\n");
  const start = lines.findIndex((l) => l.startsWith(header));
  if (start < 0) throw new Error(`docs/results.md has no fanout table (no line starting "${header}")`);
  const end = lines.findIndex((l, i) => i > start && !l.startsWith("|"));
  const rows = lines.slice(start + 2, end < 0 ? undefined : end);
  return [...new Set(rows.map((l) => l.split("|")[2]!.trim()))];
})();

describe("docs/clusters.md", () => {
  const runs = Object.fromEntries(SETUPS.map((s) => [s, csvSample(FILES[s])])) as Record<
    Setup,
    ReturnType<typeof csvSample>
  >;
  const row = (setup: Setup, payload: string, codec: string): Row =>
    runs[setup].row({ mode: "fanout", payload, codec });
  const table = (setup: Setup): Row[] =>
    runs[setup].where({ mode: "fanout" }).filter((r) => TABLE_CODECS.includes(r("codec")));
  const cpu = (r: Row): number => num(r, "cluster_cpu_ns_per_delivery") / 1000;
  const payloads = ["small", "medium", "large"];

  it("the table it refers to has codecs, and the runs are the setups it names, on the machine it names", () => {
    expect(TABLE_CODECS.length).toBeGreaterThan(1);
    expect(TABLE_CODECS).toContain("json");
    const shape = (s: Setup) => {
      const r = runs[s].rows[0]!;
      return [r("server_processes"), r("backplane"), r("clients")];
    };
    expect(shape("alone")).toEqual(["1", "", "8"]);
    expect(shape("redis")).toEqual(["1", "redis", "8"]);
    expect(shape("two")).toEqual(["2", "redis", "8"]);
    const { cpu, cores } = machineOf(
      "the three fanout runs",
      SETUPS.flatMap((s) => runs[s].rows),
    );
    const took = SETUPS.map((s) => Math.round(resultsFromFile(sample(FILES[s])).elapsedMs / 1000));
    says(`${cpu}, ${cores} cores; the three took ${took[0]}, ${took[1]} and ${took[2]} s)`);
  });

  it("the backplane costs more than the codec: the CPU per delivery of each setup, and what Redis adds against how far the codecs differ", () => {
    const span = (s: Setup) => `${lo(table(s).map(cpu)).toFixed(1)}-${hi(table(s).map(cpu)).toFixed(1)} µs`;
    says(
      `Through Redis, one process spends ${span("redis")} of CPU per delivery where alone it spends ${span("alone")}, and two processes together ${span("two")} (the codecs in the table)`,
    );
    // On every payload, the least Redis adds to a codec's CPU is more than the codecs differ alone.
    for (const p of payloads) {
      const alone = table("alone").filter((r) => r("payload") === p);
      const added = alone.map((r) => cpu(row("redis", p, r("codec"))) - cpu(r));
      expect(lo(added), p).toBeGreaterThan(hi(alone.map(cpu)) - lo(alone.map(cpu)));
    }
  });

  it("on the large message custom-binary and protobuf cost JSON's CPU times the ratios it states; on the small one the codecs sit in its range", () => {
    const vs = (s: Setup, payload: string, codec: string) => cpu(row(s, payload, codec)) / cpu(row(s, payload, "json"));
    const at = (s: Setup, codec: string) => vs(s, "large", codec).toFixed(2);
    const protobuf = SETUPS.map((s) => vs(s, "large", "protobuf"));
    const small = SETUPS.flatMap((s) => TABLE_CODECS.filter((c) => c !== "json").map((c) => vs(s, "small", c)));
    says(
      `On the large message custom-binary costs ${at("two", "custom-binary")}x JSON's CPU per delivery on two processes (${cpu(row("two", "large", "custom-binary")).toFixed(2)} against ${cpu(row("two", "large", "json")).toFixed(2)} µs), ${at("redis", "custom-binary")}x on one through Redis and ${at("alone", "custom-binary")}x alone, and protobuf ${lo(protobuf).toFixed(2)}-${hi(protobuf).toFixed(2)}x; on the small one the codecs sit within ${lo(small).toFixed(2)}-${hi(small).toFixed(2)}x of JSON's`,
    );
    // JSON's own place among them on the small message changes from one setup to the next.
    const place = (s: Setup) =>
      [...table(s).filter((r) => r("payload") === "small")]
        .sort((a, b) => cpu(a) - cpu(b))
        .map((r) => r("codec"))
        .indexOf("json");
    expect(new Set(SETUPS.map(place)).size).toBeGreaterThan(1);
    says("and JSON's own place among them changes from one setup to the next");
  });

  it("the backplane's bytes are the payload times its crossings plus the fixed part it states", () => {
    const all = (s: Setup) => runs[s].where({ mode: "fanout" });
    const fixedPart = (r: Row, crossings: number) => num(r, "backplane_bytes_per_msg") - crossings * num(r, "bytes");
    const two = all("two").map((r) => fixedPart(r, 3));
    const one = all("redis").map((r) => fixedPart(r, 2));
    const worked = (codec: string) => {
      const r = row("two", "large", codec);
      return `3 x ${r("bytes")} + ${fixedPart(r, 3)} = ${whole(num(r, "backplane_bytes_per_msg"))}`;
    };
    says(
      `the runs here come to 3 x the payload + ${lo(two)}-${hi(two)} bytes with two processes (JSON's large message: ${worked("json")}; custom-binary's: ${worked("custom-binary")}), and 2 x the payload + ${lo(one)}-${hi(one)} with one.`,
    );
    // On a small message the fixed part is most of it.
    for (const [s, crossings] of [
      ["two", 3],
      ["redis", 2],
    ] as const)
      for (const r of all(s).filter((x) => x("payload") === "small"))
        expect(fixedPart(r, crossings), `${s} ${r("codec")}`).toBeGreaterThan(num(r, "backplane_bytes_per_msg") / 2);
  });

  it("two processes delivered fewer messages a second than one, alone or through Redis, by the ratios it states", () => {
    const rate = (r: Row) => num(r, "msgs_per_s");
    const span = (s: Setup) => `${thousands(lo(table(s).map(rate)))}-${thousands(hi(table(s).map(rate)))}`;
    const against = (s: Setup) => table("two").map((r) => rate(r) / rate(row(s, r("payload"), r("codec"))));
    for (const s of ["alone", "redis"] as const) expect(hi(against(s)), s).toBeLessThan(1);
    says(
      `They delivered ${span("two")} messages per second against ${span("alone")} for one process alone and ${span("redis")} for one through Redis (the codecs in the table): ${lo(against("alone")).toFixed(2)}-${hi(against("alone")).toFixed(2)}x of one process alone, ${lo(against("redis")).toFixed(2)}-${hi(against("redis")).toFixed(2)}x of one through Redis`,
    );
  });
});
