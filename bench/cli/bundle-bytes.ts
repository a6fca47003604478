/**
 * What each codec's code adds to a page (docs/cold-start.md): a page whose script imports only
 * that codec, bundled for the browser by Bun and minified, against the same page importing only
 * json; and the same two gzip-compressed (level 6, zlib's default). JSON adds nothing: the
 * browser has it. The figures are bytes, not times: they are the same on every machine, and
 * nothing here runs during a timed step.
 */

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { CODEC_MODULES, codecModuleUrl } from "../../client/harness/codec-loaders.ts";
import type { CodecModuleFile } from "../../client/harness/settings.ts";

/** A codec's bytes on a page over json's, plain (minified) and gzip-compressed; or why they could not be counted. */
export type PageBytes = { bytes: number; gzipBytes: number } | { error: string };

/** The script of a page that uses one codec: its import, kept by handing the codec to the page. */
function entryOf(codec: string, modules: readonly CodecModuleFile[]): string | undefined {
  const own = modules.find((m) => m.name === codec);
  if (own) return `import codec from ${JSON.stringify(own.file)};\nglobalThis.codec = codec;\n`;
  const m = CODEC_MODULES[codec];
  if (!m) return undefined;
  return `import { ${m.name} as codec } from ${JSON.stringify(fileURLToPath(codecModuleUrl(m)))};\nglobalThis.codec = codec;\n`;
}

/** One script bundled for the browser and minified, every import inside it, as one ES module; throws with the bundler's first message. */
export async function browserBundle(entry: string): Promise<string> {
  const built = await Bun.build({ entrypoints: [entry], target: "browser", format: "esm", minify: true, throw: false });
  if (!built.success) throw new Error(built.logs[0]?.message ?? "the bundler failed");
  return built.outputs[0]!.text();
}

/** The page's script bundled and minified, and gzipped; throws with the bundler's first message. */
async function bundled(entry: string): Promise<{ bytes: number; gzipBytes: number }> {
  const text = await browserBundle(entry);
  return { bytes: Buffer.byteLength(text), gzipBytes: Bun.gzipSync(Buffer.from(text), { level: 6 }).byteLength };
}

/** Each codec's bytes on a page over json's, by name (codecs with no module of their own are left out). */
export async function pageBytes(
  codecs: readonly string[],
  modules: readonly CodecModuleFile[] = [],
): Promise<Map<string, PageBytes>> {
  const dir = mkdtempSync(path.join(tmpdir(), "page-bytes-"));
  const out = new Map<string, PageBytes>();
  try {
    const build = async (codec: string): Promise<{ bytes: number; gzipBytes: number } | undefined> => {
      const text = entryOf(codec, modules);
      if (text === undefined) return undefined;
      const entry = path.join(dir, `${codec}.ts`);
      writeFileSync(entry, text);
      return bundled(entry);
    };
    const json = (await build("json"))!;
    for (const codec of codecs) {
      try {
        const own = await build(codec);
        if (own)
          out.set(codec, {
            bytes: Math.max(0, own.bytes - json.bytes),
            gzipBytes: Math.max(0, own.gzipBytes - json.gzipBytes),
          });
      } catch (e) {
        out.set(codec, { error: (e as Error).message.split("\n")[0]! });
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return out;
}
