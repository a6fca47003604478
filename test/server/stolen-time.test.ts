/** What the scheduler took from a thread for other processes, read from Linux's own counters. */
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseSchedstat, StolenTime } from "../../server/stolen-time.ts";

const bytes = (text: string): Uint8Array => new TextEncoder().encode(text);

describe("parseSchedstat", () => {
  it("reads the thread's CPU time and run delay, the first two numbers of the line", () => {
    const line = bytes("467358123 598087 10\n");
    expect(parseSchedstat(line, line.length)).toEqual([467358123, 598087]);
  });

  it("gives NaN for what a line does not have", () => {
    const line = bytes("12\n");
    const [cpu, delay] = parseSchedstat(line, line.length);
    expect(cpu).toBe(12);
    expect(delay).toBeNaN();
  });
});

const linux = process.platform === "linux" && spawnSync("taskset", ["-V"]).status === 0;

describe.runIf(linux)("StolenTime", () => {
  it("opens the calling thread's counters on Linux, and reads what it was runnable", () => {
    const probe = StolenTime.open()!;
    expect(probe).toBeDefined();
    const t0 = performance.now();
    while (performance.now() - t0 < 20);
    const { stolenNs, runnableNs } = probe.since();
    expect(stolenNs).toBeGreaterThanOrEqual(0);
    expect(runnableNs).toBeGreaterThan(10e6);
  });

  it("finds the time another process took, when one shares the thread's CPU", async () => {
    // A busy process and a spinning reader, both pinned to the same CPU: the scheduler shares it between them.
    const cpu = "0";
    const busy = spawn("taskset", ["-c", cpu, "sh", "-c", "while :; do :; done"], { stdio: "ignore" });
    try {
      // The reader spins for 300 ms beside it, then says what StolenTime found. Its wall clock starts
      // before the probe opens and stops after its last reading, so everything the probe counts lies
      // inside it (a preemption between opening and starting the clock once counted outside it).
      const reader = [
        `import { StolenTime } from ${JSON.stringify(path.resolve(__dirname, "../../server/stolen-time.ts"))};`,
        "const t0 = performance.now();",
        "const probe = StolenTime.open();",
        "while (performance.now() - t0 < 300);",
        "const reading = probe.since();",
        "console.log(JSON.stringify({ ...reading, wallNs: (performance.now() - t0) * 1e6 }));",
      ].join("\n");
      const r = spawnSync("taskset", ["-c", cpu, process.execPath, "-e", reader], {
        encoding: "utf8",
        timeout: 30_000,
      });
      expect(r.status, r.stderr).toBe(0);
      const { stolenNs, runnableNs, wallNs } = JSON.parse(r.stdout) as {
        stolenNs: number;
        runnableNs: number;
        wallNs: number;
      };
      // Sharing one CPU with a busy loop, the reader waits for it a good part of the time, and that wait is found.
      expect(stolenNs).toBeGreaterThan(0.1 * wallNs);
      expect(stolenNs).toBeLessThanOrEqual(runnableNs);
      expect(runnableNs).toBeLessThanOrEqual(wallNs * 1.05);
    } finally {
      busy.kill("SIGKILL");
    }
  }, 60_000);
});
