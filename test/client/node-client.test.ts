/**
 * The npm `ws` client under the real Node (not Bun's built-in `ws`), against
 * the real server.
 */
import { makePlan, planSpec } from "../../client/harness/plan.ts";
import { describe, expect, it } from "vitest";
import { libraryVersion } from "../../client/harness/environment.ts";
import { nodeVersion, runNodeClient } from "../../bench/cli/processes/node.ts";
import type { Progress } from "../../client/harness/progress.ts";
import { testSettings } from "../helpers/settings.ts";
import { serverForFile } from "../helpers/server.ts";

const server = serverForFile();

describe("Node client (npm ws)", () => {
  it("runs both modes for every codec and says which client ran", async () => {
    const progress: Progress[] = [];
    const codecs = [
      "json",
      "custom-binary",
      "protobuf",
      "msgpack",
      "msgpackr",
      "msgpackr-records",
      "json-bytes",
      "raw",
    ];
    const result = await runNodeClient(
      {
        plan: planSpec(
          makePlan(
            testSettings({
              modes: ["roundtrip", "stream"],
              codecs,
              payloads: ["small", "large"],
              iterations: { roundtrip: 60, stream: 300 },
              runs: 1,
              warmup: { roundtrip: 20, stream: 20 },
              seed: 3,
              window: 16,
              stallTimeoutMs: 10_000,
            }),
          ),
        ),
        server: server.url,
        wsVersion: libraryVersion("ws"),
        libraryVersions: { msgpackr: libraryVersion("msgpackr") },
      },
      (e) => progress.push(e),
    );
    expect(result.cases).toHaveLength(2 * codecs.length * 2);
    for (const c of result.cases) {
      expect(c.error, `${c.mode} ${c.codec} ${c.payload}`).toBe("");
      expect(c.verified).toBe(true);
      expect(c.client).toBe("node");
      // Node.js itself, not the `node` Bun puts on PATH under `bun --bun`.
      expect(c.clientLibrary).toBe(`ws ${libraryVersion("ws")} on Node ${nodeVersion()}`);
      expect(c.socket!.lost).toBe(0);
      expect(c.socket!.sent).toBe(c.mode === "roundtrip" ? 60 : 300);
    }
    expect(result.cases.find((c) => c.codec === "msgpackr")!.libraryVersion).toBe(libraryVersion("msgpackr"));
    expect(progress.length).toBeGreaterThan(0);
    // NaN survives the trip across the process boundary (raw has no codec times).
    expect(Number.isNaN(result.cases.find((c) => c.codec === "raw")!.serialize.mean)).toBe(true);
  });
});
