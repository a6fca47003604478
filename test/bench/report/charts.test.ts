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

  it("name no family when the chart has one", () => {
    const bytes = chartSpecs([row("msgpack", "codec", 24), row("msgpackr", "codec", 23)]).find(
      (s) => s.id === "bytes-small",
    )!;
    expect(bytes.config.data.labels).toEqual(["msgpackr", "msgpack"]);
  });
});
