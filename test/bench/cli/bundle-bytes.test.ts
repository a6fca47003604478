/** What each codec's code adds to a page, counted by bundling a page that imports it against one that imports json. */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pageBytes } from "../../../bench/cli/bundle-bytes.ts";

const dir = mkdtempSync(path.join(tmpdir(), "bundle-bytes-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("pageBytes", () => {
  it("counts nothing for json, a library's bytes for the others, fewer gzipped, and a codec module's own", async () => {
    const file = path.join(dir, "padded.ts");
    // A codec module whose code holds 20,000 bytes that do not compress away.
    const noise = Array.from({ length: 2000 }, (_, i) => ((i * 7919) % 9973).toString(36)).join("");
    writeFileSync(
      file,
      `export default { name: "padded", description: ${JSON.stringify(noise)}, frame: "text", standard: false, library: "", forPayload: () => ({ encode: (m) => JSON.stringify(m), decode: (d) => JSON.parse(d) }) };\n`,
    );
    const bytes = await pageBytes(
      ["json", "msgpackr", "protobuf", "padded", "no-such-codec"],
      [{ file, name: "padded" }],
    );
    expect(bytes.get("json")).toEqual({ bytes: 0, gzipBytes: 0 });
    for (const codec of ["msgpackr", "protobuf"]) {
      const b = bytes.get(codec) as { bytes: number; gzipBytes: number };
      expect(b.bytes, codec).toBeGreaterThan(10_000);
      expect(b.gzipBytes, codec).toBeGreaterThan(1_000);
      expect(b.gzipBytes, codec).toBeLessThan(b.bytes);
    }
    const padded = bytes.get("padded") as { bytes: number };
    expect(padded.bytes).toBeGreaterThanOrEqual(noise.length - 500);
    expect(bytes.has("no-such-codec")).toBe(false);
  });

  it("says why where the page cannot be bundled, and counts the others", async () => {
    const file = path.join(dir, "broken.ts");
    writeFileSync(file, `import missing from "./nowhere.ts";\nexport default missing;\n`);
    const bytes = await pageBytes(["broken", "msgpack"], [{ file, name: "broken" }]);
    expect(bytes.get("broken")).toEqual({ error: expect.stringMatching(/nowhere/) });
    expect((bytes.get("msgpack") as { bytes: number }).bytes).toBeGreaterThan(0);
  });
});
