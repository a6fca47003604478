/**
 * Evolve mode (docs/schema-evolution.md): what a reader on one version of a
 * payload's messages reads from a writer on another. For each payload, six
 * changes are made to its messages, each from the payload's own fields:
 *
 * - field-added: every message gains a field (`addedNote`, a string), last;
 * - field-removed: the last field every message holds is gone;
 * - field-renamed: the first field every message holds takes a new name, in
 *   its place;
 * - number-widened: a field of integers now holds fractions (an int becomes
 *   a double);
 * - enum-member-added: a field of a few recurring strings (an enum) gains a
 *   value it never held;
 * - optional-left-out: the last field of strings, numbers or booleans every
 *   message holds is left out of every other message (it becomes optional).
 *
 * Each change runs both ways: an old reader of the new writer's messages
 * (forward compatibility), a new reader of the old writer's (backward). The
 * codec's writer and reader are made with its own mechanism
 * (protocols/evolution.ts); every message is encoded for real by the one and
 * decoded by the other, and what the reader got is set beside what it should
 * read: the writer's message, in the reader's field names.
 */

import { evolvingPair, type PayloadVersion } from "../../protocols/evolution.ts";
import {
  type CompiledCodec,
  type CompiledVersion,
  compileVersions,
  isCompiledCodec,
  type SchemaCompilers,
  type VersionRequest,
} from "../../protocols/compiled-versions.ts";
import type { VersionCodec } from "../../protocols/evolution-schemas.ts";
import type { Codec } from "../../protocols/codec.ts";
import type { UserLayout } from "../../protocols/custom-binary.ts";
import { isBuiltIn, type Message, type PayloadName } from "../../protocols/messages.ts";
import { inferLayout, LayoutError, TAG_NAMES } from "../../custom-binary/infer.ts";
import { sameValue } from "./verify.ts";
import type { EvolveChange, EvolveDirection, EvolveOutcome, EvolveRow } from "./results.ts";
import { messagesFor } from "./generator.ts";
import type { BenchmarkHooks } from "./progress.ts";
import { checksOwnRoundTrip, codecsWithoutServer, type Settings } from "./settings.ts";

export const EVOLVE_CHANGES: readonly EvolveChange[] = [
  "field-added",
  "field-removed",
  "field-renamed",
  "number-widened",
  "enum-member-added",
  "optional-left-out",
];

const EVOLVE_DIRECTIONS: readonly EvolveDirection[] = ["old-reader", "new-reader"];

/** A change made to a payload's messages: the two versions, and the field it touches. */
export interface PayloadChange {
  change: EvolveChange;
  /** The field changed, by its old name. */
  field: string;
  before: Message[];
  after: Message[];
  /** field-renamed: the field's name after. */
  renamedTo?: string;
}

/** The name field-added gives its field. */
export const ADDED_FIELD = "addedNote";
/** The value enum-member-added puts in every fourth message. */
export const ADDED_MEMBER = "added-member";

type Fields = Record<string, unknown>;

/**
 * The fields every message holds, in the first message's order, but a union's tag (which a change
 * to would change the kind): any field named as tags are, and the tag the payload's layout infers.
 */
function commonFields(messages: readonly Message[]): string[] {
  const first = Object.keys(messages[0] as Fields);
  let tag: string | undefined;
  try {
    const layout = inferLayout(messages);
    if (layout.kind === "union") tag = layout.tag;
  } catch (e) {
    if (!(e instanceof LayoutError)) throw e;
  }
  return first.filter(
    (k) => k !== tag && !TAG_NAMES.includes(k) && messages.every((m) => Object.hasOwn(m as Fields, k)),
  );
}

/** `m` with `fn` applied to its fields, their order kept. */
function rebuilt(m: Message, fn: (key: string, value: unknown) => [string, unknown][]): Message {
  return Object.fromEntries(Object.entries(m as Fields).flatMap(([k, v]) => fn(k, v))) as Message;
}

