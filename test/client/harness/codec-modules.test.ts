import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importCodecModule } from "../../../client/harness/codec-modules.ts";
import { catalogFor } from "../../../client/harness/plan.ts";
import { SettingError } from "../../../client/harness/harness-errors.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { socketCodecNames } from "../../../protocols/contract.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "codec-modules-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function module(name: string, source: string): string {
  const file = path.join(tmp, name);
  writeFileSync(file, source);
  return file;
}

const VALID = `export default { name: "upper-json", description: "JSON", frame: "text", standard: true, library: "",
  forPayload: () => ({ encode: (m) => JSON.stringify(m), decode: (d) => JSON.parse(d) }) };`;

describe("codec modules", () => {
  it("the example module's codec joins a plan's catalog and its socket codecs, before raw; the built-in catalog stays as it was", async () => {
    const file = path.resolve(import.meta.dirname, "../../../docs/codecs/cbor-x.ts");
    const codec = await importCodecModule(file);
    expect(codec.name).toBe("cbor-x");
    const catalog = catalogFor({ userMessages: [] }, [codec]);
    expect(catalog.names.at(-1)).toBe("cbor-x");
    expect(socketCodecNames(catalog).slice(-2)).toEqual(["cbor-x", "raw"]);
    const pc = catalog.get("cbor-x")!.forPayload("chat");
    const message = { id: 1, room: 2, user: "é", text: "👍", sentAt: 2 ** 40, reactions: [] };
    expect(pc.decode(pc.encode(message))).toEqual(message);
    expect(BUILT_IN.get("cbor-x")).toBeUndefined();
    expect(Object.isFrozen(catalog.codecs) && Object.isFrozen(BUILT_IN.codecs)).toBe(true);
  });

  it.each(["json", "raw"])(
    "a module whose codec is named %s cannot join a catalog: one line, a SettingError",
    (name) => {
      const codec = { ...BUILT_IN.get("json")!, name };
      expect(() => catalogFor({ userMessages: [] }, [codec])).toThrow(
        new SettingError(`a codec named '${name}' exists already; name yours differently`),
      );
    },
  );

  it.each([
    [
      "a module that does not compile: the place",
      "broken.ts",
      "export default {",
      /^--codec-module .*broken\.ts: cannot import it \(it does not compile at broken\.ts:1:\d+: .+\)$/,
    ],
    [
      "an import of a package not installed: the package, the file importing it",
      "needs.ts",
      'import x from "no-such-package-here/sub";\nexport default x;\n',
      /^--codec-module .*needs\.ts: cannot import it \(its import 'no-such-package-here\/sub' \(in needs\.ts\) cannot be found; install it in your project \(npm install no-such-package-here\)\)$/,
    ],
    [
      "a relative import that is missing",
      "rel.ts",
      'import y from "./gone.ts";\nexport default y;\n',
      /^--codec-module .*rel\.ts: cannot import it \(its import '\.\/gone\.ts' \(in rel\.ts\) cannot be found\)$/,
    ],
    [
      "no default export",
      "none.ts",
      "export const x = 1;",
      /^--codec-module .*none\.ts: its default export is undefined, not a codec object \(docs\/codecs\.md has the interface\)$/,
    ],
    ["a bad name", "name.ts", VALID.replace('"upper-json"', '"has space"'), /its codec needs a name: 1-40 letters/],
    [
      "a bad frame",
      "frame.ts",
      VALID.replace('"text"', '"utf8"'),
      /codec 'upper-json' needs frame: "text" or "binary"/,
    ],
    [
      "a bad keyAccess",
      "access.ts",
      VALID.replace('library: "",', 'library: "", keyAccess: "peek",'),
      /codec 'upper-json': keyAccess must be one of offset, lazy, scan, decode when given/,
    ],
    [
      "no forPayload",
      "fp.ts",
      'export default { name: "x1", description: "", frame: "text", standard: true, library: "" };',
      /codec 'x1' needs forPayload\(payload\), returning \{ encode, decode \}/,
    ],
  ])("%s: one line naming the file and the fault", async (_what, name, source, pattern) => {
    const file = module(name, source);
    const error = await importCodecModule(file, "--codec-module").then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SettingError);
    expect((error as Error).message).toMatch(pattern);
    expect((error as Error).message).not.toContain("\n");
  });
});
