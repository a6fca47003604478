/**
 * The schema compilers evolve mode runs from the command line
 * (protocols/compiled-versions.ts): for each codec whose code is generated
 * from a schema, its own compiler turns the schemas of every version of
 * the run into code, in a scratch folder, which this process then imports.
 * The same programs make the committed code of the built-in payloads
 * (bench/tools/codegen/): pbf's compile(), buf (protobuf-es: a
 * FileDescriptorSet, which @bufbuild/protobuf reads at run time, as its
 * generated code embeds one), bebopc, flatc (with the object API) and
 * capnp-es (which runs Debian's capnpc).
 *
 * A program that is not installed gives the line a user needs to install
 * it; nothing is downloaded.
 */

import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { CompiledCodec, SchemaCompiler, SchemaCompilers } from "../../protocols/compiled-versions.ts";
import { bebopcPath, capnpEsPath, inNodeModules, onPath, runAsync } from "./programs.ts";

/** The packages generated code imports by name, which a scratch folder outside the project cannot resolve. */
const RUNTIMES = ["bebop", "flatbuffers", "capnp-es"];
const RUNTIME_IMPORT = new RegExp(`from (["'])(${RUNTIMES.join("|")})\\1`, "g");

/** Every .ts file under `dir` made to import the runtime packages from where this process has them. */
function pointImportsHome(dir: string): void {
  const where = new Map(RUNTIMES.map((p) => [p, import.meta.resolve(p)]));
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith(".ts")) continue;
    const file = path.join(e.parentPath, e.name);
    const text = readFileSync(file, "utf8").replace(
      RUNTIME_IMPORT,
      (_, _q: string, p: string) => `from ${JSON.stringify(where.get(p))}`,
    );
    writeFileSync(file, text);
  }
}

/** `make` in a scratch folder holding the files (as `<name><ext>`), removed after. */
async function inScratch<T>(
  files: ReadonlyMap<string, string>,
  ext: string,
  make: (dir: string, names: string[]) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), "evolve-schemas-"));
  try {
    const names = [...files.keys()].map((f) => `${f}${ext}`);
    for (const [f, text] of files) writeFileSync(path.join(dir, `${f}${ext}`), text);
    return await make(dir, names);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const importFile = async (file: string): Promise<Record<string, unknown>> =>
  (await import(pathToFileURL(file).href)) as Record<string, unknown>;

/** Each schema file's generated module, at the path `at` gives for its name. */
async function importEach(
  files: ReadonlyMap<string, string>,
  at: (file: string) => string,
): Promise<Map<string, Record<string, unknown>>> {
  const modules = new Map<string, Record<string, unknown>>();
  for (const f of files.keys()) modules.set(f, await importFile(at(f)));
  return modules;
}

/** One compiler, or the line that says what to install. */
function needs(program: string | undefined, tool: string, install: string, compiler: SchemaCompiler): SchemaCompiler {
  return program === undefined ? { missing: `${tool} is not installed here (${install})` } : compiler;
}

/** The compilers this machine has, by codec. */
export function schemaCompilers(): SchemaCompilers {
  const buf = inNodeModules(".bin/buf");
  const bebopc = bebopcPath();
  const flatc = onPath("flatc");
  const capnpEs = capnpEsPath();
  const compilers: Record<CompiledCodec, SchemaCompiler> = {
    // pbf's compile() in this process: the .proto parsed by protocol-buffers-schema (as pbf's own CLI
    // does), loaded only when evolve mode asks for it, not with every run.
    pbf: async (files) => {
      const [{ compile }, { default: parseProto }] = await Promise.all([
        import("pbf/compile"),
        import("protocol-buffers-schema"),
      ]);
      return new Map([...files].map(([f, text]) => [f, compile(parseProto(text))]));
    },
    "protobuf-es": needs(buf, "buf", "npm install: the @bufbuild/buf package", (files) =>
      inScratch(files, ".proto", async (dir) => {
        await runAsync(buf!, ["build", "--as-file-descriptor-set", "-o", "image.binpb"], dir);
        const descriptorSet = new Uint8Array(readFileSync(path.join(dir, "image.binpb")));
        return new Map([...files.keys()].map((f) => [f, { descriptorSet }]));
      }),
    ),
    bebop: needs(bebopc, "bebopc", "npm install: the bebop-tools package", (files) =>
      inScratch(files, ".bop", async (dir, names) => {
        const out = path.join(dir, "generated.ts");
        await runAsync(
          bebopc!,
          [...names.flatMap((n) => ["-i", n]), "build", "--no-warn=200", "-g", `ts:${out},emitBinarySchema=false`],
          dir,
        );
        pointImportsHome(dir);
        const module = await importFile(out);
        return new Map([...files.keys()].map((f) => [f, module]));
      }),
    ),
    flatbuffers: needs(flatc, "flatc", "apt-get install flatbuffers-compiler", (files) =>
      inScratch(files, ".fbs", async (dir, names) => {
        await runAsync(flatc!, ["--ts", "--gen-object-api", "-o", "out", ...names], dir);
        pointImportsHome(path.join(dir, "out"));
        return importEach(files, (f) => path.join(dir, "out", `${f}_generated.ts`));
      }),
    ),
    capnp: needs(capnpEs, "capnp-es with capnpc", "apt-get install capnproto, and npm install", (files) =>
      inScratch(files, ".capnp", async (dir, names) => {
        await runAsync(capnpEs!, ["-ots:out", ...names], dir);
        pointImportsHome(path.join(dir, "out"));
        return importEach(files, (f) => path.join(dir, "out", `${f}.ts`));
      }),
    ),
  };
  return compilers;
}
