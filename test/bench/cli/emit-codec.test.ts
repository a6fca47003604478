/**
 * custom-binary on a user's own messages, as a user runs it: a whiteboard's messages
 * (`--messages`), custom-binary timed on them with the layout inferred from them,
 * `--emit-codec DIR` writing that layout as a module, and the module run as a codec of the
 * user's (`--codec-module`) giving the same bytes; a payload no layout carries says where.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import type { BenchResults } from "../../../client/harness/results.ts";
import { runBenchCli } from "../../helpers/bench-cli.ts";

const tmp = mkdtempSync(path.join(tmpdir(), "bench-emit-codec-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** A whiteboard's messages: cursor moves, strokes of points, chat with emoji. */
const board = path.join(tmp, "board.json");
writeFileSync(
  board,
  JSON.stringify(
    Array.from({ length: 60 }, (_, i) =>
      i % 6 === 0
        ? { t: "stroke", id: i, u: `user-${i % 5}`, pts: Array.from({ length: 20 + i }, (_, k) => [k + 0.5, k / 4]) }
        : i % 6 === 1
          ? { t: "chat", u: `user-${i % 5}`, text: `héllo 👋 ${i}` }
          : { t: "cur", u: `user-${i % 5}`, x: 512.25 + i, y: 301.5 },
    ),
  ),
);
/** A place holding a number in some messages and a string in others: no layout carries it. */
const mixed = path.join(tmp, "mixed.json");
writeFileSync(
  mixed,
  JSON.stringify([
    { id: 1, v: 2 },
    { id: 2, v: "two" },
  ]),
);

const resultsOf = (out: string): BenchResults =>
  JSON.parse(readFileSync(path.join(out, "latest.json"), "utf8")) as BenchResults;

describe("custom-binary on your own messages", () => {
  it("times the inferred layout, writes it with --emit-codec, and the module runs as a codec of yours with the same bytes", () => {
    const dir = path.join(tmp, "codecs");
    const first = path.join(tmp, "first");
    const a = runBenchCli([
      "--messages",
      board,
      "--messages",
      mixed,
      "--codecs",
      "json,custom-binary",
      "--modes",
      "codec",
      "--quick",
      "--emit-codec",
      dir,
      "--out",
      first,
    ]);
    expect(a.code, a.stderr).toBe(0);
    const module = path.join(dir, "board-binary.ts");
    expect(a.stdout).toContain(`custom-binary layout of board: ${module} (run it: --codec-module ${module})`);
    expect(a.stdout).toMatch(
      /custom-binary layout of mixed: no module written; no layout carries these messages: v: holds a number in 1 of 2 and a string in 1 of 2/,
    );
    expect(a.stdout).toMatch(/^custom-binary +n\/a +no layout carries these messages: v: holds a number/m);
    for (const f of ["errors.ts", "reader.ts", "writer.ts", "utf8.ts"])
      expect(existsSync(path.join(dir, "custom-binary", f))).toBe(true);
    // The same layout as the schemas protobuf and avro run these messages in.
    for (const [ext, codec] of [
      ["proto", "protobuf"],
      ["avsc", "avro"],
    ])
      expect(a.stdout).toContain(
        `.${ext} of board: ${path.join(dir, `board.${ext}`)} (what ${codec} runs these messages in)`,
      );
    expect(readFileSync(path.join(dir, "board.proto"), "utf8")).toMatch(
      /oneof t_arm \{\n\s+Board_Stroke stroke = 1; \/\/ t = "stroke"/,
    );
    expect(JSON.parse(readFileSync(path.join(dir, "board.avsc"), "utf8"))).toBeInstanceOf(Array);
    const text = readFileSync(module, "utf8");
    expect(text).toContain(' *   t: one of "stroke", "chat", "cur", each kind with its own fields');
    expect(text).toContain(' *   {t="cur"}.x: a number exact in 32 bits (float32)');
    const ran = resultsOf(first).cases.filter((c) => c.payload === "board");
    expect(ran.map((c) => `${c.codec} ${c.verified}`).sort()).toEqual(["custom-binary true", "json true"]);
    const bytes = (r: BenchResults, codec: string): number =>
      r.cases.find((c) => c.payload === "board" && c.codec === codec)!.bytes;
    expect(bytes(resultsOf(first), "custom-binary")).toBeLessThan(0.6 * bytes(resultsOf(first), "json"));

    const second = path.join(tmp, "second");
    const b = runBenchCli([
      "--messages",
      board,
      "--codec-module",
      module,
      "--codecs",
      "custom-binary,board-binary",
      "--modes",
      "codec",
      "--quick",
      "--out",
      second,
    ]);
    expect(b.code, b.stderr).toBe(0);
    expect(
      resultsOf(second)
        .cases.map((c) => `${c.codec} ${c.verified}`)
        .sort(),
    ).toEqual(["board-binary true", "custom-binary true"]);
    expect(bytes(resultsOf(second), "board-binary")).toBe(bytes(resultsOf(second), "custom-binary"));
  });

  it("--emit-codec needs your messages and a directory it can write to: one line, exit 2", () => {
    const refused = (args: string[], line: RegExp): void => {
      const r = runBenchCli(args);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(line);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    };
    refused(
      ["--emit-codec", path.join(tmp, "x")],
      /^bench: --emit-codec writes custom-binary's layout of your own messages; add --messages FILE$/m,
    );
    refused(
      ["--messages", board, "--emit-codec", board],
      /^bench: --emit-codec .*board\.json: cannot create the directory \(a file, not a directory, is in the way\)/,
    );
  });
});
