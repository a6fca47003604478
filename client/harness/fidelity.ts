/**
 * What a codec does to a user's own messages. The built-in payloads must
 * round-trip exactly or a codec fails; a user's messages may hold what a
 * format cannot carry (-0, integers beyond 2^53, `undefined`, a `Date`, a
 * `Uint8Array`), so instead each codec's round trip of every message is
 * compared with the original, and every difference is named by the field's
 * path and the kind of change, with how many messages it touched.
 *
 * A codec that changes a value is lossy: it is flagged in every output and
 * timed only with `--allow-lossy`, so a codec that does less work never
 * looks faster by it. A changed key order alone is reported, not lossy
 * (the same fields and values, in another order).
 */

import { errorText, type PayloadCodec } from "../../protocols/codec.ts";
import type { Message } from "../../protocols/messages.ts";

interface FidelityChange {
  /** The field's path, array indices as `[]`: `order.items[].price`; `(message)` for the message itself. */
  path: string;
  /** What happened to it: `-0 became 0`, `Date became string`, `key order changed`, ... */
  change: string;
  /** Messages in which it happened. */
  messages: number;
  /** The first message it happened in, counted from 1 in the file's order (a JSON Lines file's line, blank lines aside). */
  first: number;
  /** The user declared this kind of change no loss (`--equal`): reported, not lossy. */
  equal?: boolean;
}

/** Changes a user may declare no loss to them (`--equal LIST`), applied before deciding what is lossy. */
export const EQUAL_KINDS = ["negative-zero", "key-order", "undefined"] as const;
export type EqualKind = (typeof EQUAL_KINDS)[number];

/** Whether `change` is of a kind the user declared equal. Key order is never a loss. */
function declaredEqual(change: string, equal: readonly EqualKind[]): boolean {
  if (change === KEY_ORDER_CHANGED) return true;
  if (change === "-0 became 0") return equal.includes("negative-zero");
  if (change === "undefined dropped" || change.startsWith("undefined became ")) return equal.includes("undefined");
  return false;
}

export interface FidelityReport {
  codec: string;
  payload: string;
  /** Distinct messages checked (the file's). */
  messages: number;
  /** Messages that came back changed in any way. */
  changed: number;
  changes: FidelityChange[];
  /** A value changed (a changed key order alone is not a loss). */
  lossy: boolean;
  /** The codec threw on a message, with the first error: it cannot carry these messages at all. */
  error?: string;
}

/** The key order change, the one change that is not a loss. */
export const KEY_ORDER_CHANGED = "key order changed";

/** What a value is, for naming a change of type: Date, Uint8Array, bigint, array, null, ... */
function typeName(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v !== "object") return typeof v;
  const proto = Object.getPrototypeOf(v) as { constructor?: { name?: string } } | null;
  const name = proto?.constructor?.name;
  return proto === null || name === "Object" || name === undefined ? "object" : name;
}

