/**
 * Equality for decoded messages, nested objects and arrays included: the
 * same own keys, strings equal, numbers bit-exact (Object.is, so -0 is not
 * 0 and NaN equals NaN), arrays of the same length, equal item by item. A
 * codec must pass this for every message before any of its timings count.
 */

import type { PayloadCodec } from "../../protocols/codec.ts";
import type { Message } from "../../protocols/messages.ts";

/** Two values equal as decoded messages compare them (numbers bit-exact, objects by their own keys). */
export function sameValue(x: unknown, y: unknown): boolean {
  if (x === y) return x !== 0 || 1 / (x as number) === 1 / (y as number); // -0 is not 0
  if (typeof x !== "object" || x === null || typeof y !== "object" || y === null) return x !== x && y !== y; // NaN equals NaN
  if (Array.isArray(x)) {
    if (!Array.isArray(y) || x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!sameValue(x[i], y[i])) return false;
    return true;
  }
  if (Array.isArray(y)) return false;
  return sameObject(x as Record<string, unknown>, y as Record<string, unknown>);
}

function sameObject(e: Record<string, unknown>, a: Record<string, unknown>): boolean {
  let keys = 0;
  for (const key in e) {
    keys++;
    if (!sameValue(e[key], a[key])) return false;
  }
  let actualKeys = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) return false;
    actualKeys++;
  }
  return keys === actualKeys;
}

/**
 * The fast check, for verifying 100,000 messages per case; `describeMismatch`
 * says why when this fails.
 */
export function sameMessage(expected: Message, actual: unknown): boolean {
  if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
  return sameObject(expected as Record<string, unknown>, actual as Record<string, unknown>);
}

/** undefined when equal, otherwise one line saying where they differ, naming the field's path. */
export function describeMismatch(expected: Message, actual: unknown): string | undefined {
  if (actual === null || typeof actual !== "object" || Array.isArray(actual))
    return `decoded ${kind(actual)}, not an object`;
  return objectMismatch(expected as Record<string, unknown>, actual as Record<string, unknown>, "");
}

function objectMismatch(e: Record<string, unknown>, a: Record<string, unknown>, path: string): string | undefined {
  const keys = Object.keys(e);
  const actualKeys = Object.keys(a);
  if (actualKeys.length !== keys.length)
    return `${path ? `'${path}': ` : ""}fields [${actualKeys.join(", ")}], expected [${keys.join(", ")}]`;
  for (const key of keys) {
    if (!Object.hasOwn(a, key)) return `field '${path}${key}' is missing`;
    const wrong = valueMismatch(e[key], a[key], `${path}${key}`);
    if (wrong !== undefined) return wrong;
  }
  return undefined;
}

function valueMismatch(x: unknown, y: unknown, path: string): string | undefined {
  if (sameValue(x, y)) return undefined;
  if (Array.isArray(x) && Array.isArray(y)) {
    if (x.length !== y.length) return `field '${path}': ${y.length} items, expected ${x.length}`;
    for (let i = 0; i < x.length; i++) {
      const wrong = valueMismatch(x[i], y[i], `${path}[${i}]`);
      if (wrong !== undefined) return wrong;
    }
  }
  const plain = (v: unknown): boolean => typeof v === "object" && v !== null && !Array.isArray(v);
  if (plain(x) && plain(y))
    return objectMismatch(x as Record<string, unknown>, y as Record<string, unknown>, `${path}.`);
  return `field '${path}': expected ${show(x)}, got ${show(y)}`;
}

function kind(v: unknown): string {
  return v === null ? "a null" : Array.isArray(v) ? "an array" : `a ${typeof v}`;
}

function show(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  return JSON.stringify(v) ?? String(v);
}

/**
 * What a lossy codec (timed with --allow-lossy) gives back for each
 * message: the expected values its decodes are checked against. A user's
 * file is cycled to fill a run, so each distinct message is round-tripped
 * once and its result shared.
 */
export function ownRoundTrips(pc: PayloadCodec, messages: readonly Message[]): Message[] {
  const seen = new Map<Message, Message>();
  return messages.map((m) => {
    let r = seen.get(m);
    if (r === undefined) seen.set(m, (r = pc.decode(pc.encode(m))));
    return r;
  });
}
