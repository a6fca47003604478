/** A child that reports in JSON lines: its job in, its progress relayed, its result or its failure out, a stop passed on as SIGINT. */
import { describe, expect, it } from "vitest";
import { runReportingChild } from "../../../../bench/cli/processes/reporting-child.ts";
import type { Progress } from "../../../../client/harness/progress.ts";

/** A Bun child running `script` (it reads its job from stdin as `job`). */
function child(script: string, over: { shouldStop?: () => boolean; onProgress?: (e: Progress) => void } = {}) {
  const source = `let t = ""; for await (const c of process.stdin) t += c; const job = JSON.parse(t); const say = (v) => process.stdout.write(JSON.stringify(v) + "\\n"); ${script}`;
  return runReportingChild<{ echoed: unknown }>({
    name: "the test child",
    command: process.execPath,
    args: ["-e", source],
    job: { json: { n: 3 } },
    onProgress: over.onProgress ?? (() => undefined),
    shouldStop: over.shouldStop ?? (() => false),
  });
}

describe("runReportingChild", () => {
  it("sends the job, relays every progress line and returns the result", async () => {
    const events: Progress[] = [];
    const r = await child(
      `for (let i = 0; i < job.n; i++) say({ type: "progress", event: { done: i } }); say({ type: "result", result: { echoed: job } });`,
      { onProgress: (e) => events.push(e) },
    );
    expect(r).toEqual({ echoed: { n: 3 } });
    expect(events.map((e) => e.done)).toEqual([0, 1, 2]);
  });

  it("a child that reports an error fails with its message", async () => {
    await expect(child(`say({ type: "error", message: "no codecs left" }); process.exitCode = 1;`)).rejects.toThrow(
      "the test child failed: no codecs left",
    );
  });

  it("a child that dies without a result fails with its exit code and last stderr lines", async () => {
    await expect(child(`console.error("out of memory, say"); process.exit(7);`)).rejects.toThrow(
      /^the test child failed \(exit 7\): out of memory, say$/,
    );
  });

  it("a stop reaches the child as SIGINT, and what it reports then is the result", async () => {
    let stop = false;
    const r = await child(
      `process.on("SIGINT", () => { say({ type: "result", result: { echoed: "stopped" } }); process.exit(0); }); say({ type: "progress", event: { done: 0 } }); setInterval(() => {}, 1000);`,
      { onProgress: () => (stop = true), shouldStop: () => stop },
    );
    expect(r).toEqual({ echoed: "stopped" });
  });
});
