/** One socket case's options for tests: what the case is, with the usual clock, client and limits. */
import { performanceClock } from "../../bench/harness/clock.ts";
import type { WebSocketClass } from "../../client/socket/connection.ts";
import type { SocketCaseOptions } from "../../client/socket/figures.ts";

type Required = Pick<SocketCaseOptions, "server" | "codec" | "payload" | "mode" | "messages" | "id">;

export function socketCaseOptions(o: Required & Partial<SocketCaseOptions>): SocketCaseOptions {
  return {
    window: 1,
    stallTimeoutMs: 10_000,
    clock: performanceClock,
    timerOverheadNs: 0,
    WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
    ...o,
  };
}
