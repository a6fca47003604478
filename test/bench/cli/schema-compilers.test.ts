/** The schema compilers evolve mode runs from the command line: found where installed, named with what to install where not, their own words when they refuse a schema. */

import { afterEach, describe, expect, it } from "vitest";
import { schemaCompilers } from "../../../bench/cli/schema-compilers.ts";
import { skipWithoutCompiler } from "../../helpers/compilers.ts";

const PATH = process.env.PATH;
afterEach(() => {
  process.env.PATH = PATH;
});

describe("schemaCompilers", () => {
  it("a program not on PATH is named with what installs it; the npm ones are still found", () => {
    process.env.PATH = "/nonexistent";
    const compilers = schemaCompilers();
    expect(compilers.flatbuffers).toEqual({
      missing: "flatc is not installed here (apt-get install flatbuffers-compiler)",
    });
    expect(compilers.capnp).toMatchObject({
      missing: expect.stringMatching(/^capnp-es with capnpc is not installed here \(apt-get install capnproto/),
    });
    expect(typeof compilers.bebop).toBe("function");
    expect(typeof compilers.pbf).toBe("function");
  });

  it("a schema the compiler refuses rejects with the compiler's own words, one line, no terminal colours", async () => {
    const compilers = schemaCompilers();
    for (const [codec, text] of [
      ["flatbuffers", "table E0 { x:nosuchtype; }\n"],
      ["bebop", "message E0 { 1 -> nosuchtype x; }\n"],
    ] as const) {
      if (skipWithoutCompiler("schema-compilers.test.ts", codec)) continue;
      const compile = compilers[codec];
      if (typeof compile !== "function") throw new Error(`${codec}: ${compile?.missing}`);
      const refused = compile(new Map([["e0", text]])).then(
        () => "compiled",
        (e: Error) => e.message,
      );
      const said = await refused;
      expect(said, codec).toMatch(/^(flatc|bebopc) exited \d+: .*nosuchtype/);
      expect(said).not.toMatch(/\n|\x1b/);
    }
  });
});
