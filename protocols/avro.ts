/**
 * Apache Avro binary encoding through avsc, with the schemas of
 * protocols/schemas/avro/ (one record schema per payload, namespace wsbench;
 * docs/schemas.md). Schemaless Avro: a message is its record's fields back
 * to back, with no schema or fingerprint in front (both ends hold the
 * schema, as with Protobuf).
 *
 * Types: uint32 is an Avro long (an int stops at 2^31 - 1), int32 an int,
 * doubles are doubles: -0, NaN and the infinities all survive. uint53 is a
 * long marked `"logicalType": "uint53"` (other Avro readers ignore the mark
 * and read a plain long): avsc's own long is a JS number but refuses
 * 2^53 - 1, so those fields go through a custom long (below) that is exact
 * up to 2^53 - 1 and throws beyond. chat's optional fields are unions
 * ["null", "long"] with default null: an absent field is written as null
 * (avsc writes a field's default for `undefined`), and a null read back is
 * left out of the decoded object. game-tick's state is an int (the number
 * the messages hold; an Avro enum would write the same byte but decode to
 * a string).
 *
 * Encode: `toBuffer`, which writes into avsc's shared buffer and returns a
 * fresh copy of exactly the message's bytes. Decode: `fromBuffer` (it throws
 * on a truncated frame and on trailing bytes) gives instances of the record
 * classes avsc generates; they are copied into plain objects, nested records
 * too, in protocols/shapes.ts's order. avsc has no option for plain objects:
 * `omitRecordMethods` only drops the methods on the classes' prototypes.
 * avsc reads through Node's Buffer methods, so a plain Uint8Array is
 * wrapped in a Buffer over the same memory first (no copy).
 *
 * Read one (readKey, key access "scan"): Avro writes a record's fields in
 * the schema's order with no tags or offsets, so the routing key is found
 * by reading the fields before it, through avsc's public per-type API
 * (keyScan below), and the read stops after the key.
 *
 * avsc generates each record type's reader, writer and class with
 * `new Function` when a schema is parsed (the codec's first use); it has no
 * path without it, so a page under a Content-Security-Policy needs
 * 'unsafe-eval' for this codec. The import is avsc's types-only entry
 * (its optional entry point for browser builds: no IDL, files or RPC), a
 * quarter of the size of the full browser build.
 */

import avsc from "avsc/etc/browser/avsc-types.js";
import { Buffer } from "buffer";
import type { Codec, Encoded, PayloadCodec } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import type { UserLayout } from "./custom-binary.ts";
import type { ObjectShape, UnionShape } from "../custom-binary/infer.ts";
import { avroSchemaOf, SchemaError, writtenOnce } from "./inferred-schemas.ts";
import type { ChatMessage, Entity, GameTickMessage, MarketMessage, Reaction } from "./message-sets.ts";
import {
  isBuiltIn,
  ROUTING_KEYS,
  type BuiltInPayload,
  type LargeMessage,
  type MediumMessage,
  type Message,
  type SmallMessage,
} from "./messages.ts";
import chatSchema from "./schemas/avro/chat.avsc" with { type: "json" };
import gameTickSchema from "./schemas/avro/game-tick.avsc" with { type: "json" };
import largeSchema from "./schemas/avro/large.avsc" with { type: "json" };
import marketSchema from "./schemas/avro/market.avsc" with { type: "json" };
import mediumSchema from "./schemas/avro/medium.avsc" with { type: "json" };
import smallSchema from "./schemas/avro/small.avsc" with { type: "json" };

/** A record as avsc decodes it: an instance of its generated class. */
type Decoded = Record<string, unknown>;

function chat(m: Decoded): ChatMessage {
  const reactions = m.reactions as Decoded[];
  const out: ChatMessage = {
    id: m.id as number,
    room: m.room as number,
    user: m.user as string,
    text: m.text as string,
    sentAt: m.sentAt as number,
    reactions: reactions.map((r): Reaction => ({ emoji: r.emoji as string, count: r.count as number })),
  };
  // An absent optional field went on the wire as the union's null branch.
  if (m.replyTo !== null) out.replyTo = m.replyTo as number;
  if (m.editedAt !== null) out.editedAt = m.editedAt as number;
  return out;
}

