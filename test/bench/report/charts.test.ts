/** The bytes chart shows compressed sizes beside the bytes when a run measured them, from a codec-mode row. */
import { describe, expect, it } from "vitest";
import { chartSpecs } from "../../../bench/report/charts.ts";
import type { ChartRow } from "../../../bench/report/rows.ts";

const row = (codec: string, mode: string, bytes: number, stream = NaN): ChartRow =>
  ({ source: "bun 1.4.4", mode, codec, payload: "small", standard: true, bytes, deflateBytes: stream + 2, deflateContextBytes: stream, zstdBytes: stream + 7, flags: [] }) as unknown as ChartRow;

describe("bytes chart", () => {
  it("adds deflate alone, in a stream and zstd per codec when the rows carry them", () => {
    // The socket row comes first for json; the codec-mode row with compressed sizes is the one charted.
    const specs = chartSpecs([row("json", "roundtrip", 33), row("json", "codec", 33, 20), row("custom-binary", "codec", 15, 17)]);
    const bytes = specs.find((s) => s.id === "bytes-small")!;
    expect(bytes.config.data.labels).toEqual(["json", "custom-binary"]);
    expect(bytes.config.data.datasets.map((d) => [d.label, d.data])).toEqual([
      ["bytes", [33, 15]],
      ["deflate alone", [22, 19]],
      ["deflate in a stream", [20, 17]],
      ["zstd", [27, 24]],
    ]);
  });

  it("shows the bytes alone without them", () => {
    const bytes = chartSpecs([row("json", "codec", 33), row("msgpack", "codec", 24)]).find((s) => s.id === "bytes-small")!;
    expect(bytes.config.data.datasets.map((d) => d.label)).toEqual(["bytes"]);
    expect(bytes.title).toBe("small: bytes per message");
  });
});
