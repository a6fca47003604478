/**
 * `bun run between-messages [PAYLOAD] [MESSAGES] [CODECS]`: the server's echo
 * (decode a frame, encode what it gave) timed message by message in one
 * process, with no socket, under what a server does between two messages:
 * nothing (hot, as codec mode runs), busy on other work that touches little
 * memory, touching 4 MiB of unrelated memory, asleep for 50 µs, asleep for
 * 1 ms (as a server idle between round trips). Beside the codecs, a loop of
 * plain arithmetic (no memory, no allocation) of known length.
 *
 * It answers why a codec's cost inside a server (the field figure) differs
 * from codec mode's (the lab) without a socket in the way: if the codecs
 * slow down after a sleep but the arithmetic does not, the core's clock is
 * not what changed; caches and predictors are (docs/performance-notes.md,
 * "Lab and field").
 *
 * Codecs take turns in blocks of 50 messages, in a rotating order, so the
 * machine's drift hits them alike; each figure is the median over the
 * messages of one codec and regime.
 */

import { makeMessages } from "../../client/harness/generator.ts";
import { sameMessage } from "../../client/harness/verify.ts";
import { PAYLOAD_NAMES, type PayloadName } from "../../protocols/messages.ts";
import { spin } from "../../protocols/calibration.ts";
import { BUILT_IN } from "../../protocols/registry.ts";
import { pad } from "../report/format.ts";

const USAGE =
  "usage: bun run between-messages [PAYLOAD (default large)] [MESSAGES (default 600)] [CODECS, comma-separated]";
const BLOCK = 50;

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleepMs = (ms: number): void => void Atomics.wait(sleeper, 0, 0, ms);
const busyUs = (us: number): void => {
  const end = performance.now() + us / 1000;
  while (performance.now() < end);
};
/** 4 MiB that nothing else uses, read and written a cache line at a time. */
const unrelated = new Int32Array(1 << 20);
const touch = (): void => {
  for (let i = 0; i < unrelated.length; i += 16) unrelated[i]! += 1;
};

const REGIMES: readonly { name: string; between: () => void }[] = [
  { name: "hot (nothing between)", between: () => {} },
  { name: "busy 50 µs between", between: () => busyUs(50) },
  { name: "4 MiB touched between", between: touch },
  { name: "asleep 50 µs between", between: () => sleepMs(0.05) },
  { name: "asleep 1 ms between", between: () => sleepMs(1) },
];

function main(argv: string[]): number {
  const [payloadArg = "large", countArg = "600", codecsArg = "json,custom-binary,protobuf,msgpackr"] = argv;
  if (argv.includes("-h") || argv.includes("--help")) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!(PAYLOAD_NAMES as readonly string[]).includes(payloadArg)) {
    process.stderr.write(`between-messages: unknown payload '${payloadArg}'; valid: ${PAYLOAD_NAMES.join(", ")}\n`);
    return 2;
  }
  const count = Number(countArg);
  if (!Number.isInteger(count) || count < BLOCK || count > 100_000) {
    process.stderr.write(
      `between-messages: MESSAGES must be an integer from ${BLOCK} to 100000, got '${countArg}'; ${USAGE}\n`,
    );
    return 2;
  }
  const names = codecsArg.split(",");
  if (!names.includes("json")) names.unshift("json");
  const payload = payloadArg as PayloadName;
  const messages = makeMessages(payload, { count, seed: 1, fixed: false });
  const codecs = [];
  for (const name of names) {
    const codec = BUILT_IN.get(name);
    if (!codec) {
      process.stderr.write(`between-messages: unknown codec '${name}'\n`);
      return 2;
    }
    const pc = codec.forPayload(payload);
    const frames = messages.map((m) => pc.encode(m));
    if (!messages.every((m, i) => sameMessage(m, pc.decode(frames[i]!)))) {
      process.stderr.write(`between-messages: ${name} does not round-trip the ${payload} messages\n`);
      return 1;
    }
    codecs.push({ name, pc, frames });
  }
  // Warm-up: every codec's echo and the loop compiled by the optimising tiers before any timing.
  let sink = 0;
  for (let r = 0; r < 20; r++) {
    for (const c of codecs) for (const f of c.frames) sink += c.pc.encode(c.pc.decode(f)).length;
    for (let i = 0; i < 500; i++) sink += spin(1000);
  }
  const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
  const rows: string[][] = [];
  for (const regime of REGIMES) {
    const times = new Map<string, number[]>([
      ["arithmetic", []],
      ...codecs.map((c) => [c.name, []] as [string, number[]]),
    ]);
    const turns = [
      { name: "arithmetic", echo: (_i: number) => spin(1000) },
      ...codecs.map((c) => ({ name: c.name, echo: (i: number) => c.pc.encode(c.pc.decode(c.frames[i]!)).length })),
    ];
    for (let start = 0, k = 0; start < count; start += BLOCK, k++) {
      for (let t = 0; t < turns.length; t++) {
        const turn = turns[(t + k) % turns.length]!;
        const mine = times.get(turn.name)!;
        for (let i = start; i < Math.min(start + BLOCK, count); i++) {
          regime.between();
          const t0 = performance.now();
          sink += turn.echo(i);
          mine.push((performance.now() - t0) * 1e6);
        }
      }
    }
    const ns = new Map([...times].map(([name, xs]) => [name, median(xs)]));
    const json = ns.get("json")!;
    rows.push([
      regime.name,
      ...[...ns.values()].map((v) => v.toFixed(0)),
      ...codecs.filter((c) => c.name !== "json").map((c) => (ns.get(c.name)! / json).toFixed(2)),
    ]);
  }
  const header = [
    "between messages",
    "arithmetic",
    ...codecs.map((c) => c.name),
    ...codecs.filter((c) => c.name !== "json").map((c) => `${c.name}/json`),
  ];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)) + 2);
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => pad(c, widths[i]!, i > 0))
      .join("")
      .trimEnd();
  process.stdout.write(
    [
      `${payload} message, ${count} messages per codec and regime; median ns per message of the echo (decode, then encode what it gave), and of 1,000 steps of arithmetic; ratio to json`,
      "",
      line(header),
      ...rows.map(line),
    ].join("\n") + "\n",
  );
  // The work's results feed `sink`, so the engine cannot drop the work; it is never -1.
  if (sink === -1) process.stdout.write("\n");
  return 0;
}

if (import.meta.main) process.exitCode = main(process.argv.slice(2));
