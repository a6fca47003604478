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

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { compile } from "pbf/compile";
import parseProto from "protocol-buffers-schema";
import type { CompiledCodec, SchemaCompiler, SchemaCompilers } from "../../protocols/compiled-versions.ts";
import { ROOT } from "./paths.ts";

/** A program found on PATH, or undefined. */
export function onPath(program: string): string | undefined {
  for (const dir of (process.env.PATH ?? "").split(path.delimiter)) {
    const candidate = path.join(dir, program);
    if (dir !== "" && existsSync(candidate)) return candidate;
  }
  return undefined;
}

/** A program an npm package brings (node_modules/...), or undefined when it is not installed. */
export function inNodeModules(relative: string): string | undefined {
  const file = path.join(ROOT, "node_modules", relative);
  return existsSync(file) ? file : undefined;
}

/** bebopc's binary for this machine, where the bebop-tools package keeps it (what its own launcher picks). */
export function bebopcPath(): string | undefined {
  const os = process.platform === "win32" ? "windows" : process.platform === "darwin" ? "macos" : process.platform;
  return inNodeModules(`bebop-tools/tools/${os}/${process.arch}/bebopc${os === "windows" ? ".exe" : ""}`);
}

/** capnp-es's CLI, where it can run: it runs `capnpc` (Debian's capnproto) from PATH and needs the typescript package. */
export function capnpEsPath(): string | undefined {
  return onPath("capnpc") !== undefined && inNodeModules("typescript/package.json") !== undefined
    ? inNodeModules(".bin/capnp-es")
    : undefined;
}

/** Runs a program; throws with its output when it fails. */
export function run(program: string, args: readonly string[], cwd: string): void {
  const r = spawnSync(program, args, {
    cwd,
    encoding: "utf8",
    timeout: 120_000,
    env: { ...process.env, NO_COLOR: "1" },
  });
  if (r.error) throw new Error(`${path.basename(program)}: ${r.error.message}`);
  if (r.status !== 0) {
    // The program's own words first: a schema it refused, and where.
    const said = (r.stderr || r.stdout)
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the terminal's colour codes, dropped
      .replace(/\x1b\[[0-9;]*m/g, "")
      .split("\n")
      .map((l) => l.trim())
      .filter((l) => l !== "");
    throw new Error(`${path.basename(program)} exited ${r.status}: ${said.join(" ").slice(0, 400) || "(no output)"}`);
  }
}

/** The packages generated code imports by name, which a scratch folder outside the project cannot resolve. */
const RUNTIMES = ["bebop", "flatbuffers", "capnp-es"];

/** Every .ts file under `dir` made to import the runtime packages from where this process has them. */
function pointImportsHome(dir: string): void {
  const where = new Map(RUNTIMES.map((p) => [p, import.meta.resolve(p)]));
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile() || !e.name.endsWith(".ts")) continue;
    const file = path.join(e.parentPath, e.name);
    const text = readFileSync(file, "utf8").replace(
      /from (["'])(bebop|flatbuffers|capnp-es)\1/g,
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
    // pbf's compile() in this process: the .proto parsed by protocol-buffers-schema (as pbf's own CLI does).
    pbf: async (files) =>
      new Map([...files].map(([f, text]) => [f, compile(parseProto(text)) as Record<string, unknown>])),
    "protobuf-es": needs(buf, "buf", "npm install: the @bufbuild/buf package", (files) =>
      inScratch(files, ".proto", async (dir) => {
        run(buf!, ["build", "-o", "image.binpb"], dir);
        const descriptorSet = new Uint8Array(readFileSync(path.join(dir, "image.binpb")));
        return new Map([...files.keys()].map((f) => [f, { descriptorSet }]));
      }),
    ),
    bebop: needs(bebopc, "bebopc", "npm install: the bebop-tools package", (files) =>
      inScratch(files, ".bop", async (dir, names) => {
        const out = path.join(dir, "generated.ts");
        run(
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
        run(flatc!, ["--ts", "--gen-object-api", "-o", "out", ...names], dir);
        pointImportsHome(path.join(dir, "out"));
        const modules = new Map<string, Record<string, unknown>>();
        for (const f of files.keys()) modules.set(f, await importFile(path.join(dir, "out", `${f}_generated.ts`)));
        return modules;
      }),
    ),
    capnp: needs(capnpEs, "capnp-es with capnpc", "apt-get install capnproto, and npm install", (files) =>
      inScratch(files, ".capnp", async (dir, names) => {
        run(capnpEs!, ["-ots:out", ...names], dir);
        pointImportsHome(path.join(dir, "out"));
        const modules = new Map<string, Record<string, unknown>>();
        for (const f of files.keys()) modules.set(f, await importFile(path.join(dir, "out", `${f}.ts`)));
        return modules;
      }),
    ),
  };
  return compilers;
}