/** The change made to `messages`, or why the payload has nothing it applies to. */
export function changeOf(change: EvolveChange, messages: readonly Message[]): PayloadChange | { reason: string } {
  const before = [...messages];
  if (before.length === 0) return { reason: "no messages" };
  const common = commonFields(before);
  const last = common.at(-1);
  const made = (field: string, after: Message[], renamedTo?: string): PayloadChange => ({
    change,
    field,
    before,
    after,
    ...(renamedTo !== undefined ? { renamedTo } : {}),
  });
  switch (change) {
    case "field-added":
      return made(
        ADDED_FIELD,
        before.map((m, i) => ({ ...(m as Fields), [ADDED_FIELD]: `note ${i}` }) as Message),
      );
    case "field-removed":
      if (last === undefined) return { reason: "no field every message holds" };
      return made(
        last,
        before.map((m) => rebuilt(m, (k, v) => (k === last ? [] : [[k, v]]))),
      );
    case "field-renamed": {
      const field = common[0];
      if (field === undefined) return { reason: "no field every message holds" };
      const to = `${field}Renamed`;
      return made(
        field,
        before.map((m) => rebuilt(m, (k, v) => [[k === field ? to : k, v]])),
        to,
      );
    }
    case "number-widened": {
      const field = common.find((k) => before.every((m) => Number.isSafeInteger((m as Fields)[k])));
      if (field === undefined) return { reason: "no field of integers every message holds" };
      return made(
        field,
        before.map((m) => rebuilt(m, (k, v) => [[k, k === field ? (v as number) + 0.5 : v]])),
      );
    }
    case "enum-member-added": {
      const field = common.find((k) => {
        const values = before.map((m) => (m as Fields)[k]);
        if (!values.every((v) => typeof v === "string")) return false;
        const distinct = new Set(values).size;
        // As custom-binary's inference takes a string field for an enum: a few values, each recurring.
        return distinct >= 2 && distinct <= 32 && values.length >= 2 * distinct;
      });
      if (field === undefined) return { reason: "no field of a few recurring strings (an enum) every message holds" };
      return made(
        field,
        before.map((m, i) => (i % 4 === 3 ? rebuilt(m, (k, v) => [[k, k === field ? ADDED_MEMBER : v]]) : m)),
      );
    }
    case "optional-left-out": {
      // A scalar: a list left out is a list's own question (proto3 cannot tell an absent list from an empty one).
      const field = common.findLast((k) =>
        before.every((m) => ["string", "number", "boolean"].includes(typeof (m as Fields)[k])),
      );
      if (field === undefined) return { reason: "no field of strings, numbers or booleans every message holds" };
      return made(
        field,
        before.map((m, i) => (i % 2 === 1 ? rebuilt(m, (k, v) => (k === field ? [] : [[k, v]])) : m)),
      );
    }
  }
}

/** The fields of the messages in the order they first show them (the order an inferred layout takes). */
function fieldOrder(messages: readonly Message[]): string[] {
  const seen = new Set<string>();
  for (const m of messages) for (const k of Object.keys(m as Fields)) seen.add(k);
  return [...seen];
}

/**
 * The field numbers of both versions, as a .proto kept across the change would have them: the old
 * version's in their order from 1; the new one keeps each old field's number (a renamed field, its
 * old name's), and a new field takes the next.
 */
export function fieldNumbers(change: PayloadChange): { before: Map<string, number>; after: Map<string, number> } {
  const before = new Map(fieldOrder(change.before).map((k, i) => [k, i + 1]));
  let next = before.size;
  const after = new Map(
    fieldOrder(change.after).map((k) => [k, before.get(k === change.renamedTo ? change.field : k) ?? ++next]),
  );
  return { before, after };
}

/** A version's layout, inferred from its messages as custom-binary infers one for your own (or why none carries them). */
function layoutOf(messages: readonly Message[], fieldNumbers: ReadonlyMap<string, number>): UserLayout {
  try {
    return { layout: inferLayout(messages), fieldNumbers };
  } catch (e) {
    if (e instanceof LayoutError) return { reason: e.message };
    throw e;
  }
}

