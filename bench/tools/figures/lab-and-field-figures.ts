/**
 * docs/lab-and-field.md's figures: the three default runs (lab against field,
 * results/sample/epyc-default-{1,2,3}.json.gz), the calibrated run (epyc-calibrate.json.gz), the
 * committed cross-check (crosscheck-epyc-default-1.txt, against epyc-default-1.json.gz), the roundtrip
 * runs with and without --deflate (epyc-roundtrip-{plain,deflate}.json.gz) and the every-codec run's
 * compressed sizes (epyc-every-codec.json.gz).
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, range, whole } from "./prose.ts";
import { type CrosscheckRow, caseIn, casesIn, crosscheckRows, sampleResults, sampleText } from "./sample-files.ts";

const DEFAULT_RUNS = ["epyc-default-1.json.gz", "epyc-default-2.json.gz", "epyc-default-3.json.gz"];
const CALIBRATED = "epyc-calibrate.json.gz";
const CHECKED = "epyc-default-1.json.gz";
const CROSSCHECK = "crosscheck-epyc-default-1.txt";
const PLAIN = "epyc-roundtrip-plain.json.gz";
const DEFLATE = "epyc-roundtrip-deflate.json.gz";
const EVERY = "epyc-every-codec.json.gz";

type Payload = CaseResult["payload"];
const ARTICLE = ["small", "medium", "large"] as const;

// Lab against field: per message, the field figure over the lab echo, each codec of each default run.
type Departure = { x: number; codec: string; payload: string };
function departures(mode: "stream" | "roundtrip"): Departure[] {
  return DEFAULT_RUNS.flatMap((file) =>
    casesIn(file, { mode: "codec" })
      .filter((lab) => lab.codec !== "raw")
      .map((lab) => ({
        x: caseIn(file, { mode, payload: lab.payload, codec: lab.codec }).ratios!.field!.value / lab.echo!.median,
        codec: lab.codec,
        payload: lab.payload,
      })),
  );
}
const departureRange = (mode: "stream" | "roundtrip"): string =>
  `${range(
    departures(mode).map((d) => d.x),
    fixed(1),
  )}x`;

/** A socket mode's one figure of its cases in the default run: throws when its cases differ. */
function oneOf(mode: "stream" | "roundtrip", figure: (c: CaseResult) => number): number {
  const values = new Set(casesIn(CHECKED, { mode }).map(figure));
  if (values.size !== 1) throw new Error(`results/sample/${CHECKED}: ${values.size} values in ${mode} mode`);
  return [...values][0]!;
}
const calibration = () => sampleResults(CALIBRATED).calibration ?? [];

// The cross-check.
const rows = (): CrosscheckRow[] => crosscheckRows(CROSSCHECK);
const differing = (): CrosscheckRow[] => rows().filter((r) => r.differs);
/** Pairs of codecs of a payload that changed places in the plain loop, the cheaper in codec mode first. */
function swaps(): { payload: string; pair: string; apart: number }[] {
  return ARTICLE.flatMap((p) => {
    const of = rows()
      .filter((r) => r.payload === p)
      .sort((a, b) => a.codecMode - b.codecMode);
    return of.flatMap((a, i) =>
      of
        .slice(i + 1)
        .filter((b) => a.plain > b.plain)
        .map((b) => ({ payload: p, pair: `${a.codec} and ${b.codec}`, apart: b.codecMode / a.codecMode })),
    );
  });
}
/** Where codec mode and the plain loop disagree most. */
const mostApart = (): CrosscheckRow => rows().reduce((a, b) => (Math.abs(b.diffPct) > Math.abs(a.diffPct) ? b : a));

// Compression.
/** A case of a roundtrip run, by payload and codec. */
const roundtrip = (file: string, payload: string, codec: string): CaseResult =>
  caseIn(file, { mode: "roundtrip", payload: payload as Payload, codec });
/** A reply's bytes on the wire, whole. */
const reply = (file: string, payload: string, codec: string): number =>
  Math.round(roundtrip(file, payload, codec).socket!.replyWireBytes!);