function gameTick(m: Decoded): GameTickMessage {
  const entities = m.entities as Decoded[];
  return {
    match: m.match as number,
    tick: m.tick as number,
    entities: entities.map(
      (e): Entity => ({
        id: e.id as number,
        state: e.state as number,
        x: e.x as number,
        y: e.y as number,
        z: e.z as number,
        vx: e.vx as number,
        vy: e.vy as number,
        vz: e.vz as number,
      }),
    ),
  };
}

/** Each built-in payload's schema, and the copy of its decoded record into a plain object. */
const PAYLOADS: Record<BuiltInPayload, { schema: typeof smallSchema; toPlain: (m: Decoded) => Message }> = {
  small: { schema: smallSchema, toPlain: (m) => ({ text: m.text, num: m.num }) as SmallMessage },
  medium: {
    schema: mediumSchema,
    toPlain: (m) => ({ text: m.text, text2: m.text2, num: m.num, decimal: m.decimal }) as MediumMessage,
  },
  large: {
    schema: largeSchema,
    toPlain: (m) =>
      ({
        text: m.text,
        text2: m.text2,
        text3: m.text3,
        text4: m.text4,
        num: m.num,
        decimal: m.decimal,
        num2: m.num2,
        decimal2: m.decimal2,
      }) as LargeMessage,
  },
  chat: { schema: chatSchema, toPlain: chat },
  "game-tick": { schema: gameTickSchema, toPlain: gameTick },
  market: {
    schema: marketSchema,
    toPlain: (m) =>
      ({
        symbol: m.symbol,
        seq: m.seq,
        ts: m.ts,
        bid: m.bid,
        bidSize: m.bidSize,
        ask: m.ask,
        askSize: m.askSize,
      }) as MarketMessage,
  },
};

/** Where the uint53 long writes its 8 bytes: avsc packs them into the frame at once. */
const longBytes = Buffer.alloc(8);

/**
 * The schemas' uint53 fields ({ "type": "long", "logicalType": "uint53" }): a
 * long read and written as a JS number up to 2^53 - 1 (avsc's default long
 * refuses 2^53 - 1), through avsc's hook for custom longs (LongType.__with:
 * the 64-bit two's complement value as 8 little-endian bytes, which avsc
 * turns into and out of Avro's zigzag varint). The other longs (uint32
 * fields) keep avsc's own, faster, long.
 */
const makeUint53 = () =>
  avsc.types.LongType.__with({
    fromBuffer: (b: Buffer): number => {
      const n = b.readInt32LE(4) * 4294967296 + b.readUInt32LE(0);
      if (!Number.isSafeInteger(n))
        throw new RangeError(`avro: long ${n} is beyond 2^53 - 1, no JS number holds it exactly`);
      return n;
    },
    toBuffer: (n: number): Buffer => {
      const high = Math.floor(n / 4294967296);
      longBytes.writeInt32LE(high, 4);
      longBytes.writeUInt32LE(n - high * 4294967296, 0);
      return longBytes;
    },
    fromJSON: Number,
    toJSON: (n: number): number => n,
    isValid: (n: unknown): boolean => Number.isSafeInteger(n),
    compare: (a: number, b: number): number => (a < b ? -1 : a > b ? 1 : 0),
  });

/** The parts of avsc's reading tap the guarded array reads. */
interface Tap {
  buf: Uint8Array;
  pos: number;
  readLong(): number;
  skipLong(): void;
}

/**
 * avsc checks a frame's bounds once the whole record is read (fromBuffer),
 * reading past its end until then, so a corrupt array count (a bad or
 * hostile frame) would loop over billions of items before that check. Each
 * array of the schemas is read by this subclass instead: a block claiming
 * more items than bytes are left (every item takes at least one) throws.
 * Otherwise the read is avsc's own (ArrayType.prototype._read).
 */