const isDefault = (v: unknown): boolean =>
  v === 0 ||
  v === "" ||
  v === false ||
  v === null ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && v !== null && Object.keys(v).length === 0);

const show = (v: unknown): string => {
  if (v === undefined) return "absent";
  if (typeof v === "number") return Object.is(v, -0) ? "-0" : String(v);
  const s = JSON.stringify(v) ?? String(v);
  return s.length > 40 ? `${s.slice(0, 37)}...` : s;
};

/** The outcomes of a read, best first: silently wrong the worst, a read no reader can guard against. */
const RANK = {
  exact: 0,
  "extra-ignored": 1,
  "missing-defaulted": 2,
  error: 3,
  "silently-wrong": 4,
} as const;

/**
 * What the reader got for one message, against what it should read: `view`, the writer's message
 * with its fields in the reader's names. `touched`: the fields the change touched, in the
 * reader's names (every other field must read as written); `readerFields`: the fields the reader's
 * version holds; `renamed`: a renamed field's name in the writer's version and in the reader's (a
 * reader that keeps the writer's name got it as written, not from nowhere); `own`: the writer's
 * message as the writer's own version reads it back, in the reader's names, where that differs
 * (pbf's compiled code reads a field left out as its default): an untouched field the writer left
 * out may read as that default, since the change did not cause it, and the detail says so.
 */
export function classify(
  view: Fields,
  got: unknown,
  touched: ReadonlySet<string>,
  readerFields: ReadonlySet<string>,
  renamed?: { writer: string; reader: string },
  own?: Fields,
): { outcome: Exclude<keyof typeof RANK, "error">; detail: string } {
  if (got === null || typeof got !== "object" || Array.isArray(got))
    return { outcome: "silently-wrong", detail: `read ${show(got)}, not an object` };
  const g = got as Fields;
  const at = (k: string): unknown => (Object.hasOwn(g, k) ? g[k] : undefined);
  let outcome: Exclude<keyof typeof RANK, "error"> = "exact";
  const notes: string[] = [];
  const worse = (o: Exclude<keyof typeof RANK, "error">, note: string): void => {
    if (RANK[o] > RANK[outcome]) outcome = o;
    notes.push(note);
  };
  for (const k of new Set([...Object.keys(view), ...Object.keys(g), ...touched])) {
    const written = Object.hasOwn(view, k);
    const read = at(k);
    // A field the change did not touch reads as written, or is absent on both sides.
    if (!touched.has(k)) {
      // Not written, read as the default the writer's own version reads there too: the codec's, not the change's.
      const asOwn =
        !written && read !== undefined && own !== undefined && Object.hasOwn(own, k) && sameValue(own[k], read);
      if (k === renamed?.writer && read !== undefined && !written)
        notes.push(`'${k}' (its name in the writer's version) read as written`);
      else if (asOwn) notes.push(`'${k}' read as ${show(read)}, as the writer's own version reads it`);
      else if (written ? !sameValue(view[k], read) : read !== undefined)
        worse("silently-wrong", `'${k}': wrote ${written ? show(view[k]) : "nothing"}, read ${show(read)}`);
      continue;
    }
    const known = readerFields.has(k);
    if (written && known) {
      // Written under its other name (a rename the format does not follow): the reader lacks it.
      if (
        renamed !== undefined &&
        k === renamed.reader &&
        (read === undefined || isDefault(read)) &&
        !sameValue(view[k], read)
      )
        worse(
          "missing-defaulted",
          `'${k}' ${read === undefined ? "absent" : `read as ${show(read)}`} (written as '${renamed.writer}')`,
        );
      else if (!sameValue(view[k], read)) worse("silently-wrong", `'${k}': wrote ${show(view[k])}, read ${show(read)}`);
    } else if (written) {
      if (read === undefined) worse("extra-ignored", `'${k}' (unknown to the reader) dropped`);
      else if (sameValue(view[k], read)) notes.push(`'${k}' (unknown to the reader) read as written`);
      else worse("silently-wrong", `'${k}' (unknown to the reader): wrote ${show(view[k])}, read ${show(read)}`);
    } else if (known) {
      if (read === undefined) worse("missing-defaulted", `'${k}' (not written) absent`);
      else if (isDefault(read)) worse("missing-defaulted", `'${k}' (not written) read as ${show(read)}`);
      else worse("silently-wrong", `'${k}' (not written) read as ${show(read)}`);
    } else if (read !== undefined) worse("silently-wrong", `'${k}' read as ${show(read)}, in neither version`);
  }
  // The notes of the outcome first: the field that decided it.
  const first = notes.filter((n) => outcome === "exact" || !n.includes("read as written"));
  const said = (first.length > 0 ? first : notes).join("; ");
  return { outcome, detail: said || "every field as written" };
}