const replyFigure = (file: string, payload: string, codec: string) => () => `${reply(file, payload, codec)} B`;
const roundtripCodecs = (): string[] => [...new Set(casesIn(DEFLATE, { mode: "roundtrip" }).map((c) => c.codec))];
/** The mean round trip of JSON on a payload, µs, without and with --deflate. */
const jsonRoundTrips = (payload: string): string =>
  [PLAIN, DEFLATE].map((f) => (roundtrip(f, payload, "json").total.mean / 1000).toFixed(1)).join(" to ");

/** The every-codec run's case of a payload and codec. */
const lab = (payload: string, codec: string): CaseResult =>
  caseIn(EVERY, { mode: "codec", payload: payload as Payload, codec });
type Size = "bytes" | "deflateBytes" | "deflateContextBytes" | "zstdBytes";
const exactSize = (c: CaseResult, size: Size): number => (size === "bytes" ? c.bytes : c.compression![size]);
/** A size, in whole bytes, as the table gives it. */
const size = (payload: string, codec: string, s: Size): number => Math.round(exactSize(lab(payload, codec), s));
/** The four codecs of the table, in its order, and the formats the prose names them by. */
const FOUR = ["custom-binary", "protobuf", "msgpackr", "json"];
const FORMAT: Record<string, string> = {
  json: "JSON",
  msgpackr: "MessagePack",
  protobuf: "Protobuf",
  "custom-binary": "custom-binary",
};
const TABLE_PAYLOADS = ["small", "medium", "large", "chat", "game-tick", "market"];
/** The WebSocket header of a reply of this size from the server (unmasked, 16-bit length). */
const REPLY_HEADER = 4;

