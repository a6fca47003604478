import { spawnServer } from "./bench/cli/processes/server-process.ts";
import { driveLoad } from "./client/socket/load-drive.ts";
import { BUILT_IN } from "./protocols/registry.ts";
import { performanceClock } from "./client/harness/clock.ts";
import { makeMessages } from "./client/harness/generator.ts";
import { processCpuMs } from "./client/socket/client-connection.ts";
const server = await spawnServer();
const windowMs = Number(process.argv[2] ?? 2000);
const fanout = Number(process.argv[3] ?? 8);
const m = await driveLoad(
  {
    rates: [
      { payload: "small", rate: 9000 },
      { payload: "large", rate: 600 },
    ],
    fanout,
  },
  ["raw", "json", "custom-binary"],
  {
    servers: [server.url],
    catalog: BUILT_IN,
    WebSocket: globalThis.WebSocket as any,
    clock: performanceClock,
    stallTimeoutMs: 10000,
    messagesOf: (p) => makeMessages(p, { count: 1000, seed: 1, fixed: false }),
    seed: 1,
    cpuMs: processCpuMs,
    rounds: 6,
    windowMs,
    warmMs: 500,
  },
);
for (const d of m.drives)
  console.log(
    d.codec.padEnd(14),
    d.rounds.map((r) => `${r.cores.toFixed(3)}/${r.clientCores?.toFixed(2)}`).join(" "),
    d.error ?? "",
  );
await server.stop();