/** `m` with its fields in the other version's names. */
const renamedView = (m: Message, from: string | undefined, to: string | undefined): Fields =>
  from === undefined || to === undefined
    ? { ...(m as Fields) }
    : (rebuilt(m, (k, v) => [[k === from ? to : k, v]]) as Fields);

/** A change's two versions, each with the layout its schema codecs are made from. */
interface Versions {
  old: PayloadVersion;
  new: PayloadVersion;
}

/** The two versions of `change` on `payload`: their layouts inferred once, for every codec and both ways. */
function versionsOf(payload: PayloadName, change: PayloadChange): Versions {
  const numbers = fieldNumbers(change);
  const version = (tag: "old" | "new"): PayloadVersion => {
    const messages = tag === "old" ? change.before : change.after;
    // A new enum member goes after the old ones, as a schema's author appends it: the new layout is
    // inferred from the old messages, then the new (an enum numbers its values in the order first seen).
    const sample = tag === "new" && change.change === "enum-member-added" ? [...change.before, ...messages] : messages;
    return {
      name: `${payload}@${tag}`,
      messages,
      layout: layoutOf(sample, tag === "old" ? numbers.before : numbers.after),
    };
  };
  const old = version("old");
  return { old, new: { ...version("new"), base: old } };
}

/**
 * One row: `codec` writing one version's messages, read by a reader of the other. `ownTrips`: the
 * codec changes these messages even unchanged (your messages with --allow-lossy or --equal), so
 * what the reader should read is the writer's message as the codec's own round trip gives it.
 */
