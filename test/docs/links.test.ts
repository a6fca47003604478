/**
 * docs/links.md quotes the committed link runs (results/sample/links/): the
 * three profiles, 4g with compression, each codec's knee over 4g and the
 * crossover sweep: its tables row by row, and what it says of those runs,
 * each worked out here from the same files.
 */
import { describe, expect, it } from "vitest";
import { resultsFromFile } from "../../bench/report/results-file.ts";
import { csvSample, doc, flat, num, type Row, sample } from "../helpers/samples.ts";
import { hi, list, lo, sayer, thousands, whole } from "../helpers/prose.ts";

const page = doc("links.md");
const text = flat(page);
/** The page says this, word for word (its lines joined); a failure names the fragment it should hold, with the file's figures in it. */
const says = sayer(text, "docs/links.md");

interface Side {
  codec: string;
  msgsPerS: number;
  wireBytes: number;
}
interface Crossover {
  payload: string;
  fast: Side;
  small: Side;
  ceilingKbps: number;
  predictedKbps: number;
  rungs: { kbps: number; fast: number; small: number }[];
  verdict: string;
}
const sweep = JSON.parse(sample("links/sweep.json")) as { crossovers: Crossover[] };

const pct = (x: number): number => Math.round(x * 100);
/** A range of percentages as the page writes them: "33-54%". */
const pcts = (v: number[]): string => `${pct(lo(v))}-${pct(hi(v))}%`;
/** A run's wall time, in seconds. */
const seconds = (file: string): number => Math.round(resultsFromFile(sample(file)).elapsedMs / 1000);

/** The share of a rung's nominal rate a codec's frames filled: msgs/s x frame bytes x 8 / rate. */
const fill = (msgsPerS: number, wireBytes: number, kbps: number): number => (msgsPerS * wireBytes * 8) / (kbps * 1000);

