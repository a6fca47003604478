/** One socket case's options, and the socket modes' context, for tests: what runs, with the usual clock, client and limits. */
import { BUILT_IN } from "../../protocols/registry.ts";
import { calibrateClock, performanceClock } from "../../client/harness/clock.ts";
import { processCpuMs, type WebSocketClass } from "../../client/socket/client-connection.ts";
import type { SocketCaseOptions } from "../../client/socket/socket-case.ts";
import type { SocketModeContext } from "../../client/socket/mode-context.ts";

type Required = Pick<SocketCaseOptions, "server" | "codec" | "payload" | "mode" | "messages" | "id">;

export function socketCaseOptions(o: Required & Partial<SocketCaseOptions>): SocketCaseOptions {
  return {
    catalog: BUILT_IN,
    window: 1,
    stallTimeoutMs: 10_000,
    clock: performanceClock,
    timerOverheadNs: 0,
    WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
    ...o,
  };
}

/** The socket modes' context for tests: Bun's client against `server`, the usual clock and CPU meter. */
export function bunModeContext(server: string, over: Partial<SocketModeContext> = {}): SocketModeContext {
  return {
    server,
    clock: performanceClock,
    calibration: calibrateClock(performanceClock),
    WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
    client: "bun",
    catalog: BUILT_IN,
    clientLibrary: "bun WebSocket",
    cpuMs: processCpuMs,
    ...over,
  };
}