class GuardedArrayType extends avsc.types.ArrayType {
  _read(tap: Tap): unknown[] {
    const items = (this as unknown as { itemsType: { _read(tap: Tap): unknown } }).itemsType;
    let out: unknown[] | undefined;
    let i = 0;
    let n: number;
    while ((n = tap.readLong())) {
      if (n < 0) {
        n = -n;
        tap.skipLong(); // the block's size in bytes
      }
      if (n > tap.buf.length - tap.pos)
        throw new RangeError(
          `avro: an array block of ${n} items with ${Math.max(0, tap.buf.length - tap.pos)} bytes left`,
        );
      out ??= new Array<unknown>(n);
      while (n--) out[i++] = items._read(tap);
    }
    return out ?? [];
  }
}

let uint53: ReturnType<typeof makeUint53> | undefined;

/** Parses a payload's schema: its uint53 longs as `uint53`, its arrays guarded. */
function parse(schema: typeof smallSchema): InstanceType<typeof avsc.Type> {
  uint53 ??= makeUint53();
  return avsc.Type.forSchema(schema, {
    omitRecordMethods: true,
    typeHook: (s, opts) => {
      if (typeof s !== "object" || s === null) return undefined;
      if ((s as { logicalType?: unknown }).logicalType === "uint53") return uint53;
      return (s as { type?: unknown }).type === "array" ? new GuardedArrayType(s as never, opts) : undefined;
    },
  });
}

/** Parsed types, one per payload, made on first use (parsing generates code). */
const types = new Map<BuiltInPayload, InstanceType<typeof avsc.Type>>();

function typeOf(payload: BuiltInPayload): InstanceType<typeof avsc.Type> {
  let type = types.get(payload);
  if (type === undefined) {
    type = parse(PAYLOADS[payload].schema);
    types.set(payload, type);
  }
  return type;
}

