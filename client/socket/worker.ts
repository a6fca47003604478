/**
 * A worker thread that runs some of a case's concurrent connections
 * (`--clients N`), so the client side is spread over the machine's cores
 * instead of queuing on one event loop. It takes a job, runs its
 * connections at once with the ordinary runner, and posts their figures.
 */

import { performanceClock } from "../harness/clock.ts";
import { checksOwnRoundTrip } from "../harness/settings.ts";
import { messagesFor } from "../harness/generator.ts";
import { importCodecModules } from "../harness/codec-modules.ts";
import { catalogFor } from "../harness/plan.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";
import { processCpuMs, type WebSocketClass } from "./client-connection.ts";
import type { SocketCaseFigures } from "./socket-case.ts";
import { runSocketCase } from "./runner.ts";
import type { ClientJob } from "./workers.ts";

declare const self: Worker;

/** The run's catalog, built from the first job (every job of a run names the same modules and proto). */
let catalog: Promise<CodecCatalog> | undefined;

self.onmessage = async (ev: MessageEvent<ClientJob>) => {
  const job = ev.data;
  catalog ??= importCodecModules((job.codecModules ?? []).map((m) => m.file)).then((codecs) => catalogFor(job, codecs));
  const codecs = await catalog;
  const figures: SocketCaseFigures[] = await Promise.all(
    job.connections.map((c) =>
      runSocketCase({
        server: job.server,
        catalog: codecs,
        codec: job.codec,
        payload: job.payload,
        mode: job.mode,
        // Each client its own messages: same shape and sizes, its own seed.
        messages: messagesFor(job, job.payload, c.count, (job.seed + c.index * 0x9e3779b1) >>> 0),
        ownRoundTrip: checksOwnRoundTrip(job, job.payload),
        window: job.window,
        rate: job.rate,
        stallTimeoutMs: job.stallTimeoutMs,
        clock: performanceClock,
        timerOverheadNs: job.timerOverheadNs,
        WebSocket: globalThis.WebSocket as unknown as WebSocketClass,
        id: c.id,
        cpuMs: processCpuMs,
        ...(job.linkVia ? { linkVia: job.linkVia } : {}),
      }),
    ),
  );
  self.postMessage(figures);
};
