/** The bytes chart shows compressed sizes beside the bytes when a run measured them, from a codec-mode case. */
import { describe, expect, it } from "vitest";
import { chartSpecs } from "../../../bench/report/charts.ts";
import type { BenchResults, CaseResult } from "../../../client/harness/results.ts";
import { summarize } from "../../../client/harness/statistics.ts";
import type { SourcedCase } from "../../../bench/report/sources.ts";

/** A case of `bytes` per message, with compressed sizes (deflate in a stream: `stream`) where codec mode measured them. */
function row(codec: string, mode: string, bytes: number, stream = NaN): SourcedCase {
  const none = summarize([]);
  const compression = Number.isFinite(stream)
    ? { deflateBytes: stream + 2, deflateContextBytes: stream, zstdBytes: stream + 7, zstdNs: 1, zstdEmptyNs: 1 }
    : undefined;
  const c = {
    mode,
    codec,
    payload: "small",
    standard: true,
    bytes,
    compression,
    flags: [],
    serialize: none,
    deserialize: none,
    total: none,
    msgsPerS: NaN,
  } as unknown as CaseResult;
  return { source: "bun 1.4.4", run: {} as BenchResults, case: c };
}

describe("bytes chart", () => {
  it("adds deflate alone, in a stream and zstd per codec when the cases carry them", () => {
    // The socket case comes first for json; the codec-mode case with compressed sizes is the one charted.
    const specs = chartSpecs([
      row("json", "roundtrip", 33),
      row("json", "codec", 33, 20),
      row("custom-binary", "codec", 15, 17),
    ]);
    const bytes = specs.find((s) => s.id === "bytes-small")!;
    expect(bytes.config.data.labels).toEqual([
      ["json", "text"],
      ["custom-binary", "schema"],
    ]);
    expect(bytes.config.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ["bytes", [33, 15]],
      ["deflate alone", [22, 19]],
      ["deflate in a stream", [20, 17]],
      ["zstd", [27, 24]],
    ]);
  });

  it("shows the bytes alone without them", () => {
    const bytes = chartSpecs([row("json", "codec", 33), row("msgpack", "codec", 24)]).find(
      (s) => s.id === "bytes-small",
    )!;
    expect(bytes.config.data.datasets.map((d) => d.label)).toEqual(["bytes"]);
    expect(bytes.title).toBe("small: bytes per message");
  });
});

describe("codecs on a chart", () => {
  it("are grouped by family (text, schema, schema-less, zero-copy, yours) and best first within each", () => {
    const rows = [
      row("flatbuffers", "codec", 60),
      row("my-codec", "codec", 10),
      row("protobuf", "codec", 20),
      row("msgpack", "codec", 24),
      row("custom-binary", "codec", 15),
      row("json", "codec", 33),
      row("msgpackr", "codec", 23),
    ];
    const bytes = chartSpecs(rows).find((s) => s.id === "bytes-small")!;
    expect(bytes.config.data.labels).toEqual([
      ["json", "text"],
      ["custom-binary", "schema"],
      ["protobuf", "schema"],
      ["msgpackr", "schemaless"],
      ["msgpack", "schemaless"],
      ["flatbuffers", "zero-copy"],
      ["my-codec", "yours"],
    ]);
    expect(bytes.config.data.datasets[0]!.data).toEqual([33, 15, 20, 23, 24, 60, 10]);
  });

  it("keep one order on every payload's chart of a kind, by their figures against each payload's best", () => {
    const stream = (codec: string, payload: string, ns: number): SourcedCase => {
      const r = row(codec, "stream", 10);
      return { ...r, case: { ...r.case, payload, total: { ...summarize([ns]), median: ns } } as CaseResult };
    };
    // msgpack is the faster of the two on small, msgpackr by more on large: msgpackr first on both.
    const specs = chartSpecs([
      stream("msgpack", "small", 100),
      stream("msgpackr", "small", 105),
      stream("msgpack", "large", 300),
      stream("msgpackr", "large", 200),
    ]);
    const labels = (id: string) => specs.find((s) => s.id === id)!.config.data.labels;
    expect(labels("stream-small")).toEqual(["msgpackr", "msgpack"]);
    expect(labels("stream-large")).toEqual(["msgpackr", "msgpack"]);
  });

  it("name no family when the chart has one", () => {
    const bytes = chartSpecs([row("msgpack", "codec", 24), row("msgpackr", "codec", 23)]).find(
      (s) => s.id === "bytes-small",
    )!;
    expect(bytes.config.data.labels).toEqual(["msgpackr", "msgpack"]);
  });
});

describe("the server's figure beside the lab's", () => {
  const ratio = (r: number) => ({ value: r, low: r * 0.9, high: r * 1.1, rounds: 10, overlap: false, wide: false });
  const withRatios = (s: SourcedCase, ratios: object, extra: object = {}): SourcedCase => ({
    ...s,
    case: { ...s.case, ratios, ...extra } as CaseResult,
  });

  it("charts each codec's field ratio (stream) and lab echo ratio (codec mode) to json's, with their intervals", () => {
    const specs = chartSpecs([
      withRatios(row("json", "codec", 33), { echoVsJson: ratio(1) }, { verified: true }),
      withRatios(
        row("mine", "codec", 20),
        { echoVsJson: ratio(0.5) },
        { verified: true, family: "schema", standard: false },
      ),
      withRatios(row("json", "stream", 33), { fieldVsJson: ratio(1) }),
      withRatios(row("mine", "stream", 20), { fieldVsJson: ratio(0.6) }, { family: "schema", standard: false }),
    ]);
    const field = specs.find((s) => s.id === "field-small")!;
    expect(field.title).toMatch(/in the server \(field, stream\) and in the lab \(echo\)/);
    // The user's codec under the family it declares, marked non-standard.
    expect(field.config.data.labels).toEqual([
      ["json", "text"],
      ["mine*", "schema"],
    ]);
    const [server, lab] = field.config.data.datasets;
    expect(server!.label).toBe("in the server (field)");
    expect(server!.data).toEqual([1, 0.6]);
    expect(lab!.label).toBe("in the lab (echo)");
    expect(lab!.data).toEqual([1, 0.5]);
    // No field figures, no chart.
    expect(chartSpecs([row("json", "stream", 33)]).some((s) => s.id === "field-small")).toBe(false);
  });
});

describe("cold chart", () => {
  it("draws each codec's first message and its means over the first 100 and 1,000 on a logarithmic axis, with their intervals", () => {
    const of = (first: number, mean100: number, mean1000: number) => ({
      import: summarize([1e6]),
      setup: summarize([1e4]),
      first: { ...summarize([first]), medianLow: first * 0.9, medianHigh: first * 1.1 },
      first100: summarize([mean100]),
      first1000: summarize([mean1000]),
    });
    const json = row("json", "cold", 33);
    const protobuf = row("protobuf", "cold", 20);
    Object.assign(json.case, { cold: of(60_000, 2_600, 1_300) });
    Object.assign(protobuf.case, { cold: of(6_000_000, 77_000, 12_000) });
    const spec = chartSpecs([json, protobuf]).find((s) => s.id === "cold-small")!;
    expect(spec.config.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ["first message", [60_000, 6_000_000]],
      ["mean of the first 100", [2_600, 77_000]],
      ["mean of the first 1,000", [1_300, 12_000]],
    ]);
    expect(spec.config.data.datasets[0]!.errorBars).toEqual([
      [54_000, 66_000],
      [5_400_000, 6_600_000],
    ]);
    expect(JSON.stringify(spec.config.options)).toContain('"type":"logarithmic"');
  });
});