/** The frame as a Buffer over the same bytes (avsc reads with Buffer's methods). */
function asBuffer(data: Encoded): Buffer {
  const bytes = data as Uint8Array;
  return bytes instanceof Buffer ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A plain Avro long, to read a string's length prefix with (readKey, below). */
let lengthType: InstanceType<typeof avsc.Type> | undefined;

/**
 * readKey: the record's fields before the routing key, then the key, each
 * read with its avsc type's `decode(buf, pos)` ({ value, offset }, offset
 * -1 where the value runs past the frame's end: then readKey throws, as
 * fromBuffer throws "truncated buffer"), stopping after the key; the
 * fields after it are not looked at (the trailing-data check is
 * fromBuffer's, and readKey is no validation). The record's generated
 * reader reads the same field types in the same order from the same
 * position (and avsc reads past the end of a frame only to fail the whole
 * record), so wherever fromBuffer reads a frame the key is the value it
 * holds in the key's field: converted as decode converts it, which for
 * these keys (uint32 longs, market's string symbol) is not at all.
 *
 * A string or bytes field before the key (the article payloads' texts) is
 * not decoded: its length prefix is read as a long and that many bytes
 * are stepped over, the steps avsc's own string reader takes (a negative
 * length fails the record there too).
 */
function keyScan(type: InstanceType<typeof avsc.Type>, payload: BuiltInPayload): (data: Encoded) => unknown {
  const fields = (type as InstanceType<typeof avsc.types.RecordType>).fields;
  const keyName = ROUTING_KEYS[payload];
  const k = fields.findIndex((f) => f.name === keyName);
  if (k < 0) throw new Error(`avro: ${type.name} has no field '${keyName}' to read the routing key from`);
  const before = fields.slice(0, k).map((f) => f.type);
  /** Per field before the key: whether it is a string or bytes (stepped over by its length). */
  const lengthPrefixed = before.map((t) => t.typeName === "string" || t.typeName === "bytes");
  const keyType = fields[k]!.type;
  lengthType ??= avsc.Type.forSchema("long");
  const length = lengthType;
  const truncated = (name: string): never => {
    throw new RangeError(
      `avro: truncated or malformed frame (field '${name}' runs past its end, or has a negative length)`,
    );
  };
  return (data: Encoded): unknown => {
    const buf = asBuffer(data);
    let pos = 0;
    for (let i = 0; i < before.length; i++) {
      if (lengthPrefixed[i]) {
        const n = length.decode(buf, pos);
        if (n.offset < 0 || n.value < 0) truncated(fields[i]!.name);
        pos = n.offset + n.value;
        if (pos > buf.length) truncated(fields[i]!.name);
      } else {
        const r = before[i]!.decode(buf, pos);
        if (r.offset < 0) truncated(fields[i]!.name);
        pos = r.offset;
      }
    }
    const key = keyType.decode(buf, pos);
    if (key.offset < 0) truncated(keyName);
    return key.value;
  };
}

/** A user payload's schema written from its inferred layout (inferred-schemas.ts), or why there is none. */
function inferredSchema(payload: string, layout: UserLayout): PayloadCodec | { reason: string } {
  if ("reason" in layout) return { reason: `no Avro schema written for your messages: ${layout.reason}` };
  let written: ReturnType<typeof avroSchemaOf>;
  try {
    written = avroSchemaOf(layout.layout, payload);
  } catch (e) {
    if (e instanceof SchemaError) return { reason: `no Avro schema written for your messages: ${e.message}` };
    throw e;
  }
  // Wrapped unions: a value of a union is one key, its branch's name, as the converters write it.
  let type: ReturnType<typeof avsc.Type.forSchema>;
  try {
    type = avsc.Type.forSchema(written.schema as Parameters<typeof avsc.Type.forSchema>[0], { wrapUnions: true });
  } catch (e) {
    // An .avsc written here that avsc refuses is this project's fault: say so, and run without it.
    return {
      reason: `the Avro schema written for your messages does not parse (${(e as Error).message.split("\n")[0]})`,
    };
  }
  const { toWire, fromWire } = written.convert;
  return {
    encode: (message: Message): Encoded => type.toBuffer(toWire(message)),
    decode: (data: Encoded): Message => fromWire(type.fromBuffer(asBuffer(data))) as Message,
  };
}

/**
 * Avro with the built-in payloads' schemas; with `inferred`, a user's
 * payloads too, each in the schema written from its inferred layout
 * (inferred-schemas.ts), the adapter between the message and that schema
 * part of the codec's time.
 */
export function avroCodecFor(inferred?: ReadonlyMap<string, UserLayout>): Codec {
  const writtenFor = writtenOnce((payload) => inferred?.get(payload), inferredSchema);
  return {
    name: "avro",
    description: "Apache Avro binary (avsc, protocols/schemas/avro/), binary frame",
    frame: "binary",
    family: "schema",
    standard: true,
    library: "avsc",
    keyAccess: "scan",
    // The schema fixes types and presence; its longs carry any integer, so the ranges are checked after it.
    decodeGuarantees: "types",
    notApplicable: (payload) => {
      if (isBuiltIn(payload)) return undefined;
      const own = writtenFor(payload);
      if (!own) return "no Avro schema for your own messages (protocols/schemas/avro/ has the built-in payloads')";
      return "reason" in own ? own.reason : undefined;
    },
    forPayload: (payload): PayloadCodec => {
      const own = isBuiltIn(payload) ? undefined : writtenFor(payload);
      if (own && !("reason" in own)) return own;
      if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `avro has no schema for '${payload}'`);
      const type = typeOf(payload);
      const { toPlain } = PAYLOADS[payload];
      return {
        encode: (message: Message): Encoded => type.toBuffer(message),
        decode: (data: Encoded): Message => toPlain(type.fromBuffer(asBuffer(data)) as Decoded),
        readKey: keyScan(type, payload),
      };
    },
  };
}

/** The built-in avro codec: the built-in payloads only. */
export const avro: Codec = avroCodecFor();

type AvroField = { name: string; type: unknown; default?: unknown; aliases?: string[] };
type AvroRecord = { type: "record"; name: string; fields: AvroField[] };

const isRecord = (schema: unknown): schema is AvroRecord =>
  typeof schema === "object" && schema !== null && (schema as { type?: unknown }).type === "record";

