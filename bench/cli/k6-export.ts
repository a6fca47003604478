/**
 * `bun run bench --export-k6 DIR`: a self-contained k6 test (k6/script.js,
 * its config and, per codec and payload, the frames the bench encoded), so
 * k6 can load a `bun run server` from as many machines as it takes
 * (execution segments) without ever running our codecs. With `--modes
 * route` the test routes instead of echoing: each k6 connection is a router
 * publishing its frames, beside two members of its own rooms that check
 * every frame reaches the right one, unchanged and in order.
 */

import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { clientCodec } from "../../client/socket/client-codec.ts";
import { encodedBytes, type Encoded } from "../../protocols/codec.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";
import type { Plan } from "../../client/harness/plan.ts";
import { packFrames, RAW_CODEC_NAME, roomName } from "../../protocols/contract.ts";
import { isBuiltIn, ROUTING_KEYS, type BuiltInPayload, type Message } from "../../protocols/messages.ts";
import { isExcluded } from "../../client/harness/exclusions.ts";
import { messagesFor } from "../../client/harness/generator.ts";
import type { Settings } from "../../client/harness/settings.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";

/** The load model the script runs unless `k6 run -e NAME=value` says otherwise. */
export interface K6Load {
  /** Where the server is (ws:// or http://). */
  server: string;
  /** WebSocket connections (k6 VUs) per codec and payload. */
  connections: number;
  /** Messages per second each connection sends, on a schedule that does not wait for replies. */
  rate: number;
  /** Messages each connection sends per codec and payload (so a test's total is exact, however it is split). */
  messages: number;
  /** Seconds over which the connections of a case start. */
  rampS: number;
  /** Seconds a connection waits for its last echoes before counting the rest lost. */
  stallS: number;
}

/** The load model without the --k6-* options. */
export const K6_DEFAULTS: Readonly<K6Load> = {
  server: "ws://127.0.0.1:8080",
  connections: 10,
  rate: 100,
  messages: 1000,
  rampS: 1,
  stallS: 10,
};

/** Distinct frames per case at most; a connection sends them in turn. */
const MAX_FRAMES = 1000;

interface K6Case {
  codec: string;
  payload: string;
  frame: "text" | "binary";
  file: string;
  frames: number;
  meanBytes: number;
  /** A routing test: the rooms the frames' keys name, and each frame's room (an index into rooms). */
  rooms?: string[];
  roomOf?: number[];
}

/** The rooms of a case's messages, in the order they first appear, and each message's room. */
function roomsOf(messages: readonly Message[], payload: BuiltInPayload): { rooms: string[]; roomOf: number[] } {
  const rooms: string[] = [];
  const roomOf = messages.map((m) => {
    const name = roomName((m as Record<string, unknown>)[ROUTING_KEYS[payload]])!;
    const at = rooms.indexOf(name);
    return at >= 0 ? at : rooms.push(name) - 1;
  });
  return { rooms, roomOf };
}

/**
 * The server echoes each message decoded and encoded again; k6 compares the
 * echo with what it sent, so a codec must give back the same bytes. Checked
 * for every frame before it is written.
 */
function canonicalError(
  catalog: CodecCatalog,
  codec: string,
  payload: string,
  frames: readonly Encoded[],
): string | undefined {
  if (codec === RAW_CODEC_NAME) return undefined;
  const pc = catalog.get(codec)!.forPayload(payload);
  for (let i = 0; i < frames.length; i++) {
    const again = pc.encode(pc.decode(frames[i]!));
    const a = frames[i]!;
    const same =
      typeof a === "string"
        ? again === a
        : again instanceof Uint8Array && again.length === a.length && again.every((b, k) => b === a[k]);
    if (!same)
      return `--export-k6: ${codec} does not encode ${payload} message ${i} to the same bytes twice, so the server's echo would not match what k6 sent`;
  }
  return undefined;
}

/** What the exported test does: echo (each frame back, re-encoded), or route (--modes route: each frame to its room, forwarded). */
export type K6Test = "echo" | "route";

/** The test a run's settings export: route when route is their only mode. */
export function k6TestOf(settings: Pick<Settings, "modes">): K6Test {
  return settings.modes.length === 1 && settings.modes[0] === "route" ? "route" : "echo";
}

/** Writes the test; returns its cases. A SettingError when DIR cannot be written or a codec is not canonical. */
export function exportK6(plan: Plan, dir: string, load: K6Load): K6Case[] {
  const { settings, catalog } = plan;
  const test = k6TestOf(settings);
  try {
    mkdirSync(path.join(dir, "frames"), { recursive: true });
  } catch (e) {
    throw new SettingError(
      `--export-k6 ${dir}: cannot create the directory (${(e as { code?: string }).code ?? (e as Error).message}); name a directory you can write to`,
    );
  }
  const count = Math.min(MAX_FRAMES, load.messages);
  const cases: K6Case[] = [];
  // A routing test: the routers forward the frames untouched, so any codec's bytes will do; raw reads no key, and only the built-in payloads have one.
  const payloads = test === "route" ? settings.payloads.filter(isBuiltIn) : settings.payloads;
  if (payloads.length === 0)
    throw new SettingError(
      "--export-k6 with --modes route routes the built-in payloads by their routing key; add one to --payloads",
    );
  for (const payload of payloads) {
    const messages = messagesFor(settings, payload, count);
    const routed = test === "route" ? roomsOf(messages, payload as BuiltInPayload) : undefined;
    for (const codec of settings.codecs.filter(
      (c) => !isExcluded(settings, c, payload) && (test === "echo" || c !== RAW_CODEC_NAME),
    )) {
      const cc = clientCodec(catalog, codec, payload, messages);
      const encoded = messages.map((_, i) => cc.encode(i));
      const wrong = test === "echo" ? canonicalError(catalog, codec, payload, encoded) : undefined;
      if (wrong) throw new SettingError(wrong);
      const file = `${codec}.${payload}.bin`;
      // Frames as [u32 little-endian length][bytes]..., text frames as their UTF-8: the server's warm-up body format.
      writeFileSync(path.join(dir, "frames", file), packFrames(encoded));
      cases.push({
        codec,
        payload,
        frame: cc.frame,
        file,
        frames: encoded.length,
        meanBytes: encoded.reduce((n, e) => n + encodedBytes(e), 0) / encoded.length,
        ...routed,
      });
    }
  }
  writeFileSync(
    path.join(dir, "config.json"),
    JSON.stringify({ ...load, test, validate: settings.validate, cases }, null, 1) + "\n",
  );
  copyFileSync(new URL("./k6/script.js", import.meta.url), path.join(dir, "script.js"));
  return cases;
}
