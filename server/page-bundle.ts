/**
 * Bundles the browser page (its front end, bench/page/index.html, and
 * everything that imports: the codecs, the harness, the socket runner,
 * chart.js), and the script of its codec-mode workers, with Bun.build
 * into a temporary folder, once per process. The
 * page is found by its path, not imported: the server serves the bench's
 * page and depends on none of its code. The server then
 * serves exactly these files, with the headers that make the page
 * cross-origin isolated (an HTML import in Bun.serve's routes bundles too,
 * but cannot add headers).
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CODEC_WORKER_PATH } from "../protocols/contract.ts";

/** The page's entry; Bun.build follows its script and style imports. */
const INDEX_HTML = fileURLToPath(new URL("../bench/page/index.html", import.meta.url));
/** The script of the page's codec-mode workers, served at CODEC_WORKER_PATH. */
const CODEC_WORKER = fileURLToPath(new URL("../client/page/codec-worker.ts", import.meta.url));

/** The page, or a codec module for it, could not be bundled (code BUILD); the server does not start. */
class PageBuildError extends Error {
  readonly code = "BUILD";
}

export interface PageAsset {
  body: Uint8Array<ArrayBuffer>;
  type: string;
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

let built: Promise<Map<string, PageAsset>> | undefined;

// Every build below passes `throw: false`: a failed build then says why in its logs (thrown, it says only "Bundle failed").

/** `fn` with a fresh temporary folder, removed when it ends (the bundles are served from memory). */
async function inTempDir<T>(prefix: string, fn: (dir: string) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** URL path ("/", "/chunk-abc.js", ...) -> file contents, for every file of the page. */
export function buildPage(): Promise<Map<string, PageAsset>> {
  built ??= inTempDir("wsbench-page-", async (outdir) => {
    const result = await Bun.build({
      entrypoints: [INDEX_HTML],
      outdir,
      target: "browser",
      minify: true,
      throw: false,
    });
    if (!result.success) throw new PageBuildError(`could not build the page: ${result.logs.map(String).join("; ")}`);
    const assets = new Map<string, PageAsset>();
    for (const output of result.outputs) {
      const rel = path.relative(outdir, output.path).split(path.sep).join("/");
      const asset = {
        body: new Uint8Array(readFileSync(output.path)),
        type: TYPES[path.extname(rel)] ?? "application/octet-stream",
      };
      assets.set(`/${rel}`, asset);
      if (rel === "index.html") assets.set("/", asset);
    }
    // A module worker's script: the page starts one per span of codec mode (client/page/codec-workers.ts).
    const worker = await Bun.build({
      entrypoints: [CODEC_WORKER],
      outdir,
      target: "browser",
      format: "esm",
      minify: true,
      throw: false,
      naming: CODEC_WORKER_PATH.slice(1),
    });
    if (!worker.success)
      throw new PageBuildError(`could not build the page's worker: ${worker.logs.map(String).join("; ")}`);
    assets.set(CODEC_WORKER_PATH, {
      body: new Uint8Array(readFileSync(worker.outputs[0]!.path)),
      type: TYPES[".js"]!,
    });
    return assets;
  });
  return built;
}

/** Where the page finds codec module i (docs/codecs.md), bundled for the browser. */
export function codecModulePath(i: number): string {
  return `/codec-modules/${i}.js`;
}

/**
 * Each codec module the server was given, bundled for the browser with the
 * libraries it imports, served at codecModulePath(i) for the page to import.
 */
export async function buildCodecModules(files: readonly string[]): Promise<Map<string, PageAsset>> {
  const assets = new Map<string, PageAsset>();
  for (const [i, file] of files.entries()) {
    const body = await inTempDir("wsbench-codec-", async (outdir) => {
      const result = await Bun.build({
        entrypoints: [file],
        outdir,
        target: "browser",
        format: "esm",
        minify: true,
        throw: false,
        naming: `${i}.js`,
      });
      if (!result.success)
        throw new PageBuildError(
          `--codec-module ${file}: cannot bundle it for the page (${result.logs.map(String).join("; ")})`,
        );
      return new Uint8Array(readFileSync(result.outputs[0]!.path));
    });
    assets.set(codecModulePath(i), { body, type: TYPES[".js"]! });
  }
  return assets;
}