/** A field's default as Avro's specification allows it: a value of the field's type, or of a union's first branch; a record's, each of its fields'. */
function defaultOf(schema: unknown): { value: unknown } | undefined {
  const type = Array.isArray(schema) ? schema[0] : schema;
  if (isRecord(type)) {
    const value: Record<string, unknown> = {};
    for (const f of type.fields) {
      const d = "default" in f ? { value: f.default } : defaultOf(f.type);
      if (!d) return undefined;
      value[f.name] = d.value;
    }
    return { value };
  }
  const name = typeof type === "string" ? type : (type as { type?: unknown } | undefined)?.type;
  switch (name) {
    case "null":
      return { value: null };
    case "boolean":
      return { value: false };
    case "int":
    case "long":
    case "float":
    case "double":
      return { value: 0 };
    case "string":
      return { value: "" };
    case "array":
      return { value: [] };
    case "map":
      return { value: {} };
    case "enum":
      return { value: (type as { symbols: string[] }).symbols[0] };
    default:
      // A type named before (a record's own name): left without one.
      return undefined;
  }
}

/** A message's field as the schema names it: the key itself, or the name inferred-schemas.ts gives a key no format accepts (f3_my_key). */
function schemaField(fields: readonly AvroField[], key: string): AvroField | undefined {
  const safe = key.replace(/[^A-Za-z0-9_]/g, "_");
  return fields.find((f) => f.name === key) ?? fields.find((f) => new RegExp(`^f\\d+_${safe}_*$`).test(f.name));
}

/**
 * Schema evolution (evolve mode, docs/schema-evolution.md) the way Avro's specification has it:
 * the reader decodes with its own schema resolved against the writer's (it must have the writer's
 * schema: from a registry, or the connection's handshake). Both schemas are written from each
 * version's inferred layout, under the same record name; as the specification advises for a
 * record that will change, every field of the reader's record (of each record, a top union's
 * arms) has a default where its type allows one, and a field the reader renamed carries the
 * writer's name as an alias. Throws (a SchemaError or avsc's own
 * error) where a schema cannot be written or the reader's schema refuses the writer's.
 */
export function avroEvolution(
  name: string,
  writer: ObjectShape | UnionShape,
  reader: ObjectShape | UnionShape,
  renamed?: { writer: string; reader: string },
): { encode(message: Message): Encoded; decode(data: Encoded): unknown } {
  const w = avroSchemaOf(writer, name);
  const r = avroSchemaOf(reader, name);
  // The top record, or each record of a top union (its arms): every field a default, a renamed one its old name.
  const writerRecords = (Array.isArray(w.schema) ? w.schema : [w.schema]).filter(isRecord);
  const readerRecords = (Array.isArray(r.schema) ? r.schema : [r.schema]).filter(isRecord);
  for (const record of readerRecords) {
    const own = renamed ? schemaField(record.fields, renamed.reader) : undefined;
    const old = renamed
      ? schemaField(writerRecords.find((x) => x.name === record.name)?.fields ?? [], renamed.writer)
      : undefined;
    record.fields = record.fields.map((f) => {
      const d = defaultOf(f.type);
      return {
        ...f,
        ...(d && !("default" in f) ? { default: d.value } : {}),
        ...(own === f && old && old.name !== f.name ? { aliases: [old.name] } : {}),
      };
    });
  }
  // Each schema in a registry of its own: the two name the same record.
  const writerType = avsc.Type.forSchema(w.schema as Parameters<typeof avsc.Type.forSchema>[0], {
    wrapUnions: true,
    registry: {},
  });
  const readerType = avsc.Type.forSchema(r.schema as Parameters<typeof avsc.Type.forSchema>[0], {
    wrapUnions: true,
    registry: {},
  });
  const resolver = readerType.createResolver(writerType);
  return {
    encode: (message) => writerType.toBuffer(w.convert.toWire(message)),
    decode: (data) => r.convert.fromWire(readerType.fromBuffer(asBuffer(data), resolver)),
  };
}