function numberChange(a: number, b: unknown): string | undefined {
  if (typeof b === "number") {
    if (Object.is(a, b)) return undefined;
    if (Object.is(a, -0) && b === 0) return "-0 became 0";
    if (Number.isInteger(a) && !Number.isSafeInteger(a)) return "integer beyond 2^53 lost precision";
    return "number changed";
  }
  if (typeof b === "bigint") return "number became bigint";
  if (b === null && !Number.isFinite(a)) return `${String(a)} became null`;
  return `number became ${typeName(b)}`;
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

class Differ {
  /** "path\tchange" of this message's changes. */
  readonly found = new Set<string>();

  private note(path: string, change: string): void {
    this.found.add(`${path === "" ? "(message)" : path}\t${change}`);
  }

  compare(a: unknown, b: unknown, path: string): void {
    if (typeof a === "number") {
      const change = numberChange(a, b);
      if (change) this.note(path, change);
      return;
    }
    if (typeof a === "bigint") {
      if (typeof b === "bigint") {
        if (a !== b) this.note(path, "bigint changed");
      } else if (typeof b === "number") {
        this.note(
          path,
          Number.isSafeInteger(b) && BigInt(b) === a ? "bigint became number" : "bigint became number, precision lost",
        );
      } else this.note(path, `bigint became ${typeName(b)}`);
      return;
    }
    const ta = typeName(a);
    const tb = typeName(b);
    if (ta !== tb) {
      this.note(path, a === undefined ? "undefined became " + tb : `${ta} became ${tb}`);
      return;
    }
    if (a instanceof Date) {
      if (a.getTime() !== (b as Date).getTime() && !(Number.isNaN(a.getTime()) && Number.isNaN((b as Date).getTime())))
        this.note(path, "Date changed");
    } else if (a instanceof Uint8Array) {
      if (!bytesEqual(a, b as Uint8Array)) this.note(path, "bytes changed");
    } else if (Array.isArray(a)) {
      const bb = b as unknown[];
      if (a.length !== bb.length) this.note(path, `array of ${a.length} became ${bb.length}`);
      for (let i = 0; i < Math.min(a.length, bb.length); i++) this.compare(a[i], bb[i], `${path}[]`);
    } else if (ta === "object") {
      this.compareObjects(a as Record<string, unknown>, b as Record<string, unknown>, path);
    } else if (a !== b) {
      this.note(path, `${ta} changed`);
    }
  }

  private compareObjects(a: Record<string, unknown>, b: Record<string, unknown>, path: string): void {
    const prefix = path === "" ? "" : `${path}.`;
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    for (const k of keysA) {
      if (!Object.hasOwn(b, k)) this.note(prefix + k, a[k] === undefined ? "undefined dropped" : "field dropped");
      else this.compare(a[k], b[k], prefix + k);
    }
    for (const k of keysB) if (!Object.hasOwn(a, k)) this.note(prefix + k, `field added (${typeName(b[k])})`);
    const common = keysA.filter((k) => Object.hasOwn(b, k));
    const orderB = keysB.filter((k) => Object.hasOwn(a, k));
    if (common.some((k, i) => orderB[i] !== k)) this.note(path, KEY_ORDER_CHANGED);
  }
}

/** The changes of one message's round trip: "path\tchange" strings. */
export function messageChanges(original: unknown, decoded: unknown): Set<string> {
  const d = new Differ();
  d.compare(original, decoded, "");
  return d.found;
}

/** Round-trips every message through a fresh codec pair and names what came back changed. */
export function checkFidelity(
  codec: string,
  payload: string,
  pc: PayloadCodec,
  messages: readonly Message[],
  equal: readonly EqualKind[] = [],
): FidelityReport {
  const counts = new Map<string, number>();
  const firsts = new Map<string, number>();
  let changed = 0;
  for (let i = 0; i < messages.length; i++) {
    let found: Set<string>;
    try {
      found = messageChanges(messages[i], pc.decode(pc.encode(messages[i]!)));
    } catch (e) {
      return {
        codec,
        payload,
        messages: messages.length,
        changed: 0,
        changes: [],
        lossy: true,
        error: `message ${i + 1}: ${errorText(e)}`,
      };
    }
    if (found.size > 0) changed++;
    for (const f of found) {
      counts.set(f, (counts.get(f) ?? 0) + 1);
      if (!firsts.has(f)) firsts.set(f, i + 1);
    }
  }
  const changes = [...counts].map(([key, n]) => {
    const [path, change] = key.split("\t") as [string, string];
    const declared = change !== KEY_ORDER_CHANGED && declaredEqual(change, equal);
    return { path, change, messages: n, first: firsts.get(key)!, ...(declared ? { equal: true } : {}) };
  });
  return {
    codec,
    payload,
    messages: messages.length,
    changed,
    changes,
    lossy: changes.some((c) => !declaredEqual(c.change, equal)),
  };
}

/** One line of what a report found: `-0 became 0 at price (3 of 10 messages); ...`. */
export function fidelitySummary(r: FidelityReport): string {
  if (r.error) return `cannot carry these messages (${r.error})`;
  if (r.changes.length === 0) return `every message came back unchanged (${r.messages})`;
  return r.changes
    .map((c) => `${c.change} at ${c.path} (${c.messages} of ${r.messages}, first message ${c.first})`)
    .join("; ");
}
