/**
 * Upgrade floods from raw sockets: past --max-connections every attempt gets 503 (never accepted
 * and dropped), /health counts them, and the server takes connections again once they close.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { upgradeRequest } from "../helpers/raw-http.ts";
import { serverForFile } from "../helpers/server.ts";

const server = serverForFile({ ownProcess: true });
const health = server.health;

/** Opens `n` raw sockets at once, each asking for an upgrade; resolves with every status and the sockets (still open). */
function flood(n: number): Promise<{ statuses: number[]; sockets: net.Socket[] }> {
  const { port, hostname } = new URL(server.url);
  const sockets: net.Socket[] = [];
  const answers = Array.from(
    { length: n },
    (_, i) =>
      new Promise<number>((resolve) => {
        const socket = net.connect(Number(port), hostname, () =>
          socket.write(upgradeRequest(`/ws?codec=json&payload=small&id=flood-${n}-${i}`, `${hostname}:${port}`)),
        );
        sockets.push(socket);
        let data = "";
        socket.on("data", (d) => {
          data += d.toString("latin1");
          const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
          if (m) resolve(Number(m[1]));
        });
        socket.on("error", () => resolve(0));
        socket.on("close", () => resolve(0));
      }),
  );
  return Promise.all(answers).then((statuses) => ({ statuses, sockets }));
}

async function until(condition: () => Promise<boolean>, what: string, ms = 15_000): Promise<void> {
  const started = performance.now();
  while (!(await condition())) {
    if (performance.now() - started > ms) throw new Error(`not within ${ms} ms: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("upgrade floods", () => {
  for (const n of [300, 1000]) {
    it(`${n} upgrade attempts at once: 256 connections, 503 for the rest, and the server takes connections again after`, {
      timeout: 60_000,
    }, async () => {
      const before = await health();
      const { statuses, sockets } = await flood(n);
      expect(statuses.filter((s) => s === 101).length).toBe(256);
      expect(statuses.filter((s) => s === 503).length).toBe(n - 256);
      expect((await health()).refused.tooManyConnections - before.refused.tooManyConnections).toBe(n - 256);
      for (const s of sockets) s.destroy();
      await until(async () => (await health()).connections === 0, "every flood connection closed at the server");
      const again = await flood(1);
      expect(again.statuses).toEqual([101]);
      for (const s of again.sockets) s.destroy();
      await until(async () => (await health()).connections === 0, "the last one closed");
    });
  }
});
