/**
 * Equality for decoded messages: the same own keys, strings equal, numbers
 * bit-exact (Object.is, so -0 is not 0 and NaN equals NaN). A codec must pass
 * this for every message before any of its timings count.
 */

import type { Message } from "../../protocols/messages.ts";

/**
 * The fast check, for verifying 100,000 messages per case; `describeMismatch`
 * says why when this fails.
 */
export function sameMessage(expected: Message, actual: unknown): boolean {
  if (actual === null || typeof actual !== "object") return false;
  const e = expected as unknown as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  let keys = 0;
  for (const key in e) {
    keys++;
    const x = e[key];
    const y = a[key];
    if (x !== y) {
      if (!(x !== x && y !== y)) return false; // NaN equals NaN
    } else if (x === 0 && 1 / (x as number) !== 1 / (y as number)) {
      return false; // -0 is not 0
    }
  }
  let actualKeys = 0;
  for (const key in a) {
    if (!Object.hasOwn(a, key)) return false;
    actualKeys++;
  }
  return keys === actualKeys;
}

/** undefined when equal, otherwise one line saying where they differ. */
export function describeMismatch(expected: Message, actual: unknown): string | undefined {
  if (actual === null || typeof actual !== "object") return `decoded a ${actual === null ? "null" : typeof actual}, not an object`;
  const e = expected as unknown as Record<string, unknown>;
  const a = actual as Record<string, unknown>;
  const keys = Object.keys(e);
  const actualKeys = Object.keys(a);
  if (actualKeys.length !== keys.length) return `fields [${actualKeys.join(", ")}], expected [${keys.join(", ")}]`;
  for (const key of keys) {
    if (!Object.hasOwn(a, key)) return `field '${key}' is missing`;
    const x = e[key];
    const y = a[key];
    if (typeof x === "number" ? !Object.is(x, y) : x !== y) {
      return `field '${key}': expected ${show(x)}, got ${show(y)}`;
    }
  }
  return undefined;
}

function show(v: unknown): string {
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  return JSON.stringify(v) ?? String(v);
}
