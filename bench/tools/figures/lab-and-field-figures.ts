/**
 * docs/lab-and-field.md's figures: the default runs (lab against field), the calibrated run, the cross-check,
 * the roundtrip runs with and without --deflate and the every-codec run's compressed sizes.
 */

import type { CalibrationCheck, CaseResult, Estimate } from "../../../client/harness/results.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, mdTable, range, whole } from "./prose.ts";
import { type CrosscheckRow, caseIn, casesIn, crosscheckRows, sampleResults, sampleText } from "./sample-files.ts";

const DEFAULT_RUNS = ["bun-default-1.json.gz", "bun-default-2.json.gz", "bun-default-3.json.gz"];
const CHECKED = "bun-default-1.json.gz";
const CROSSCHECK = "crosscheck-bun-default-1.txt";
const PLAIN = "bun-roundtrip-plain.json.gz";
const DEFLATE = "bun-roundtrip-deflate.json.gz";
const ARTICLE = ["small", "medium", "large"];
const [one, two] = [fixed(1), fixed(2)];
const xRange = (f: (v: number) => string) => (values: number[]) => `${range(values, f)}x`;

/** Per message, the field figure over the lab echo: each codec of each default run, in a socket mode. */
type Mode = "stream" | "roundtrip";
const departures = (mode: Mode) =>
  DEFAULT_RUNS.flatMap((file) =>
    casesIn(file, { mode: "codec" }).flatMap(({ payload, codec, echo }) => {
      const field = codec === "raw" ? undefined : caseIn(file, { mode, payload, codec }).ratios!.field!.value;
      return field === undefined ? [] : [{ x: field / echo!.median, where: `${codec} on the ${payload}` }];
    }),
  );
/** The default run's figures of a socket mode's cases, each value once. */
const seen = (mode: Mode, f: (c: CaseResult) => number) => [...new Set(casesIn(CHECKED, { mode }).map(f))];
const calibration = (): CalibrationCheck[] => sampleResults("bun-calibrate.json.gz").calibration ?? [];
const calRange = (of: (c: CalibrationCheck) => number, f = two) => range(calibration().map(of), f);

const rows = () => crosscheckRows(CROSSCHECK);
const DIFFER_HEAD = "payload|codec|codec mode|plain loop|server, roundtrip|server, stream|field explains".split("|");
const cells = (r: CrosscheckRow) => [r.payload, r.codec, ...[r.codecMode, r.plain, r.fieldRt, r.fieldStream].map(two)];
const differRow = (r: CrosscheckRow) => [...cells(r), r.explains ? "yes" : "no"];
const differing = () => rows().filter((r) => r.differs);
/** Codecs of a payload that changed places in the plain loop, the cheaper in codec mode first. */
const swaps = () =>
  rows().flatMap((a) =>
    rows()
      .filter((b) => b.payload === a.payload && b.codecMode > a.codecMode && b.plain < a.plain)
      .map((b) => [a, b] as const),
  );

/** The roundtrip runs' cases (without --deflate, then with): each one's reply on the wire and mean round trip. */
const trips = () =>
  ARTICLE.flatMap((payload) =>
    casesIn(DEFLATE, { mode: "roundtrip", payload }).map(({ codec }) => {
      const both = [PLAIN, DEFLATE].map((file) => caseIn(file, { mode: "roundtrip", payload, codec }));
      const reply = both.map((c) => Math.round(c.socket!.replyWireBytes!));
      const us = both.map((c) => c.total.mean / 1000);
      const cells = [payload, codec, ...reply.map((b) => `${b} B`), ...us.map((u) => `${one(u)} µs`)];
      return { payload, codec, reply, us, cells };
    }),
  );