function evolveRow(
  codec: Codec,
  payload: PayloadName,
  change: PayloadChange,
  versions: Versions,
  direction: EvolveDirection,
  ownTrips: boolean,
  compiled?: CompiledLookup,
): EvolveRow {
  const row = (outcome: EvolveOutcome, detail: string, messages = 0): EvolveRow => ({
    codec: codec.name,
    payload,
    change: change.change,
    direction,
    outcome,
    detail,
    messages,
  });
  const [writerMessages, readerMessages] =
    direction === "old-reader" ? [change.after, change.before] : [change.before, change.after];
  const oldName = change.field;
  const newName = change.renamedTo;
  // A renamed field: its name in the writer's version and in the reader's.
  const [wName, rName] = direction === "old-reader" ? [newName, oldName] : [oldName, newName];
  const [writer, reader] = direction === "old-reader" ? [versions.new, versions.old] : [versions.old, versions.new];
  let made: ReturnType<typeof evolvingPair>;
  try {
    made = evolvingPair(
      codec,
      payload,
      writer,
      reader,
      // Only a new reader knows the name the field had before it (an old reader cannot know the next one).
      newName !== undefined && direction === "new-reader" ? { writer: wName!, reader: rName! } : undefined,
      compiled,
    );
  } catch (e) {
    return row("error", `making the writer and the reader: ${(e as Error).message.split("\n")[0]}`);
  }
  if ("notRun" in made) return row("not-run", made.notRun);
  if ("refused" in made) return row("error", `the reader's schema refuses the writer's: ${made.refused}`);
  // The writer's own version, reading its own messages: what an unchanged reader gets. Wanted where
  // the run holds a codec to its own round trip (ownTrips), and for a compiled codec, whose own
  // version may read a field left out as its default (pbf: ownReadBack lets that, and only that, pass).
  const ownMatters = !ownTrips && isCompiledCodec(codec.name);
  let same: ReturnType<typeof evolvingPair> | undefined;
  try {
    same = ownTrips || ownMatters ? evolvingPair(codec, payload, writer, writer, undefined, compiled) : undefined;
  } catch {
    same = undefined;
  }
  const ownTrip = (m: Message): Message | undefined => {
    if (same === undefined || !("pair" in same)) return undefined;
    try {
      return same.pair.decode(same.pair.encode(m)) as Message;
    } catch {
      return undefined;
    }
  };
  const expected = (m: Message): Message => (ownTrips ? (ownTrip(m) ?? m) : m);
  const readerFields = new Set(readerMessages.flatMap((m) => Object.keys(m as Fields)));
  // In the reader's names: the field the change touched (a rename: under the reader's name).
  const touched = new Set([rName ?? change.field]);
  let worst: { outcome: EvolveOutcome; detail: string; index: number } | undefined;
  const counts = new Map<EvolveOutcome, number>();
  const rank = (o: EvolveOutcome): number => RANK[o as keyof typeof RANK];
  for (const [i, m] of writerMessages.entries()) {
    let outcome: EvolveOutcome;
    let detail: string;
    try {
      let encoded: ReturnType<typeof made.pair.encode>;
      try {
        encoded = made.pair.encode(m);
      } catch (e) {
        throw new Error(`the writer: ${(e as Error).message.split("\n")[0]}`);
      }
      const link = wName !== undefined ? { writer: wName, reader: rName! } : undefined;
      const own = ownMatters ? ownTrip(m) : undefined;
      ({ outcome, detail } = classify(
        renamedView(expected(m), wName, rName),
        made.pair.decode(encoded),
        touched,
        readerFields,
        link,
        own === undefined || sameValue(own, m) ? undefined : renamedView(own, wName, rName),
      ));
    } catch (e) {
      outcome = "error";
      detail = (e as Error).message.split("\n")[0]!;
    }
    counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
    if (!worst || rank(outcome) > rank(worst.outcome)) worst = { outcome, detail, index: i };
  }
  const n = writerMessages.length;
  const w = worst!;
  const count = counts.get(w.outcome)!;
  const where =
    w.outcome === "exact" ? "" : `message ${w.index + 1}${count > 1 ? ` (and ${count - 1} more of ${n})` : ""}: `;
  // The other messages that were not read as written, by outcome: an error beside wrong reads is worth knowing.
  const others = [...counts]
    .filter(([o]) => o !== w.outcome && o !== "exact")
    .sort((a, b) => rank(b[0]) - rank(a[0]))
    .map(([o, k]) => `${k} ${o}`);
  return row(w.outcome, `${where}${w.detail}${others.length > 0 ? ` (besides: ${others.join(", ")})` : ""}`, n);
}

/** Each change made to a payload's messages, with its two versions; or why the payload has nothing it applies to. */
type PreparedChange = { change: EvolveChange } & ({ made: PayloadChange; versions: Versions } | { reason: string });

/** Every change to `messages`, made once for every codec. */
function prepareChanges(payload: PayloadName, messages: readonly Message[]): PreparedChange[] {
  return EVOLVE_CHANGES.map((change) => {
    const made = changeOf(change, messages);
    return "reason" in made ? { change, reason: made.reason } : { change, made, versions: versionsOf(payload, made) };
  });
}

/** A version's writer and reader on the code its compiler made (compiled codecs only). */
type CompiledLookup = (v: PayloadVersion) => CompiledVersion | undefined;

