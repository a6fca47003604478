/**
 * Many clients from the command line: --clients N concurrent connections
 * from worker threads, and fanout to N subscribers; nothing lost. Their
 * figures for one case: counts and times add up, the server's memory is its
 * highest sample.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parseCsv } from "../../helpers/csv.ts";
import { emptyFigures, type SocketCaseFigures } from "../../../client/socket/socket-case.ts";
import { mergeFigures } from "../../../client/socket/workers.ts";
import { newStats } from "../../../server/connection-stats.ts";

const ROOT = path.resolve(import.meta.dirname, "../../..");
const tmp = mkdtempSync(path.join(tmpdir(), "bench-clients-"));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function benchCsv(args: string[]): { code: number | null; stderr: string; rows: Record<string, string>[] } {
  const out = path.join(tmp, args.join("_").replace(/[^a-z0-9]+/gi, "-"));
  const r = spawnSync(process.execPath, ["bench/cli/bench.ts", ...args, "--out", out], {
    cwd: ROOT,
    encoding: "utf8",
    timeout: 240_000,
  });
  const [header, ...body] = parseCsv(readFileSync(path.join(out, "latest.csv"), "utf8"));
  return {
    code: r.status,
    stderr: r.stderr,
    rows: body.map((row) => Object.fromEntries(header!.map((h, i) => [h, row[i]!]))),
  };
}

describe("--clients 32", () => {
  it("stream: 32 concurrent connections per case, every row lost=0, per-client spread recorded", () => {
    const r = benchCsv([
      "--modes",
      "stream",
      "--clients",
      "32",
      "--iterations",
      "20000",
      "--runs",
      "1",
      "--warmup",
      "0",
      "--payloads",
      "small,large",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.rows).toHaveLength(8 * 2);
    for (const row of r.rows) {
      expect(row.verified, `${row.codec} ${row.payload}: ${row.error}`).toBe("true");
      expect(row.lost).toBe("0");
      expect(row.clients).toBe("32");
      // The case's 20,000 messages, shared by the 32 clients.
      expect(row.sent).toBe("20000");
      expect(Number(row.client_msgs_per_s_min)).toBeGreaterThan(0);
      expect(Number(row.client_msgs_per_s_max)).toBeGreaterThanOrEqual(Number(row.client_msgs_per_s_min));
    }
  }, 240_000);

  it("fanout: 32 subscribers get every message, publish() results checked, every row lost=0", () => {
    const r = benchCsv([
      "--modes",
      "fanout",
      "--clients",
      "32",
      "--iterations",
      "500",
      "--runs",
      "1",
      "--warmup",
      "0",
      "--payloads",
      "small,medium",
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.rows).toHaveLength(8 * 2);
    for (const row of r.rows) {
      expect(row.verified, `${row.codec} ${row.payload}: ${row.error}`).toBe("true");
      expect(row.mode).toBe("fanout");
      expect(row.lost).toBe("0");
      expect(row.dropped).toBe("0");
      expect(row.sent).toBe("500");
      expect(row.received).toBe(String(500 * 32));
    }
  }, 240_000);

  it("refuses --clients above 1 and fanout for other clients, exit 2", () => {
    const a = spawnSync(process.execPath, ["bench/cli/bench.ts", "--client", "node", "--clients", "4"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(a.status).toBe(2);
    expect(a.stderr).toBe(
      "bench: --clients above 1 needs --client bun (got --client node), except with --modes route, where they are its members\n",
    );
    const b = spawnSync(process.execPath, ["bench/cli/bench.ts", "--client", "chromium", "--modes", "fanout"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(b.status).toBe(2);
    expect(b.stderr).toBe("bench: --modes fanout needs --client bun (got --client chromium)\n");
  });
});

function client(
  over: Partial<SocketCaseFigures>,
  server: { messages: number; cpuMs: number; rssPeakBytes: number },
): SocketCaseFigures {
  return { ...emptyFigures(), ...over, server: { ...newStats("c", "json", "small", 0), ...server } };
}

describe("mergeFigures", () => {
  it("adds the clients' counts, busy time and late sends; the server's CPU adds up and its memory is the highest sample", () => {
    const a = client(
      { sent: 100, received: 100, late: 2, busyNs: 1e6, sendingMs: 50, elapsedMs: 60, rttNs: Float64Array.of(1, 2) },
      { messages: 100, cpuMs: 5, rssPeakBytes: 70e6 },
    );
    const b = client(
      {
        sent: 100,
        received: 99,
        lost: 1,
        late: 3,
        busyNs: 3e6,
        sendingMs: 55,
        elapsedMs: 70,
        rttNs: Float64Array.of(3),
      },
      { messages: 99, cpuMs: 4, rssPeakBytes: 90e6 },
    );
    const { merged, perClient } = mergeFigures([a, b], 80);
    expect(merged).toMatchObject({
      sent: 200,
      received: 199,
      lost: 1,
      late: 5,
      busyNs: 4e6,
      sendingMs: 55,
      elapsedMs: 80,
    });
    expect([...merged.rttNs!]).toEqual([1, 2, 3]);
    expect(merged.server).toMatchObject({ messages: 199, cpuMs: 9, rssPeakBytes: 90e6 });
    expect(perClient.map((p) => p.lost)).toEqual([0, 1]);
  });
});