export const LAB_AND_FIELD: PageFigures = {
  page: "docs/lab-and-field.md",
  figures: {
    "field-stream": () => departureRange("stream"),
    "field-roundtrip": () => departureRange("roundtrip"),
    "field-most-least": () => {
      // Where the field departs from the lab echo most and least, over both modes and the three runs.
      const all = [...departures("stream"), ...departures("roundtrip")].sort((a, b) => a.x - b.x);
      const [least, most] = [all[0]!, all.at(-1)!];
      return `most for ${most.codec} on the ${most.payload} message, least for ${least.codec} on the ${least.payload} one`;
    },
    "cal-known": () =>
      `${range(
        calibration().map((c) => c.known.value),
        (ns) => (ns / 1000).toFixed(1),
      )} µs`,
    "cal-proven": () =>
      claim(
        calibration().length > 0 &&
          calibration().every((c) =>
            [c.knownByTimers, c.twinByTimers].every((s) => s !== undefined && Math.abs(s.value - 1) <= 0.1),
          ),
        "The field figure is proven on a known cost.",
        "the field figure finding the known cost and cal-json equal to json, within 10%, in every calibrated case",
      ),
    "cal-cpu-known": () =>
      range(
        calibration().map((c) => c.knownByCpu!.value),
        fixed(2),
      ),
    "cal-cpu-json": () =>
      range(
        calibration().map((c) => c.twinByCpu!.value),
        fixed(2),
      ),
    processes: () => {
      const m = /median of (\d+) processes/.exec(sampleText(CROSSCHECK));
      if (!m) throw new Error(`results/sample/${CROSSCHECK} has no "median of N processes"`);
      return m[1]!;
    },
    "checked-run": () => {
      const run = sampleResults(CHECKED);
      const cpu = run.environment.cpu;
      return claim(
        sampleText(CROSSCHECK).split("\n")[0]!.includes(`codec mode (${cpu})`),
        `${run.timestamp.slice(0, 10)}, ${cpu}`,
        `the cross-check's codec mode measured on ${cpu}, the machine of ${CHECKED}`,
      );
    },
    agreed: () => `${rows().length - differing().length} of ${rows().length}`,
    explained: () => {
      const explained = differing().filter((r) => r.explains).length;
      return claim(
        sampleText(CROSSCHECK).includes(`the field explains ${explained} of them`),
        `${explained} of the ${differing().length}`,
        `the cross-check's own count of what the field explains (${explained})`,
      );
    },
    "explained-which": () => {
      const explained = rows().filter((r) => r.explains);
      return [...new Set(explained.map((r) => r.payload))]
        .map(
          (p) =>
            `${p} ${explained
              .filter((r) => r.payload === p)
              .map((r) => r.codec)
              .join(" and ")}`,
        )
        .join(", ");
    },
    unexplained: () => {
      // Of the disagreements the field does not explain, the one the plain loop moved furthest.
      const unexplained = differing().filter((r) => !r.explains);
      if (unexplained.length === 0)
        throw new Error(`results/sample/${CROSSCHECK}: no disagreement the field leaves unexplained`);
      const m = unexplained.reduce((a, b) =>
        Math.abs(Math.log(b.plain / b.codecMode)) > Math.abs(Math.log(a.plain / a.codecMode)) ? b : a,
      );
      return `${m.codec} on the ${m.payload} message: ${(m.plain / m.codecMode).toFixed(2)}x codec mode's ratio in the plain loop, ${range([m.fieldRt / m.codecMode, m.fieldStream / m.codecMode], fixed(1))}x in the server`;
    },
    "most-apart": () => {
      const m = mostApart();
      const [low, high] = [m.codecMode, m.plain].sort((a, b) => a - b);
      const two = fixed(2);
      return claim(
        ["protobuf", "msgpack"].includes(m.codec) && [m.fieldRt, m.fieldStream].every((f) => f >= low! && f <= high!),
        `${m.codec} on the ${m.payload} message: ${two(m.codecMode)} in codec mode, ${two(m.plain)} in the plain loop, ${two(m.fieldRt)} and ${two(m.fieldStream)} in the server, between the two`,
        "the plain loop departing most from codec mode for an allocation-heavy codec, with the server's figures between the two",
      );
    },
    apart: () =>
      `${range(
        rows().map((r) => r.apart),
        fixed(2),
      )}x`,
    "third-apart": () =>
      claim(
        swaps().every((s) => s.apart <= 4 / 3),
        "no two codecs whose ratios in codec mode were more than a third apart changed places in the plain loop",
        "every pair of codecs that changed places in the plain loop within a third of each other in codec mode",
      ),
    swapped: () => {
      const found = swaps();
      const payloads = [...new Set(found.map((s) => s.payload))];
      return claim(
        found.length > 0,
        payloads
          .map(
            (p) =>
              `${found
                .filter((s) => s.payload === p)
                .map((s) => s.pair)
                .join(", ")} on the ${p} message`,
          )
          .join("; "),
        "codecs closer than a third apart changing places in the plain loop",
      );
    },
    slices: () => {
      const rounds = oneOf("stream", (c) => c.rounds);
      return claim(
        rounds === oneOf("roundtrip", (c) => c.rounds),
        String(rounds),
        "stream and roundtrip mode cut into the same number of slices",
      );
    },
    "slice-stream": () => String(oneOf("stream", (c) => c.socket!.slice)),
    "slice-roundtrip": () => String(oneOf("roundtrip", (c) => c.socket!.slice)),
    "client-uncompressed": () =>
      claim(
        casesIn(DEFLATE, { mode: "roundtrip" }).every((c) => c.socket!.compressedShare === 0),
        "sent nothing compressed",
        "Bun's client sending no compressed frame (a compressed share of 0 on every case of the --deflate run)",
      ),
    "reply-large-json": replyFigure(DEFLATE, "large", "json"),
    "plain-large-json": replyFigure(PLAIN, "large", "json"),
    "reply-medium-json": replyFigure(DEFLATE, "medium", "json"),
    "plain-medium-json": replyFigure(PLAIN, "medium", "json"),
    "reply-large-msgpackr": replyFigure(DEFLATE, "large", "msgpackr"),
    "plain-large-msgpackr": replyFigure(PLAIN, "large", "msgpackr"),
    "reply-larger": () =>
      claim(
        roundtripCodecs().every((c) => reply(DEFLATE, "small", c) > reply(PLAIN, "small", c)) &&
          ARTICLE.every((p) => reply(DEFLATE, p, "custom-binary") > reply(PLAIN, p, "custom-binary")),
        "larger than uncompressed for small messages and for custom-binary",
        "compressed replies larger than uncompressed for every small message and every custom-binary one",
      ),
    "reply-small-json": () => `${reply(DEFLATE, "small", "json")} B against ${reply(PLAIN, "small", "json")} B`,
    "reply-large-custom-binary": () =>
      `${reply(DEFLATE, "large", "custom-binary")} B against ${reply(PLAIN, "large", "custom-binary")} B`,
    "deflate-slower": () =>
      `${range(
        ["small", "medium"].flatMap((p) =>
          roundtripCodecs().map((c) => roundtrip(DEFLATE, p, c).total.mean / roundtrip(PLAIN, p, c).total.mean),
        ),
        fixed(1),
      )}x`,
    "json-small-round-trip": () => `${jsonRoundTrips("small")} µs`,
    "json-medium-round-trip": () => `${jsonRoundTrips("medium")} µs`,
    "sizes-table": () => {
      const row = (cells: readonly string[]) => `| ${cells.join(" | ")} |`;
      const sizes: Size[] = ["bytes", "deflateBytes", "deflateContextBytes", "zstdBytes"];
      return [
        row(["payload", "codec", "bytes", "deflate", "in stream", "zstd"]),
        row(["---", "---", "---", "---", "---", "---"]),
        ...TABLE_PAYLOADS.flatMap((p) => FOUR.map((c) => row([p, c, ...sizes.map((s) => whole(size(p, c, s)))]))),
      ].join("\n");
    },
    "chat-json-stream": () => `${size("chat", "json", "bytes")} to ${size("chat", "json", "deflateContextBytes")}`,
    "tick-json-stream": () =>
      `${(size("game-tick", "json", "deflateContextBytes") / size("game-tick", "custom-binary", "deflateContextBytes")).toFixed(1)}x`,
    "small-medium-grow": () =>
      claim(
        ["small", "medium"].every((p) =>
          FOUR.every(
            (c) => size(p, c, "deflateBytes") >= size(p, c, "bytes") && size(p, c, "zstdBytes") >= size(p, c, "bytes"),
          ),
        ),
        "a small or medium message gains nothing or grows",
        "no small or medium message of the four codecs smaller compressed on its own, by deflate or zstd",
      ),
    "shrink-alone": () =>
      ARTICLE.map((p) => ({ p, codecs: FOUR.filter((c) => size(p, c, "deflateBytes") < size(p, c, "bytes")) }))
        .filter((s) => s.codecs.length > 0)
        .map(({ p, codecs }) => `${p} ${list(codecs.map((c) => FORMAT[c]!).sort())}`)
        .join(" and the "),
    "shrink-large-json": () => `${size("large", "json", "bytes")} to ${size("large", "json", "deflateBytes")}`,
    "small-stream-within": () => {
      const small = FOUR.map((c) => size("small", c, "deflateContextBytes"));
      return String(hi(small) - lo(small));
    },
    "large-excess": () => {
      const excess = (s: Size) =>
        Math.round(exactSize(lab("large", "json"), s) - exactSize(lab("large", "custom-binary"), s));
      return `${excess("bytes")} to ${excess("deflateContextBytes")}`;
    },
    "bun-reply": replyFigure(DEFLATE, "large", "json"),
    "bun-reply-matches": () => {
      const wire = roundtrip(DEFLATE, "large", "json").socket!.replyWireBytes! - REPLY_HEADER;
      const alone = Math.abs(wire - size("large", "json", "deflateBytes"));
      const stream = Math.abs(wire - size("large", "json", "deflateContextBytes"));
      return claim(
        alone < stream,
        'match "deflate", not "in stream"',
        "Bun's compressed large JSON replies closer to deflate per message than in a stream",
      );
    },
  },
};