/**
 * Whether a version's own reader reads back what its own writer wrote: undefined when it does, else
 * the first message that differs. A field the writer left out may come back as its type's default
 * (pbf's compiled code has no proto3 `optional`); anything else means the version cannot stand
 * for its format, and it does not run.
 */
export function ownReadBack(codec: VersionCodec, messages: readonly Message[]): string | undefined {
  for (const [i, m] of messages.entries()) {
    let got: unknown;
    try {
      got = codec.decode(codec.encode(m));
    } catch (e) {
      return `message ${i + 1}: ${(e as Error).message.split("\n")[0]}`;
    }
    const w = m as Fields;
    const g = (got ?? {}) as Fields;
    for (const k of new Set([...Object.keys(w), ...Object.keys(g)])) {
      const written = Object.hasOwn(w, k);
      const read = Object.hasOwn(g, k) ? g[k] : undefined;
      if (written ? !sameValue(w[k], read) : read !== undefined && !isDefault(read))
        return `message ${i + 1}: '${k}': wrote ${written ? show(w[k]) : "nothing"}, read ${show(read)}`;
    }
  }
  return undefined;
}

/**
 * Every version of `changes` made for each compiled codec among `codecs` by its compiler, all of
 * a codec's at once (compileVersions): untimed, before any message is read. Only the changes
 * whose two versions both have a layout (the others have no rows to run); each version then reads
 * back its own messages, or does not run (ownReadBack). `progress`: told each codec before its
 * compiler runs.
 */
async function compileAll(
  codecs: readonly Codec[],
  changes: readonly PreparedChange[],
  compilers: SchemaCompilers | undefined,
  shouldStop: () => boolean,
  progress: (codec: Codec) => void = () => {},
): Promise<Map<string, CompiledLookup>> {
  const requests = new Map<PayloadVersion, VersionRequest>();
  const request = (v: PayloadVersion, label: string): void => {
    if ("reason" in v.layout || requests.has(v)) return;
    const base = v.base && requests.get(v.base);
    requests.set(v, { layout: v.layout.layout, numbers: v.layout.fieldNumbers, ...(base ? { base } : {}), label });
  };
  for (const c of changes) {
    if ("reason" in c || "reason" in c.versions.old.layout || "reason" in c.versions.new.layout) continue;
    const payload = c.versions.old.name.replace(/@old$/, "");
    request(c.versions.old, `${payload} (its old version)`);
    request(c.versions.new, `${payload}, ${c.change} (its new version)`);
  }
  const out = new Map<string, CompiledLookup>();
  for (const codec of codecs) {
    if (!isCompiledCodec(codec.name) || shouldStop()) continue;
    progress(codec);
    const made = await compileVersions(codec.name as CompiledCodec, [...requests.values()], compilers?.[codec.name]);
    const checked = new Map<PayloadVersion, CompiledVersion | undefined>();
    for (const [v, r] of requests) {
      const m = made.get(r);
      const wrong = m && "codec" in m ? ownReadBack(m.codec, v.messages) : undefined;
      checked.set(
        v,
        wrong === undefined ? m : { notRun: `its own version does not read back what it wrote: ${wrong}` },
      );
    }
    out.set(codec.name, (v) => checked.get(v));
  }
  return out;
}

/** One codec's rows on a payload: each change, both ways. */
function evolveCodec(
  codec: Codec,
  payload: PayloadName,
  changes: readonly PreparedChange[],
  ownTrips: boolean,
  compiled?: CompiledLookup,
): EvolveRow[] {
  return changes.flatMap((c) =>
    EVOLVE_DIRECTIONS.map(
      (direction): EvolveRow =>
        "reason" in c
          ? {
              codec: codec.name,
              payload,
              change: c.change,
              direction,
              outcome: "not-applicable",
              detail: c.reason,
              messages: 0,
            }
          : evolveRow(codec, payload, c.made, c.versions, direction, ownTrips, compiled),
    ),
  );
}

