/**
 * One codec's first messages in a fresh process, timed the plainest way: an outside check on
 * cold mode (`bun run cold-check` starts it). No harness: the module imported and the codec made
 * in one interval, the first message alone, the rest in one interval, nothing checked.
 *
 *   bun bench/tools/cold-plain.ts MODULE EXPORT PAYLOAD MESSAGES SEED
 *
 * Prints one JSON line: {"loadNs","firstNs","meanNs"} (meanNs: per message over all of them).
 */

import { makeMessages } from "../../client/harness/generator.ts";
import type { Codec } from "../../protocols/codec.ts";
import type { BuiltInPayload } from "../../protocols/messages.ts";

const [file = "", name = "", payload = "small", count = "1000", seed = "1"] = process.argv.slice(2);
const messages = makeMessages(payload as BuiltInPayload, { count: Number(count), seed: Number(seed), fixed: false });
const t0 = performance.now();
const pc = ((await import(file)) as Record<string, Codec>)[name]!.forPayload(payload);
const t1 = performance.now();
pc.decode(pc.encode(messages[0]!));
const t2 = performance.now();
for (let i = 1; i < messages.length; i++) pc.decode(pc.encode(messages[i]!));
const t3 = performance.now();
const ns = (ms: number): number => ms * 1e6;
process.stdout.write(
  `${JSON.stringify({ loadNs: ns(t1 - t0), firstNs: ns(t2 - t1), meanNs: ns(t3 - t1) / messages.length })}\n`,
);
