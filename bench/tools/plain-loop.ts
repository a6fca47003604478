/**
 * One codec on one payload in a process of its own, timed by the plainest
 * loops there are, each pass over every message timed once as a whole. No harness, no batches, no interleaving: an
 * outside check on codec mode's figures (`bun run crosscheck` starts one
 * process per codec and payload, so no codec shares a call site or a heap
 * with another). Decoding comes after all the encoding, as on a socket,
 * where the receiver never parses the very string the sender just built.
 *
 *   bun bench/tools/plain-loop.ts CODEC PAYLOAD ITERATIONS REPETITIONS SEED
 *
 * Prints one JSON line: {"codec","payload","nsPerMessage","passes":[...]}.
 */

import { makeMessages } from "../../client/harness/generator.ts";
import { sameMessage } from "../../client/harness/verify.ts";
import type { Encoded } from "../../protocols/codec.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import { BUILT_IN } from "../../protocols/registry.ts";

const [codecName = "", payload = "small", iterationsArg = "100000", repetitionsArg = "7", seedArg = "1"] =
  process.argv.slice(2);
const codec = BUILT_IN.get(codecName);
if (!codec) {
  process.stderr.write(`plain-loop: unknown codec '${codecName}'\n`);
  process.exit(2);
}
const pc = codec.forPayload(payload as PayloadName);
const messages = makeMessages(payload as PayloadName, {
  count: Number(iterationsArg),
  seed: Number(seedArg),
  fixed: false,
});
for (const m of messages) {
  if (!sameMessage(m, pc.decode(pc.encode(m)))) {
    process.stderr.write(`plain-loop: ${codecName} ${payload} does not round-trip\n`);
    process.exit(1);
  }
}

// What the loop produced feeds this, so the engine cannot drop the work.
let sink = 0;
const CHUNK = 1024;
const encodings = new Array<Encoded>(CHUNK);
function pass(): number {
  const n = messages.length;
  const t0 = performance.now();
  for (let start = 0; start < n; start += CHUNK) {
    const end = Math.min(n, start + CHUNK);
    for (let i = start; i < end; i++) encodings[i - start] = pc.encode(messages[i]!);
    for (let i = start; i < end; i++) sink = (sink + (pc.decode(encodings[i - start]!) as { num: number }).num) | 0;
  }
  return ((performance.now() - t0) * 1e6) / n;
}

pass();
pass();
const passes = Array.from({ length: Number(repetitionsArg) }, pass);
const sorted = [...passes].sort((a, b) => a - b);
process.stdout.write(
  JSON.stringify({ codec: codecName, payload, nsPerMessage: sorted[sorted.length >> 1], passes, sink }) + "\n",
);
