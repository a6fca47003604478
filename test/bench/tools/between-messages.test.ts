/** `bun run between-messages`: the server's echo in one process, under what a server does between messages. */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const run = (args: string[]) =>
  spawnSync(process.execPath, ["bench/tools/between-messages.ts", ...args], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 120_000,
  });

describe("between-messages", () => {
  it("times every codec and the arithmetic under each regime, with each codec's ratio to json", () => {
    const r = run(["small", "100", "custom-binary,msgpackr"]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^small message, 100 messages per codec and regime/);
    const header = r.stdout.split("\n").find((l) => l.startsWith("between messages"))!;
    expect(header.trim().split(/\s{2,}/)).toEqual([
      "between messages",
      "arithmetic",
      "json",
      "custom-binary",
      "msgpackr",
      "custom-binary/json",
      "msgpackr/json",
    ]);
    for (const regime of [
      "hot (nothing between)",
      "busy 50 µs between",
      "4 MiB touched between",
      "asleep 50 µs between",
      "asleep 1 ms between",
    ]) {
      const line = r.stdout.split("\n").find((l) => l.startsWith(regime));
      expect(line, regime).toBeDefined();
      // five times in ns, then two ratios
      expect(line!.slice(regime.length).trim().split(/\s+/)).toEqual([
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+$/),
        expect.stringMatching(/^\d+\.\d\d$/),
        expect.stringMatching(/^\d+\.\d\d$/),
      ]);
    }
  }, 120_000);

  it("refuses a bad payload, count or codec with one line and exit 2", () => {
    for (const [args, message] of [
      [["huge"], /^between-messages: unknown payload 'huge'; valid: small, medium, large/],
      [["small", "3"], /^between-messages: MESSAGES must be an integer from 50 to 100000, got '3'/],
      [["small", "100", "nope"], /^between-messages: unknown codec 'nope'/],
    ] as const) {
      const r = run([...args]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split("\n")).toHaveLength(1);
    }
  });
});
