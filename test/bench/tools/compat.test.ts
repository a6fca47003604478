/**
 * `bun run compat` measures where each codec runs: real bench runs in Bun,
 * in Node (with and without msgpackr's native add-on) and in headless
 * Chromium and Firefox, each with and without a strict Content-Security-Policy. Codecs that
 * generate code with `new Function` and have no other path fail under the
 * policy with the browser's own error; every other cell is a figure. A
 * place's column can come from a run made before (--from).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { PLACES } from "../../../bench/tools/compat.ts";
import { BUILT_IN } from "../../../protocols/registry.ts";
import { CALIBRATION_CODEC_NAMES } from "../../../protocols/calibration.ts";
import { skipBrowserTests } from "../../helpers/browsers.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const out = mkdtempSync(path.join(tmpdir(), "compat-test-"));
afterAll(() => rmSync(out, { recursive: true, force: true }));

const compat = (...args: string[]) =>
  spawnSync(process.execPath, ["bench/tools/compat.ts", ...args], { cwd: ROOT, encoding: "utf8", timeout: 600_000 });

describe.skipIf(skipBrowserTests("compat.test.ts") || skipBrowserTests("compat.test.ts", "firefox"))(
  "the compatibility matrix",
  () => {
    it("has a row per codec and a column per place, measured: eval-bound codecs fail under a strict policy, the rest run", {
      timeout: 600_000,
    }, () => {
      // Bun's column from a run made beforehand (--from), as bun run samples gives it the every-codec run.
      const made = path.join(out, "made-before");
      const before = spawnSync(
        process.execPath,
        [
          "bench/cli/bench.ts",
          ...["--modes", "codec", "--codecs", "all", "--payloads", "small,chat", "--iterations", "200"],
          ...["--runs", "1", "--forks", "1", "--out", made],
        ],
        { cwd: ROOT, encoding: "utf8", timeout: 600_000 },
      );
      expect(before.status, before.stderr).toBe(0);
      const r = compat(
        ...["--iterations", "200", "--runs", "1", "--payloads", "small,chat", "--out", out],
        ...["--from", `bun=${path.join(made, "latest.json")}`],
      );
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toContain("compat: Bun: from the file given\n");
      expect(r.stderr).not.toContain("compat: Bun...");
      expect(existsSync(path.join(out, "bun"))).toBe(false);
      const table = readFileSync(path.join(out, "compatibility.md"), "utf8");
      expect(r.stdout).toBe(table);
      const lines = table.split("\n");
      expect(lines[0]).toBe(`| codec | family | ${PLACES.map((p) => p.label).join(" | ")} |`);
      const cells = (codec: string): string[] =>
        lines
          .find((l) => l.startsWith(`| ${codec} |`))!
          .split("|")
          .slice(3, -1)
          .map((c) => c.trim());
      const codecs = BUILT_IN.names.filter((n) => !CALIBRATION_CODEC_NAMES.includes(n));
      for (const codec of codecs) expect(cells(codec), codec).toHaveLength(PLACES.length);
      const strict = PLACES.flatMap((p, i) => (p.dir.endsWith("-csp") ? [i] : []));
      expect(strict).toHaveLength(2);
      expect(cells("json")).toEqual(PLACES.map(() => "1.00x"));
      // protobufjs and avsc compile their readers with new Function and have no path without it.
      for (const codec of ["protobuf", "avro"]) {
        for (const i of strict) expect(cells(codec)[i], `${codec} in ${PLACES[i]!.label}`).toBe("fails");
        expect(
          cells(codec)
            .filter((c, i) => !strict.includes(i))
            .every((c) => /^\d+\.\d\dx$/.test(c)),
          codec,
        ).toBe(true);
        expect(table).toMatch(new RegExp(`^- ${codec} fails in Chromium, strict CSP: .*(EvalError|unsafe-eval)`, "m"));
        expect(table).toMatch(
          new RegExp(`^- ${codec} fails in Firefox, strict CSP: .*(EvalError|CSP|Content Security Policy)`, "m"),
        );
      }
      // The others run everywhere, the policy or not.
      for (const codec of codecs.filter((c) => c !== "protobuf" && c !== "avro"))
        expect(
          cells(codec).every((c) => /^\d+\.\d\dx$/.test(c)),
          `${codec}: ${cells(codec).join(", ")}`,
        ).toBe(true);
    });

    it("a bad flag is one line naming it, exit 2", () => {
      const r = compat("--iterations", "many");
      expect(r.stderr).toBe("compat: --iterations must be a whole number from 1 to 10000000, got 'many'\n");
      expect(r.status).toBe(2);
      const payload = compat("--payloads", "small,huge");
      expect(payload.stderr).toBe(
        "compat: --payloads: unknown value 'huge'; valid values: small, medium, large, chat, game-tick, market or all\n",
      );
      expect(payload.status).toBe(2);
      const place = compat("--from", "nowhere=x.json");
      expect(place.stderr).toBe(
        "compat: --from nowhere=x.json: expected PLACE=FILE, PLACE one of bun, chromium, firefox\n",
      );
      expect(place.status).toBe(2);
      // Bun's rows cannot stand for Chromium's.
      const bun = path.join(ROOT, "results/sample/bun-quick.json.gz");
      const wrong = compat("--from", `chromium=${bun}`);
      expect(wrong.stderr).toMatch(
        /^compat: --from chromium=.*bun-quick\.json\.gz: .*bun-quick\.json\.gz holds no codec-mode run of Chromium \(a row of client inprocess, .*\)\n$/,
      );
      expect(wrong.status).toBe(2);
      const missing = compat("--from", "bun=/nonexistent/latest.json");
      expect(missing.stderr).toMatch(
        /^compat: --from bun=\/nonexistent\/latest\.json: cannot read \/nonexistent\/latest\.json: .+\n$/,
      );
      expect(missing.status).toBe(2);
      // A run's CSV is for a spreadsheet: the line says which file to give.
      const csv = compat("--from", "bun=results/latest.csv");
      expect(csv.stderr).toMatch(/^compat: --from bun=results\/latest\.csv: cannot read results\/latest\.csv: /);
    });
  },
);