/** Every row of evolve mode for `codecs` on one payload's `messages`: each change, both ways. */
export async function evolvePayload(
  codecs: readonly Codec[],
  payload: PayloadName,
  messages: readonly Message[],
  ownTrips = false,
  compilers?: SchemaCompilers,
): Promise<EvolveRow[]> {
  const changes = prepareChanges(payload, messages);
  const compiled = await compileAll(codecs, changes, compilers, () => false);
  return codecs.flatMap((codec) => evolveCodec(codec, payload, changes, ownTrips, compiled.get(codec.name)));
}

/**
 * Evolve mode over the run's payloads and codecs (codecsWithoutServer): every row, in payload,
 * codec, change and direction order. A pair the run leaves out (your messages a codec changes)
 * gets a not-run row with the reason. It yields to the event loop after each codec, so a stop
 * (Ctrl-C) is heard there: the rows of the codecs done so far are kept.
 */
export async function runEvolveMode(
  settings: Pick<
    Settings,
    | "payloads"
    | "codecs"
    | "excluded"
    | "iterations"
    | "seed"
    | "fixed"
    | "userMessages"
    | "userProto"
    | "allowLossy"
    | "equal"
  >,
  catalog: readonly Codec[],
  hooks: BenchmarkHooks,
  now: () => number,
  compilers?: SchemaCompilers,
): Promise<EvolveRow[]> {
  const started = now();
  const names = codecsWithoutServer(settings);
  const codecs = names.flatMap((n) => catalog.filter((c) => c.name === n));
  const total = settings.payloads.length * codecs.length;
  let done = 0;
  const rows: EvolveRow[] = [];
  const progress = (codec: Codec, payload: PayloadName): void =>
    hooks.onProgress?.({
      mode: "evolve",
      stage: "run",
      codec: codec.name,
      payload,
      run: 0,
      runs: 1,
      done: ++done,
      total,
      elapsedMs: now() - started,
    });
  const prepared = settings.payloads.map((payload) => ({
    payload,
    changes: prepareChanges(payload, messagesFor(settings, payload, settings.iterations.evolve)),
  }));
  // Every version of every payload through each compiler at once, before any row.
  const compiled = await compileAll(
    codecs,
    prepared.flatMap((p) => p.changes),
    compilers,
    () => hooks.shouldStop?.() ?? false,
    // The compilers run before any row: the progress line names the codec whose versions are being made.
    (codec) =>
      hooks.onProgress?.({
        mode: "evolve",
        stage: "verify",
        codec: codec.name,
        payload: settings.payloads[0] ?? "",
        run: 0,
        runs: 1,
        done: 0,
        total,
        elapsedMs: now() - started,
      }),
  );
  payloads: for (const { payload, changes } of prepared) {
    const ownTrips = checksOwnRoundTrip(settings, payload);
    // Not run: a pair the run leaves out, and protobuf on your messages in your own .proto, of which
    // there is one version. A codec whose code a compiler makes runs on your messages here, though it
    // has no schema for them in the other modes: evolve mode writes each version's schema itself.
    const why = (c: Codec): string | undefined => {
      const left = settings.excluded.find((e) => e.codec === c.name && e.payload === payload)?.why;
      if (left !== undefined && !(isCompiledCodec(c.name) && c.notApplicable?.(payload) !== undefined)) return left;
      return c.name === "protobuf" && settings.userProto && !isBuiltIn(payload)
        ? "your messages are in your own .proto (--proto), of which evolve mode has one version, not the changed one"
        : undefined;
    };
    for (const codec of codecs) {
      if (hooks.shouldStop?.()) break payloads;
      const skip = why(codec);
      if (skip !== undefined)
        for (const change of EVOLVE_CHANGES)
          for (const direction of EVOLVE_DIRECTIONS)
            rows.push({ codec: codec.name, payload, change, direction, outcome: "not-run", detail: skip, messages: 0 });
      else rows.push(...evolveCodec(codec, payload, changes, ownTrips, compiled.get(codec.name)));
      progress(codec, payload);
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
  }
  return rows;
}
