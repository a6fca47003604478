/** A loopback port for a helper process the bench starts (redis-server, the link emulator). */

import { createServer } from "node:net";

/** A port the kernel says is free now, on loopback (a helper that then fails to bind it is started again). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}