describe("docs/links.md", () => {
  it("with no limit set the emulator carries a few tens of thousands of messages a second, below loopback's rates", () => {
    for (const c of sweep.crossovers) {
      const carried = (c.ceilingKbps * 1000) / (8 * c.fast.wireBytes);
      expect(carried, c.payload).toBeGreaterThanOrEqual(10_000);
      expect(carried, c.payload).toBeLessThan(100_000);
      expect(carried, c.payload).toBeLessThan(Math.min(c.fast.msgsPerS, c.small.msgsPerS));
    }
    says(
      "on this machine it carries a few tens of thousands of messages a second with no limit set, well below loopback's rates",
    );
  });

  describe("the emulator's pacing, in the committed sweep", () => {
    const rungs = sweep.crossovers.flatMap((c) =>
      c.rungs.map((r) => ({
        payload: c.payload,
        kbps: r.kbps,
        fast: fill(r.fast, c.fast.wireBytes, r.kbps),
        small: fill(r.small, c.small.wireBytes, r.kbps),
      })),
    );
    const mbit = (kbps: number) => kbps / 1000;

    it("the small and medium messages and the large ones filled the shares of the link it states", () => {
      const smallMedium = rungs.filter((r) => r.payload !== "large");
      const large = (kbps: number) => rungs.filter((r) => r.payload === "large" && r.kbps === kbps);
      const largeRates = [...new Set(rungs.filter((r) => r.payload === "large").map((r) => r.kbps))].sort(
        (a, b) => b - a,
      );
      expect(largeRates).toHaveLength(2);
      const shares = (v: typeof rungs) => pcts(v.flatMap((r) => [r.fast, r.small]));
      says(
        `the small and medium messages filled ${shares(smallMedium)} of the nominal rate at ${mbit(lo(smallMedium.map((r) => r.kbps)))} to ${mbit(hi(smallMedium.map((r) => r.kbps)))} Mbit/s and the large ones ${shares(large(largeRates[0]!))} at ${mbit(largeRates[0]!)} Mbit/s and ${shares(large(largeRates[1]!))} at ${mbit(largeRates[1]!)}.`,
      );
    });

    it("the smaller frames filled less of every rung, by the points it states", () => {
      for (const r of rungs) expect(r.small, `${r.payload} ${r.kbps}`).toBeLessThan(r.fast);
      const points = rungs.map((r) => (r.fast - r.small) * 100);
      says(
        `The share differs between the two codecs of a rung by ${Math.round(lo(points))} to ${Math.round(hi(points))} points (the smaller frames fill less)`,
      );
    });
  });

  describe("the three profiles", () => {
    const links = ["wifi", "4g", "slow-4g"] as const;
    const runs = Object.fromEntries(links.map((l) => [l, csvSample(`links/${l}.csv`)])) as Record<
      (typeof links)[number],
      ReturnType<typeof csvSample>
    >;
    const all = links.flatMap((l) => runs[l].rows);

    it("the three runs were made on the machine it names", () => {
      for (const l of links) {
        const machines = [
          ...new Set(runs[l].rows.map((r) => `${r("cpu")}, ${r("cores")} cores, Bun ${r("runtime_version")}`)),
        ];
        expect(machines, `links/${l}.csv: the machines its rows were made on`).toHaveLength(1);
        const r = runs[l].rows[0]!;
        says(`project's ${r("cores")}-core machine (${r("cpu")}, Bun ${r("runtime_version")}), committed as`);
      }
    });

    it("the three runs took the times it states", () => {
      says(`They took ${seconds("links/wifi.csv")}, ${seconds("links/4g.csv")} and ${seconds("links/slow-4g.csv")} s.`);
    });

    it("a round trip is the link's: its own round trip and the bytes' time on the wire are the runs'", () => {
      const rtt = links.map((l) => {
        const values = new Set(runs[l].rows.map((r) => r("link_rtt_ms")));
        expect(values.size, l).toBe(1);
        return [...values][0]!;
      });
      const wire = all.map((r) => num(r, "link_wire_ms"));
      says(
        `the link's own round trip is ${rtt[0]}, ${rtt[1]} or ${rtt[2]} ms and the bytes add ${lo(wire).toFixed(2)} to ${hi(wire).toFixed(1)} ms`,
      );
      const large = (codec: string) => runs["slow-4g"].row({ mode: "roundtrip", payload: "large", codec });
      const more = (num(large("json"), "rtt_p50_ns") - num(large("custom-binary"), "rtt_p50_ns")) / 1e6;
      const onWire = (codec: string) => num(large(codec), "link_wire_ms");
      says(
        `on \`slow-4g\` the large message's JSON costs ${more.toFixed(1)} ms more per round trip than custom-binary's, almost all of it bytes (${onWire("json").toFixed(2)} against ${onWire("custom-binary").toFixed(2)} ms on the wire)`,
      );
      // Almost all: the bytes' difference is more than three quarters of the round trip's.
      expect(onWire("json") - onWire("custom-binary")).toBeGreaterThan(0.75 * more);
    });

    it("over 4g and slow-4g the window holds the small and medium messages, the way up the large ones, at the shares it states", () => {
      const mobile = (["4g", "slow-4g"] as const).map((l) => runs[l].where({ mode: "stream" }));
      for (const rows of mobile)
        for (const r of rows)
          expect(r("link_limit"), `${r("link")} ${r("payload")} ${r("codec")}`).toBe(
            r("payload") === "large" ? "up" : "window",
          );
      const cap = mobile.map((rows) => (num(rows[0]!, "window") * 1000) / num(rows[0]!, "link_rtt_ms"));
      const near = (x: number) => Number(x.toPrecision(1)).toLocaleString("en-US");
      const small = mobile.flatMap((rows) =>
        rows.filter((r) => r("payload") === "small").map((r) => num(r, "link_window_share")),
      );
      says(
        `a window of ${mobile[0]![0]!("window")} over the round trip caps every codec near ${near(cap[0]!)} and ${near(cap[1]!)} messages a second; the small messages all reach ${pcts(small)} of it.`,
      );
      const up = mobile.map((rows) => num(rows[0]!, "link_up_kbps"));
      const rate = (kbps: number) => (kbps >= 1000 ? `${kbps / 1000} Mbit/s` : `${kbps} kbit/s`);
      says(`The large messages fill the ${rate(up[0]!)} (\`4g\`) or ${rate(up[1]!)} (\`slow-4g\`) way up instead`);
    });

    it("over wifi every stream is held by the CPU, at the rates it states, below what the sweep's loopback runs carried", () => {
      const streams = runs.wifi.where({ mode: "stream" });
      // Held by the CPU, but for the streams the run puts at a limit of the link, named with their share of it.
      const shareOf: Record<string, string> = {
        up: "link_up_share",
        down: "link_down_share",
        window: "link_window_share",
      };
      const notCpu = streams.filter((r) => r("link_limit") !== "cpu");
      const others = notCpu.map(
        (r) =>
          `${r("codec")}'s ${r("payload")} message at \`${r("link_limit")}\`, ${pct(num(r, shareOf[r("link_limit")] ?? "link_up_share"))}% of it`,
      );
      says(
        `what holds them is the proxy's own work on the same two cores (\`cpu\`${others.length > 0 ? `; the run puts ${others.join(" and ")}` : ""})`,
      );
      const upShare = hi(streams.map((r) => num(r, "link_up_share")));
      const downShare = hi(streams.map((r) => num(r, "link_down_share")));
      const mbit = (col: string) => num(streams[0]!, col) / 1000;
      says(
        `Its ${mbit("link_up_kbps")} Mbit/s up and ${mbit("link_down_kbps")} down are more than the streams fill (at most ${pct(upShare)}% of the way up, ${pct(downShare)}% of the way down)`,
      );
      const rates = streams.map((r) => num(r, "msgs_per_s"));
      const loopback = sweep.crossovers.flatMap((c) => [c.fast.msgsPerS, c.small.msgsPerS]);
      says(
        `about ${thousands(lo(rates))} to ${thousands(hi(rates))} messages a second through it, where the sweep's loopback runs below carried ${thousands(lo(loopback))} to ${thousands(hi(loopback))}`,
      );
    });

    it("the page's table of three links is the committed link runs', row by row", () => {
      const ms = (ns: number) => `${(ns / 1e6).toFixed(2)} ms`;
      const section = page.slice(page.indexOf("| link | payload | codec | bytes | round trip p50"));
      const lines = section.split("\n").filter((l) => /^\| (wifi|4g|slow-4g) \| (small|medium|large) \|/.test(l));
      expect(lines).toHaveLength(36);
      const runs = new Map(["wifi", "4g", "slow-4g"].map((link) => [link, csvSample(`links/${link}.csv`)]));
      for (const line of lines) {
        const [link, payload, codec, ...cells] = line
          .split("|")
          .slice(1, 10)
          .map((c) => c.trim());
        const rt = runs.get(link!)!.row({ mode: "roundtrip", payload: payload!, codec: codec! });
        const st = runs.get(link!)!.row({ mode: "stream", payload: payload!, codec: codec! });
        const limit = st("link_limit");
        const share = { up: "link_up_share", down: "link_down_share", window: "link_window_share" }[limit];
        expect(cells, line).toEqual([
          rt("bytes"),
          ms(Number(rt("rtt_p50_ns"))),
          ms(Number(rt("rtt_p99_ns"))),
          `${Number(rt("link_wire_ms")).toFixed(2)} ms`,
          whole(Number(st("msgs_per_s"))),
          share ? `${limit} ${Math.round(Number(st(share)) * 100)}%` : limit,
        ]);
      }
    });

    it("what it says of the three links is what their runs say", () => {
      const load = (link: string) => {
        const run = csvSample(`links/${link}.csv`);
        return (mode: string, payload: string, codec?: string) =>
          run
            .where(codec === undefined ? { mode, payload } : { mode, payload, codec })
            .map((r) => (c: string) => num(r, c));
      };
      const links = { wifi: load("wifi"), "4g": load("4g"), "slow-4g": load("slow-4g") };
      const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
      const spread = (link: keyof typeof links, payload: string) => {
        const p50 = links[link]("roundtrip", payload).map((r) => r("rtt_p50_ns"));
        return Math.max(...p50) / Math.min(...p50) - 1;
      };
      const others = (["wifi", "4g", "slow-4g"] as const).flatMap((l) =>
        ["small", "medium", "large"].filter((p) => l !== "wifi" || p !== "large").map((p) => spread(l, p)),
      );
      expect(text).toContain(
        `differ by at most ${pct(Math.max(...others))} (${pct(spread("wifi", "large"))} on \`wifi\`'s large message`,
      );
      const rate = (link: keyof typeof links, codec: string, payload = "large") =>
        links[link]("stream", payload, codec)[0]!("msgs_per_s");
      const more = (link: keyof typeof links) =>
        `${Math.round((rate(link, "custom-binary") / rate(link, "json") - 1) * 100)}% more`;
      expect(text).toContain(
        `custom-binary carries ${more("4g")} large messages than JSON over \`4g\` (${whole(rate("4g", "custom-binary"))} against ${whole(rate("4g", "json"))} a second) and ${more("slow-4g")} over \`slow-4g\` (${whole(rate("slow-4g", "custom-binary"))} against ${whole(rate("slow-4g", "json"))})`,
      );
      const ahead = ["small", "medium", "large"].map((p) =>
        Math.round((rate("wifi", "custom-binary", p) / rate("wifi", "json", p) - 1) * 100),
      );
      expect(text).toContain(`custom-binary ${Math.min(...ahead)}-${Math.max(...ahead)}% ahead of JSON`);
    });
  });

  describe("with --deflate over 4g", () => {
    const plain = csvSample("links/4g.csv");
    const deflate = csvSample("links/4g-deflate.csv");
    const reply = (run: typeof plain, payload: string, codec: string) =>
      num(run.row({ mode: "roundtrip", payload, codec }), "reply_wire_bytes");

    it("the run took the time it states", () => {
      says(`(\`... --link 4g --deflate\`, ${seconds("links/4g-deflate.csv")} s;`);
    });

    it("the client compressed none of its frames, so the way up carried the same bytes", () => {
      for (const r of deflate.rows) {
        expect(num(r, "wire_compressed_share"), `${r("mode")} ${r("payload")} ${r("codec")}`).toBe(0);
        const same = plain.row({ mode: r("mode"), payload: r("payload"), codec: r("codec") });
        expect(r("wire_bytes"), `${r("mode")} ${r("payload")} ${r("codec")}`).toBe(same("wire_bytes"));
      }
    });

    it("compressed replies shrank only JSON's and msgpackr's large ones, and cost custom-binary and protobuf the bytes it states", () => {
      const cases = plain.where({ mode: "roundtrip" }).map((r) => [r("payload"), r("codec")] as const);
      const helped = cases.filter(([p, c]) => Math.round(reply(deflate, p, c)) < Math.round(reply(plain, p, c)));
      expect(helped.map(([p, c]) => `${p} ${c}`)).toEqual(["large json", "large msgpackr"]);
      const cost = cases
        .filter(([, c]) => c === "custom-binary" || c === "protobuf")
        .map(([p, c]) => reply(deflate, p, c) - reply(plain, p, c));
      says(
        `helped only JSON and msgpackr on the large message (${Math.round(reply(plain, "large", "json"))} to ${Math.round(reply(deflate, "large", "json"))} bytes, ${Math.round(reply(plain, "large", "msgpackr"))} to ${Math.round(reply(deflate, "large", "msgpackr"))}) and cost the binary codecs ${Math.round(lo(cost))}-${Math.round(hi(cost))} bytes a reply`,
      );
    });

    it("what it says of compression over 4g is the two 4g runs'", () => {
      const load = (name: string) => {
        const run = csvSample(`links/${name}`);
        return (mode: string, payload: string, codec: string) => {
          const r = run.row({ mode, payload, codec });
          return (c: string) => num(r, c);
        };
      };
      const plain = load("4g.csv");
      const deflate = load("4g-deflate.csv");
      const cases = ["small", "medium", "large"].flatMap((p) =>
        ["json", "custom-binary", "protobuf", "msgpackr"].map((c) => [p, c] as const),
      );
      for (const [p, c] of cases) expect(deflate("roundtrip", p, c)("wire_compressed_share"), `${p} ${c}`).toBe(0);
      const reply = (f: typeof plain, codec: string) => Math.round(f("roundtrip", "large", codec)("reply_wire_bytes"));
      expect(text).toContain(
        `(${reply(plain, "json")} to ${reply(deflate, "json")} bytes, ${reply(plain, "msgpackr")} to ${reply(deflate, "msgpackr")})`,
      );
      expect(text).toContain(
        `(${reply(plain, "custom-binary")} to ${reply(deflate, "custom-binary")} for custom-binary`,
      );
      const rt = Math.max(
        ...cases.map(([p, c]) =>
          Math.abs(deflate("roundtrip", p, c)("rtt_p50_ns") - plain("roundtrip", p, c)("rtt_p50_ns")),
        ),
      );
      const st = Math.max(
        ...cases.map(([p, c]) =>
          Math.abs(deflate("stream", p, c)("msgs_per_s") / plain("stream", p, c)("msgs_per_s") - 1),
        ),
      );
      expect(text).toContain(
        `Round trips moved by at most ${(rt / 1e6).toFixed(2)} ms and stream rates by at most ${(st * 100).toFixed(1)}%, both ways.`,
      );
    });
  });

  describe("each codec's knee over 4g", () => {
    const knees = csvSample("links/4g-knees.csv");
    const rows = knees.where({ mode: "latency" });
    const of = (payload: string, codec: string) => rows.filter((r) => r("payload") === payload && r("codec") === codec);
    const at = (payload: string, codec: string, rate: number): Row =>
      of(payload, codec).find((r) => num(r, "target_rate") === rate)!;
    const codecs = [...new Set(rows.map((r) => r("codec")))];
    const first = rows[0]!;
    const window = num(first, "window");
    const rtt = num(first, "link_rtt_ms");
    const upKbps = num(first, "link_up_kbps");
    /** What the way up lets through for a frame of this many bytes, a second. */
    const byUp = (wireBytes: number) => (upKbps * 1000) / (8 * wireBytes);

    it("the sweep took the minutes it states, and the link lets through what it states", () => {
      says(
        `A latency sweep of the four codecs (${Math.round(resultsFromFile(sample("links/4g-knees.csv")).elapsedMs / 60_000)} minutes,`,
      );
      says(
        `a window of ${window} over the round trip (${window} / ${rtt} ms, about ${whole((window * 1000) / rtt)} a second) or the way up's ${upKbps / 1000} Mbit/s`,
      );
    });

    it("on the large message the knees are the way up's arithmetic within a 20% step, and each codec sent what its bytes allow", () => {
      const large = [...codecs].sort(
        (a, b) => num(of("large", a)[0]!, "wire_bytes") - num(of("large", b)[0]!, "wire_bytes"),
      );
      for (const c of large) {
        const r = of("large", c)[0]!;
        expect(Math.abs(num(r, "knee_rate") / byUp(num(r, "wire_bytes")) - 1), c).toBeLessThan(0.2);
      }
      const sent = large.map((c) => num(at("large", c, 1000), "achieved_rate"));
      const allowed = large.map((c) => byUp(num(of("large", c)[0]!, "wire_bytes")));
      // The smallest frame takes the most messages.
      expect([...sent].sort((a, b) => b - a)).toEqual(sent);
      says(
        `each codec sent what its bytes allow (${list(sent.map(whole))} a second against ${list(allowed.map(whole))})`,
      );
    });

    it("on the small and medium messages every codec stops at the rung below 1,000, where the window is nearly full", () => {
      const knee = [...new Set(rows.filter((r) => r("payload") !== "large").map((r) => r("knee_rate")))];
      expect(knee).toHaveLength(1);
      const rates = [...new Set(rows.map((r) => num(r, "target_rate")))].sort((a, b) => a - b);
      expect(rates[rates.indexOf(1000) - 1]).toBe(Number(knee[0]));
      says(`every codec stops at the window, at ${whole(Number(knee[0]))} a second, the rung below 1,000`);
      const latencies = codecs.map((c) => num(at("small", c, 1000), "latency_p50_ns")).sort((a, b) => a - b);
      const median = (latencies[1]! + latencies[2]!) / 2;
      expect(latencies).toHaveLength(4);
      says(`at 1,000 a second about ${Math.round((1000 * median) / 1e9)} of the ${window} allowed are in flight`);
      // custom-binary's frames are the shortest on the wire, and even they left more than 5% late.
      const smallest = [...codecs].sort(
        (a, b) => num(of("small", a)[0]!, "wire_bytes") - num(of("small", b)[0]!, "wire_bytes"),
      )[0];
      expect(smallest).toBe("custom-binary");
      const cb = at("small", "custom-binary", 1000);
      expect(num(cb, "late_sends") / num(cb, "sent")).toBeGreaterThan(0.05);
    });

    it("below the knee the codecs' latencies are as close as it states, and JSON's large message falls behind at 500", () => {
      const spread = (payloads: string[], rate: number) =>
        payloads.map((p) => {
          const v = codecs.map((c) => num(at(p, c, rate), "latency_p50_ns"));
          return hi(v) / lo(v) - 1;
        });
      const all = [100, 200].flatMap((rate) => spread(["small", "medium", "large"], rate));
      const smallMedium = [100, 200].flatMap((rate) => spread(["small", "medium"], rate));
      const share = (x: number) => `${(x * 100).toFixed(1)}%`;
      const behind = codecs
        .filter((c) => c !== "json")
        .map((c) => num(at("large", "json", 500), "latency_p50_ns") / num(at("large", c, 500), "latency_p50_ns") - 1);
      says(
        `the codecs' latencies (the median over every message) are within ${share(hi(all))} of each other at 100 and 200 a second (${share(hi(smallMedium))} on the small and medium messages); at 500 JSON's large message is ${pcts(behind)} behind the others'`,
      );
      // At 500 a second JSON's large frames fill at least 90% of the way up.
      expect(500 / byUp(num(at("large", "json", 500), "wire_bytes"))).toBeGreaterThan(0.9);
      says("behind the others', its frames then filling the way up");
    });

    it("the page's table of each codec's knee over 4g is the committed sweep's, and what it says of it", () => {
      const section = page.slice(page.indexOf("| payload | codec | frame bytes up |"));
      const lines = section.split("\n").filter((l) => /^\| (small|medium|large) \|/.test(l));
      expect(lines.length).toBeGreaterThanOrEqual(12);
      for (const line of lines.slice(0, 12)) {
        const [payload, codec, ...cells] = line
          .split("|")
          .slice(1, 7)
          .map((c) => c.trim());
        const first = of(payload!, codec!)[0]!;
        const byWindow = (num(first, "window") * 1000) / num(first, "link_rtt_ms");
        const byUp = (num(first, "link_up_kbps") * 1000) / (8 * num(first, "wire_bytes"));
        expect(cells, line).toEqual([
          String(num(first, "wire_bytes")),
          byWindow <= byUp ? `${whole(byWindow)} (window)` : `${whole(byUp)} (up)`,
          whole(num(first, "knee_rate")),
          whole(num(at(payload!, codec!, 1000), "achieved_rate")),
        ]);
      }
      const sent = (codec: string) => num(at("large", codec, 1000), "achieved_rate");
      expect(text).toContain(`custom-binary keeps ${(sent("custom-binary") / sent("json")).toFixed(2)}x JSON's rate`);
      const knee = num(of("large", "custom-binary")[0]!, "knee_rate");
      const ms = (r: Row) => Math.round(num(r, "latency_p50_ns") / 1e6);
      const json = at("large", "json", knee);
      expect(text).toContain(
        `Its median latency at ${knee} a second was ${ms(at("large", "custom-binary", knee))} ms (the link's 60 plus ${ms(at("large", "custom-binary", knee)) - 60}); JSON's, asked the same, ${ms(json)} ms, with ${whole(num(json, "late_sends"))} of ${whole(num(json, "sent"))} sends late`,
      );
      const small = (codec: string) => at("small", codec, 1000);
      expect(text).toContain(
        `left ${num(small("custom-binary"), "late_sends")} of ${whole(num(small("custom-binary"), "sent"))} sends late (JSON ${num(small("json"), "late_sends")})`,
      );
    });
  });

  describe("the crossover sweep", () => {
    const c = sweep.crossovers;
    /** A codec as the page names it in prose. */
    const named = (codec: string): string => (codec === "json" ? "JSON" : codec);
    // The codec the sweep found fastest (smallest) on loopback: one name when it is the same on
    // every payload, else each payload's.
    const who = (side: (x: Crossover) => Side): string => {
      const codecs = [...new Set(c.map((x) => side(x).codec))];
      return codecs.length === 1 ? named(codecs[0]!) : list(c.map((x) => `${named(side(x).codec)} on ${x.payload}`));
    };
    const [fastest, smallest] = [who((x) => x.fast), who((x) => x.small)];

    it("JSON is the fastest on loopback and protobuf the smallest on every payload, their rates within the stated percentages", () => {
      expect(c.map((x) => x.payload)).toEqual(["small", "medium", "large"]);
      for (const x of c) {
        expect(
          x.fast.msgsPerS,
          `${x.payload}: ${x.fast.codec}'s loopback rate against ${x.small.codec}'s`,
        ).toBeGreaterThanOrEqual(x.small.msgsPerS);
        expect(
          x.small.wireBytes,
          `${x.payload}: ${x.small.codec}'s frame against ${x.fast.codec}'s`,
        ).toBeLessThanOrEqual(x.fast.wireBytes);
      }
      const apart = c.map((x) => x.fast.msgsPerS / x.small.msgsPerS - 1);
      says(
        `${fastest} is the fastest of the three on loopback and ${smallest} the smallest on every payload, but ` +
          `their loopback rates are within ${pcts(apart)} of each other`,
      );
    });

    it("the predicted crossovers, what the emulator carries, and what protobuf gained are the sweep's", () => {
      const mbit = (kbps: number) => Math.round(kbps / 1000);
      const predicted = c.map((x) => x.predictedKbps);
      const ceiling = c.map((x) => x.ceilingKbps);
      says(`the arithmetic puts the crossover high: ${mbit(lo(predicted))} to ${mbit(hi(predicted))} Mbit/s`);
      says(`(it carries ${mbit(lo(ceiling))}-${mbit(hi(ceiling))} Mbit/s of ${fastest}'s frames)`);
      // Every rung is below what the emulator carries, and protobuf won every one.
      const gains = c.flatMap((x) =>
        x.rungs.map((r) => {
          expect(r.kbps, x.payload).toBeLessThan(x.ceilingKbps);
          return r.small / r.fast - 1;
        }),
      );
      for (const g of gains) expect(g, `${smallest}'s gain over ${fastest} on a rung`).toBeGreaterThan(0);
      const bytes = c.map((x) => x.fast.wireBytes / x.small.wireBytes - 1);
      says(
        `on every link it can carry, ${smallest} streams ${pcts(gains)} more messages than ${fastest}, against the ${pcts(bytes)} more its bytes alone would give`,
      );
    });

    it("the page's crossover table is the committed link sweep's", () => {
      const mbit = (kbps: number) =>
        `${kbps >= 100_000 ? Math.round(kbps / 1000) : Number((kbps / 1000).toPrecision(3))} Mbit/s`;
      const side = (c: Side) => `${c.codec} ${whole(c.msgsPerS)} msgs/s, ${c.wireBytes} B`;
      const section = page.slice(page.indexOf("| payload | fast on loopback |"));
      expect(sweep.crossovers).toHaveLength(3);
      for (const c of sweep.crossovers) {
        const rungs = c.rungs.map((r) => `${mbit(r.kbps)}: ${whole(r.fast)} / ${whole(r.small)}`).join("; ");
        expect(section).toContain(
          `| ${c.payload} | ${side(c.fast)} | ${side(c.small)} | ${mbit(c.ceilingKbps)} | ${rungs} | ${mbit(c.predictedKbps)} | ${c.verdict.replace(/^\w+: /, "")} |`,
        );
      }
    });
  });
});
