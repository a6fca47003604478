/** The page's bundle: the page, its codec-mode worker and a codec module, served from memory, nothing left on disk. */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { buildCodecModules, buildPage, codecModulePath } from "../../server/page-bundle.ts";
import { CODEC_WORKER_PATH } from "../../protocols/contract.ts";

// Every build of this file goes to a folder of its own, to see what it leaves there.
const scratch = mkdtempSync(path.join(tmpdir(), "page-bundle-test-"));
const before = process.env.TMPDIR;
process.env.TMPDIR = scratch;
afterAll(() => {
  if (before === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = before;
  rmSync(scratch, { recursive: true, force: true });
});

describe("the page's bundle", () => {
  it("holds the page and the worker script, and leaves no folder behind", async () => {
    const assets = await buildPage();
    expect(assets.get("/")?.type).toBe("text/html; charset=utf-8");
    const worker = assets.get(CODEC_WORKER_PATH);
    expect(worker?.type).toBe("text/javascript; charset=utf-8");
    // The worker answers the page's job: its script carries the message it posts with a result.
    expect(new TextDecoder().decode(worker!.body)).toContain('"result"');
    expect(readdirSync(scratch)).toEqual([]);
  });

  it("bundles a codec module for the page, and leaves no folder behind, a module that does not build included", async () => {
    const cbor = new URL("../../docs/codecs/cbor-x.ts", import.meta.url).pathname;
    const assets = await buildCodecModules([cbor]);
    expect(assets.get(codecModulePath(0))!.body.length).toBeGreaterThan(1000);
    await expect(buildCodecModules([path.join(scratch, "missing.ts")])).rejects.toThrow(
      /^--codec-module .*missing\.ts: cannot bundle it for the page \(.*ModuleNotFound/,
    );
    expect(readdirSync(scratch)).toEqual([]);
  });
});