const tripRow = (t: { cells: string[] }) => t.cells;
const TRIP_HEAD = "payload|codec|reply|reply, --deflate|round trip|round trip, --deflate".split("|");
/** A size in the every-codec run, and in whole bytes as the table gives it. */
type Size = "bytes" | "deflateBytes" | "deflateContextBytes" | "zstdBytes";
const exact = (payload: string, codec: string, s: Size): number => {
  const c = caseIn("bun-every-codec.json.gz", { mode: "codec", payload, codec });
  return s === "bytes" ? c.bytes : c.compression![s];
};
const size = (payload: string, codec: string, s: Size): number => Math.round(exact(payload, codec, s));
const inStream = (payload: string, codec: string): number => size(payload, codec, "deflateContextBytes");
/** The four codecs of the sizes table, in its order; the formats the prose names them by. */
const FOUR = ["custom-binary", "protobuf", "msgpackr", "json"];
const FORMAT: Record<string, string> = { protobuf: "Protobuf", msgpackr: "MessagePack", json: "JSON" };

export const LAB_AND_FIELD: PageFigures = {
  page: "docs/lab-and-field.md",
  figures: {
    "field-stream": () => xRange(one)(departures("stream").map((d) => d.x)),
    "field-roundtrip": () => xRange(one)(departures("roundtrip").map((d) => d.x)),
    "field-most-least": () => {
      const all = [...departures("stream"), ...departures("roundtrip")].sort((a, b) => a.x - b.x);
      return `most for ${all.at(-1)!.where} message, least for ${all[0]!.where} one`;
    },
    "cal-known": () => `${calRange((c) => c.known.value / 1000, one)} µs`,
    "cal-proven": () => {
      const within = (s?: Estimate) => s !== undefined && Math.abs(s.value - 1) <= 0.1;
      const proven = calibration().every((c) => within(c.knownByTimers) && within(c.twinByTimers));
      return claim(proven && calibration().length > 0, "The field figure is proven on a known cost.", "within 10%");
    },
    "cal-cpu": () =>
      `${calRange((c) => c.knownByCpu!.value)} of the known cost and \`cal-json\` ${calRange((c) => c.twinByCpu!.value)}`,
    processes: () =>
      /median of (\d+) processes/.exec(sampleText(CROSSCHECK))?.[1] ?? claim(false, "", "the cross-check's processes"),
    "checked-run": () => `${sampleResults(CHECKED).timestamp.slice(0, 10)}, ${sampleResults(CHECKED).environment.cpu}`,
    agreed: () => `${rows().length - differing().length} of ${rows().length}`,
    explained: () => `${differing().filter((r) => r.explains).length} of the ${differing().length}`,
    "differ-table": () => mdTable(DIFFER_HEAD, differing().map(differRow)),
    "most-apart": () => {
      const m = rows().reduce((a, b) => (Math.abs(b.diffPct) > Math.abs(a.diffPct) ? b : a));
      // Where the server's two figures stand against the two loops: between them, or beyond both.
      const sides = [m.fieldRt, m.fieldStream].map((f) => Math.sign((f - m.codecMode) * (f - m.plain)));
      const where = sides.every((s) => s <= 0)
        ? "the server's figures between the two"
        : sides.every((s) => s > 0)
          ? `the server's figures beyond both, on ${Math.abs(m.fieldRt - m.codecMode) < Math.abs(m.fieldRt - m.plain) ? "codec mode's" : "the plain loop's"} side`
          : "the server's two figures on either side of one loop";
      return `${m.codec} on the ${m.payload} message, ${m.diffPct > 0 ? "+" : ""}${fixed(1)(m.diffPct)}%, ${where}`;
    },
    apart: () => xRange(two)(rows().map((r) => r.apart)),
    swapped: () => {
      const pairs = swaps().map(([a, b]) => `${a.codec} and ${b.codec} on the ${a.payload} message`);
      const text = `no two codecs whose ratios in codec mode were more than a third apart changed places in the plain loop, closer ones did (${pairs.join("; ")})`;
      const close = swaps().every(([a, b]) => b.codecMode / a.codecMode <= 4 / 3);
      return claim(pairs.length > 0 && close, text, "only codecs within a third of each other swapping");
    },
    slices: () => {
      const rounds = new Set([...seen("stream", (c) => c.rounds), ...seen("roundtrip", (c) => c.rounds)]);
      const [st, rt] = (["stream", "roundtrip"] as const).map((m) => seen(m, (c) => c.socket!.slice));
      const text = `${[...rounds][0]} slices (at least four windows each: ${st} messages in stream mode, ${rt} round trips in roundtrip mode by default)`;
      return claim(rounds.size === 1 && st!.length === 1 && rt!.length === 1, text, "one slicing a mode");
    },
    "client-uncompressed": () => {
      const none = casesIn(DEFLATE, { mode: "roundtrip" }).every((c) => c.socket!.compressedShare === 0);
      return claim(none, "sent nothing compressed", "Bun's client sending no compressed frame with --deflate");
    },
    "deflate-table": () => mdTable(TRIP_HEAD, trips().map(tripRow)),
    deflate: () => {
      const dear = trips().filter((t) => t.payload === "small" || t.codec === "custom-binary");
      const grew = dear.every((t) => t.reply[1]! > t.reply[0]!);
      const saved = Math.round((1 - lo(trips().map((t) => t.reply[1]! / t.reply[0]!))) * 100);
      const slower = trips().flatMap((t) => (t.payload === "large" ? [] : [t.us[1]! / t.us[0]!]));
      const text = `larger than uncompressed for small messages and for custom-binary and at most ${saved}% smaller for the rest, and round trips took ${xRange(one)(slower)} as long on small and medium messages`;
      return claim(grew, text, "compressed replies larger exactly for small messages and custom-binary");
    },
    "sizes-table": () => {
      const sizes: Size[] = ["bytes", "deflateBytes", "deflateContextBytes", "zstdBytes"];
      const payloads = [...ARTICLE, "chat", "game-tick", "market"];
      const body = payloads.flatMap((p) => FOUR.map((c) => [p, c, ...sizes.map((s) => whole(size(p, c, s)))]));
      return mdTable(["payload", "codec", "bytes", "deflate", "in stream", "zstd"], body);
    },
    "tick-json-stream": () => `${one(inStream("game-tick", "json") / inStream("game-tick", "custom-binary"))}x`,
    alone: () => {
      const shrinks = (p: string, c: string, s: Size = "deflateBytes") => size(p, c, s) < size(p, c, "bytes");
      const grows = ["small", "medium"].every((p) => FOUR.every((c) => !shrinks(p, c) && !shrinks(p, c, "zstdBytes")));
      const large = FOUR.flatMap((c) => (shrinks("large", c) ? [FORMAT[c] ?? c] : []));
      const text = `a small or medium message gains nothing or grows (deflate's block header, zstd's frame header), and only the large ${list(large.sort())} messages shrink`;
      return claim(grows && large.length > 0, text, "small and medium messages no smaller alone, some large ones");
    },
    "in-stream": () => {
      const small = FOUR.map((c) => inStream("small", c));
      const excess = (s: Size) => Math.round(exact("large", "json", s) - exact("large", "custom-binary", s));
      return `the codecs come within ${hi(small) - lo(small)} bytes of each other on small messages and JSON's excess shrinks from ${excess("bytes")} to ${excess("deflateContextBytes")} bytes on large ones`;
    },
    "bun-reply": () => {
      const json = trips().find((t) => t.payload === "large" && t.codec === "json")!.reply[1]!;
      // The server's WebSocket header on a reply of this size: 4 bytes (unmasked, 16-bit length).
      const off = (s: Size) => Math.abs(json - 4 - size("large", "json", s));
      const text = `(${json} B on the wire with their 4-byte header, above) match "deflate", not "in stream"`;
      return claim(off("deflateBytes") < off("deflateContextBytes"), text, "Bun's replies compressed each on its own");
    },
  },
};
