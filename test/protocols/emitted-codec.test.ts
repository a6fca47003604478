/**
 * The module `--emit-codec` writes (protocols/emitted-codec.ts): imported as a user would
 * import it, from a folder of its own with custom-binary/'s files copied beside it, it is a
 * codec (the registry's checks pass), gives the same bytes as the layout the benchmark timed,
 * reads them back, and says in its header what it assumes.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inferLayout } from "../../custom-binary/infer.ts";
import { inferredCodec } from "../../custom-binary/inferred-codec.ts";
import type { Codec } from "../../protocols/codec.ts";
import { emittedCodecName, emittedModule, RUNTIME_FILES } from "../../protocols/emitted-codec.ts";
import { codecShapeError } from "../../protocols/registry.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const tmp = mkdtempSync(path.join(tmpdir(), "emitted-codec-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const messages = Array.from({ length: 30 }, (_, i) =>
  i % 3 === 0
    ? { kind: "quote", symbol: ["AAPL", "MSFT"][i % 2], bid: 100.25 + i, size: i * 10 }
    : { kind: "trade", symbol: ["AAPL", "MSFT"][i % 2], price: 100.5 + i / 3, qty: i, venue: i % 5 ? "X" : null },
);

describe("an emitted codec module", () => {
  it("is a codec a user imports from its own folder, with the same bytes as the layout the benchmark timed", async () => {
    const layout = inferLayout(messages);
    mkdirSync(path.join(tmp, "custom-binary"));
    for (const f of RUNTIME_FILES)
      copyFileSync(path.join(ROOT, "custom-binary", f), path.join(tmp, "custom-binary", f));
    const file = path.join(tmp, `${emittedCodecName("ticks")}.ts`);
    writeFileSync(file, emittedModule(layout, { payload: "ticks", file: "ticks.json", messages: messages.length }));
    const codec = (await import(file)).default as Codec;
    expect(codecShapeError(codec)).toBeUndefined();
    expect(codec.name).toBe("ticks-binary");
    expect(codec.notApplicable?.("ticks")).toBeUndefined();
    expect(codec.notApplicable?.("small")).toBe("a layout of ticks's messages only");
    const pair = codec.forPayload("ticks");
    const timed = inferredCodec(layout, "ticks");
    for (const m of messages) {
      const bytes = pair.encode(m) as Uint8Array;
      expect([...bytes]).toEqual([...timed.encode(m)]);
      expect(JSON.stringify(pair.decode(bytes))).toBe(JSON.stringify(m));
    }
    expect(() => pair.encode({ kind: "quote", symbol: "AAPL", bid: 1, size: -1 })).toThrow(/'\{kind="quote"\}\.size'/);
  });

  it("lists in its header what the layout holds at each place", () => {
    const text = emittedModule(inferLayout(messages), { payload: "ticks", file: "ticks.json", messages: 30 });
    expect(text).toContain(
      ' * ticks-binary: a custom-binary layout for "ticks", inferred from 30 messages of ticks.json',
    );
    expect(text).toContain(' *   kind: one of "quote", "trade", each kind with its own fields');
    expect(text).toContain(
      ' *   {kind="trade"}.venue: a string (1 known value, written as an index; any other written out); or null',
    );
    expect(text).toContain(' *   {kind="quote"}.size: an integer 0..2^53-1');
  });
});
