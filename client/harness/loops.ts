/**
 * The timed loops. Each (codec, payload, phase) gets its own copy of the
 * loop, compiled from source with `new Function`, so its call site
 * `fn(inputs[i])` sees exactly one function. One shared loop would turn
 * megamorphic once a second codec ran through it and punish whichever codec
 * runs later (closures from one function literal share that state in
 * JavaScriptCore and V8 alike).
 */

/**
 * Runs `fn` over `inputs[0..n)`, storing each result in the ring
 * `outputs[i & mask]` (the sink: the engine cannot drop work whose result is
 * stored and later checked). A ring rather than one slot per message, so
 * results die young as they do in an application that handles a message and
 * moves on; keeping 100,000 decoded objects alive would charge every codec
 * for garbage-collector scans of a heap no real client holds.
 * Times the whole loop once, and every batch of `batch` calls on its own.
 * Returns the whole-loop time in ms; batch times (ms) go into `batchTimes`.
 */
export type TimedLoop = (
  now: () => number,
  fn: (input: unknown) => unknown,
  inputs: readonly unknown[],
  outputs: unknown[],
  mask: number,
  n: number,
  batch: number,
  batchTimes: Float64Array,
) => number;

const LOOP_SOURCE = `
  const t0 = now();
  let k = 0;
  for (let b = 0; b < n; b += batch) {
    const e = b + batch < n ? b + batch : n;
    const s = now();
    for (let i = b; i < e; i++) outputs[i & mask] = fn(inputs[i]);
    batchTimes[k++] = now() - s;
  }
  return now() - t0;
`;

/**
 * Whether this realm may compile code from strings. A page served with a
 * strict Content-Security-Policy (no 'unsafe-eval': `bun run server --csp
 * strict`) may not; there the loops below are closures of one literal,
 * shared by every codec, as a CSP-bound application's own loops would be.
 */
export const CAN_COMPILE: boolean = (() => {
  try {
    return new Function("return true")() === true;
  } catch {
    return false;
  }
})();

/** The timed loop as a closure, where code cannot be compiled from strings (CAN_COMPILE). */
function sharedLoop(): TimedLoop {
  return (now, fn, inputs, outputs, mask, n, batch, batchTimes) => {
    const t0 = now();
    let k = 0;
    for (let b = 0; b < n; b += batch) {
      const e = b + batch < n ? b + batch : n;
      const s = now();
      for (let i = b; i < e; i++) outputs[i & mask] = fn(inputs[i]);
      batchTimes[k++] = now() - s;
    }
    return now() - t0;
  };
}

/** A fresh, never-shared copy of the timed loop (a shared closure without CAN_COMPILE). `label` only names it in profiles. */
export function compileLoop(label: string): TimedLoop {
  if (!CAN_COMPILE) return sharedLoop();
  const name = label.replace(/[^A-Za-z0-9_]/g, "_");
  // The function is named so it shows up by codec and phase in a profiler.
  const factory = new Function(
    `return function loop_${name}(now, fn, inputs, outputs, mask, n, batch, batchTimes) {${LOOP_SOURCE}}`,
  );
  return factory() as TimedLoop;
}

/**
 * `encode(decode(frame))` of one codec (the server's echo), compiled from source for that codec
 * alone, so its two calls see that codec's functions only: a closure written once for every codec
 * would share its call sites' profiles between them in JavaScriptCore, as a shared loop would.
 */
export function compileEcho(
  label: string,
  codec: { encode(m: never): unknown; decode(d: never): unknown },
): (frame: unknown) => unknown {
  if (!CAN_COMPILE) return (frame) => codec.encode(codec.decode(frame as never) as never);
  const name = label.replace(/[^A-Za-z0-9_]/g, "_");
  const factory = new Function(
    "encode",
    "decode",
    `return function echo_${name}(frame) { return encode(decode(frame)); }`,
  );
  return factory(codec.encode, codec.decode) as (frame: unknown) => unknown;
}

/**
 * A decode and the checks that make its result trustworthy, `check(decode(frame))` returning the
 * message (the validated pattern, protocols/validation.ts), compiled for that codec alone as
 * compileEcho is.
 */
export function compileValidated(
  label: string,
  decode: (d: never) => unknown,
  check: (m: unknown) => void,
): (frame: unknown) => unknown {
  if (!CAN_COMPILE) {
    return (frame) => {
      const m = decode(frame as never);
      check(m);
      return m;
    };
  }
  const name = label.replace(/[^A-Za-z0-9_]/g, "_");
  const factory = new Function(
    "decode",
    "check",
    `return function validated_${name}(frame) { const m = decode(frame); check(m); return m; }`,
  );
  return factory(decode, check) as (frame: unknown) => unknown;
}

/** Slots in the result ring of a timed loop (a power of two). */
export const SINK_SIZE = 1024;
