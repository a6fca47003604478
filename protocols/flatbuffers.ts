/**
 * FlatBuffers through the `flatbuffers` runtime and the code `flatc --ts`
 * generates from protocols/schemas/flatbuffers/ (protocols/generated/
 * flatbuffers/, `npm run codegen`; docs/schemas.md).
 *
 * Encode: one flatbuffers.Builder per PayloadCodec, cleared for each
 * message; strings and vectors first (FlatBuffers builds back to front),
 * then the root table through the generated static add functions. The
 * finished buffer is a view into the builder's memory, which the next
 * encode overwrites, so encode returns a copy of it.
 *
 * Decode: FlatBuffers is a zero-copy format, read in place through
 * accessors; the benchmark wants a plain object, so decode reads every field
 * through the generated accessors into a new plain object (part of the
 * timed decode): ulong fields come back as bigints and become numbers
 * (below 2^53 they are exact), optional scalars read as null when absent
 * and are then left out of the object.
 *
 * What the format changes:
 * - A scalar equal to its schema default (0) is not written and reads back
 *   as the default: exact for every value but -0 in a table's double
 *   (medium, large, market), which `-0 != 0` drops and reads back as +0.
 *   Game-tick's entities are structs, written whole, so -0 survives there.
 *   NaN and the infinities survive everywhere.
 * - Strings are always written, so "" reads back as "" (a string never
 *   written would read as null).
 * - chat's replyTo/editedAt are optional scalars (`= null`). flatc 2.0.8's
 *   generated add functions pass 0 as the default even for those
 *   (google/flatbuffers#7863), which would drop a replyTo of 0; the encoder
 *   turns forceDefaults on around them, so a present 0 is written.
 * - The JavaScript runtime has no verifier and reads past the end of a
 *   buffer as zeros; decode bounds-checks every read (CheckedByteBuffer) and
 *   every vector's length against the frame, so a truncated or corrupt frame
 *   throws a RangeError instead of decoding to wrong values or looping over
 *   billions of phantom items.
 *
 * Read one (readKey, keyAccess "lazy"): what FlatBuffers is for. The frame
 * is opened as decode opens it (the same minimum length, bounds-checked
 * buffer and reused root table), and the routing key is read through its one
 * generated accessor: a root offset, a vtable lookup and the field, the
 * other fields never touched, so a frame decode refuses for a field other
 * than the key may still give its key. market's symbol goes through text(),
 * so a missing one throws as in decode.
 */

import { Builder, ByteBuffer, type Encoding } from "flatbuffers";
import { type Codec, type Encoded, type PayloadCodec, uint53 } from "./codec.ts";
import { CodecError } from "./codec-errors.ts";
import type { ChatMessage, Entity, GameTickMessage, MarketMessage, Reaction } from "./message-sets.ts";
import {
  isBuiltIn,
  type BuiltInPayload,
  type LargeMessage,
  type MediumMessage,
  type Message,
  type SmallMessage,
} from "./messages.ts";
import { Small } from "./generated/flatbuffers/small_generated.ts";
import { Medium } from "./generated/flatbuffers/medium_generated.ts";
import { Large } from "./generated/flatbuffers/large_generated.ts";
import { Chat, Reaction as ReactionTable } from "./generated/flatbuffers/chat_generated.ts";
import { GameTick, Entity as EntityStruct } from "./generated/flatbuffers/game-tick_generated.ts";
import { Market } from "./generated/flatbuffers/market_generated.ts";

/** Room the builder starts with; it grows (and keeps its size) for larger messages. */
const INITIAL_BUILDER_BYTES = 1024;
/** The smallest FlatBuffer with a root table: root offset, a 4-byte vtable, the table's vtable offset. */
const MIN_BYTES = 12;

/**
 * The runtime's ByteBuffer with every read bounds-checked. The JavaScript
 * runtime has no verifier: past the end of its bytes it reads zeros and
 * cuts strings short, so a truncated or corrupt frame would decode to wrong
 * values without an error. Every read the generated accessors make goes
 * through these four methods (the others are built on them), so a read past
 * the frame's end throws a RangeError instead. What it costs is in the
 * timed decode, as every other codec's bounds checks are.
 */
class CheckedByteBuffer extends ByteBuffer {
  private readonly end: number;

  constructor(bytes: Uint8Array) {
    super(bytes);
    this.end = bytes.length;
  }

  private past(offset: number, size: number): never {
    throw new RangeError(
      `flatbuffers: a read of ${size} bytes at offset ${offset} is outside the frame's ${this.end} bytes`,
    );
  }

  override readUint8(offset: number): number {
    if (!(offset >= 0 && offset < this.end)) this.past(offset, 1);
    return super.readUint8(offset);
  }

  override readUint16(offset: number): number {
    if (!(offset >= 0 && offset + 2 <= this.end)) this.past(offset, 2);
    return super.readUint16(offset);
  }

  override readInt32(offset: number): number {
    if (!(offset >= 0 && offset + 4 <= this.end)) this.past(offset, 4);
    return super.readInt32(offset);
  }

  override __string(offset: number, encoding?: Encoding): string | Uint8Array {
    const start = offset + this.readInt32(offset);
    const length = this.readInt32(start);
    if (length < 0 || start + 4 + length > this.end) this.past(start + 4, length);
    return super.__string(offset, encoding);
  }
}

/** The bytes to read, checked for the minimum length of a FlatBuffer, every read bounds-checked. */
function byteBuffer(data: Encoded): ByteBuffer {
  const bytes = data as Uint8Array;
  if (bytes.length < MIN_BYTES)
    throw new RangeError(`flatbuffers: ${bytes.length} bytes is too short for a FlatBuffer`);
  return new CheckedByteBuffer(bytes);
}

/** A vector's length, refused when its items cannot fit in the buffer. */
function vectorLength(length: number, itemBytes: number, bb: ByteBuffer): number {
  if (length < 0 || length * itemBytes > bb.capacity())
    throw new RangeError(`flatbuffers: a vector of ${length} items does not fit in ${bb.capacity()} bytes`);
  return length;
}

/** A string field: null only when it was never written, which this encoder never does. */
function text(s: string | null): string {
  if (s === null) throw new RangeError("flatbuffers: a string field is missing");
  return s;
}

/** Encoder and decoder of one payload kind, around one reused Builder. */
type Pair = (builder: Builder) => PayloadCodec;

/** The finished message: a copy, as the builder's view is overwritten by the next encode. */
function finish(builder: Builder, root: number): Uint8Array {
  builder.finish(root);
  return builder.asUint8Array().slice();
}

const small: Pair = (builder) => {
  const root = new Small();
  return {
    encode(message: Message): Encoded {
      const m = message as SmallMessage;
      builder.clear();
      const text = builder.createString(m.text);
      Small.startSmall(builder);
      Small.addText(builder, text);
      Small.addNum(builder, m.num);
      return finish(builder, Small.endSmall(builder));
    },
    decode(data: Encoded): Message {
      const t = Small.getRootAsSmall(byteBuffer(data), root);
      return { text: text(t.text()), num: t.num() } satisfies SmallMessage;
    },
    readKey(data: Encoded): number {
      return Small.getRootAsSmall(byteBuffer(data), root).num();
    },
  };
};

const medium: Pair = (builder) => {
  const root = new Medium();
  return {
    encode(message: Message): Encoded {
      const m = message as MediumMessage;
      builder.clear();
      const text = builder.createString(m.text);
      const text2 = builder.createString(m.text2);
      Medium.startMedium(builder);
      Medium.addText(builder, text);
      Medium.addText2(builder, text2);
      Medium.addNum(builder, m.num);
      Medium.addDecimal(builder, m.decimal);
      return finish(builder, Medium.endMedium(builder));
    },
    decode(data: Encoded): Message {
      const t = Medium.getRootAsMedium(byteBuffer(data), root);
      return {
        text: text(t.text()),
        text2: text(t.text2()),
        num: t.num(),
        decimal: t.decimal(),
      } satisfies MediumMessage;
    },
    readKey(data: Encoded): number {
      return Medium.getRootAsMedium(byteBuffer(data), root).num();
    },
  };
};

const large: Pair = (builder) => {
  const root = new Large();
  return {
    encode(message: Message): Encoded {
      const m = message as LargeMessage;
      builder.clear();
      const text = builder.createString(m.text);
      const text2 = builder.createString(m.text2);
      const text3 = builder.createString(m.text3);
      const text4 = builder.createString(m.text4);
      Large.startLarge(builder);
      Large.addText(builder, text);
      Large.addText2(builder, text2);
      Large.addText3(builder, text3);
      Large.addText4(builder, text4);
      Large.addNum(builder, m.num);
      Large.addDecimal(builder, m.decimal);
      Large.addNum2(builder, m.num2);
      Large.addDecimal2(builder, m.decimal2);
      return finish(builder, Large.endLarge(builder));
    },
    decode(data: Encoded): Message {
      const t = Large.getRootAsLarge(byteBuffer(data), root);
      return {
        text: text(t.text()),
        text2: text(t.text2()),
        text3: text(t.text3()),
        text4: text(t.text4()),
        num: t.num(),
        decimal: t.decimal(),
        num2: t.num2(),
        decimal2: t.decimal2(),
      } satisfies LargeMessage;
    },
    readKey(data: Encoded): number {
      return Large.getRootAsLarge(byteBuffer(data), root).num();
    },
  };
};

const chat: Pair = (builder) => {
  const root = new Chat();
  const reaction = new ReactionTable();
  /** The reactions' table offsets, reused from message to message. */
  const offsets: number[] = [];
  return {
    encode(message: Message): Encoded {
      const m = message as ChatMessage;
      builder.clear();
      const user = builder.createString(m.user);
      const text = builder.createString(m.text);
      const n = m.reactions.length;
      for (let i = 0; i < n; i++) {
        const r = m.reactions[i]!;
        const emoji = builder.createString(r.emoji);
        ReactionTable.startReaction(builder);
        ReactionTable.addEmoji(builder, emoji);
        ReactionTable.addCount(builder, r.count);
        offsets[i] = ReactionTable.endReaction(builder);
      }
      Chat.startReactionsVector(builder, n);
      for (let i = n - 1; i >= 0; i--) builder.addOffset(offsets[i]!);
      const reactions = builder.endVector();
      Chat.startChat(builder);
      Chat.addId(builder, m.id);
      Chat.addRoom(builder, m.room);
      Chat.addUser(builder, user);
      Chat.addText(builder, text);
      Chat.addSentAt(builder, BigInt(m.sentAt));
      Chat.addReactions(builder, reactions);
      if (m.replyTo !== undefined || m.editedAt !== undefined) {
        // Optional scalars: written whenever present, 0 included (see the top of the file).
        builder.forceDefaults(true);
        if (m.replyTo !== undefined) Chat.addReplyTo(builder, m.replyTo);
        if (m.editedAt !== undefined) Chat.addEditedAt(builder, BigInt(m.editedAt));
        builder.forceDefaults(false);
      }
      return finish(builder, Chat.endChat(builder));
    },
    decode(data: Encoded): Message {
      const bb = byteBuffer(data);
      const t = Chat.getRootAsChat(bb, root);
      const n = vectorLength(t.reactionsLength(), 4, bb);
      const reactions = new Array<Reaction>(n);
      for (let i = 0; i < n; i++) {
        const r = t.reactions(i, reaction)!;
        reactions[i] = { emoji: text(r.emoji()), count: r.count() };
      }
      const out: ChatMessage = {
        id: t.id(),
        room: t.room(),
        user: text(t.user()),
        text: text(t.text()),
        sentAt: uint53(t.sentAt()),
        reactions,
      };
      const replyTo = t.replyTo();
      if (replyTo !== null) out.replyTo = replyTo;
      const editedAt = t.editedAt();
      if (editedAt !== null) out.editedAt = uint53(editedAt);
      return out;
    },
    readKey(data: Encoded): number {
      // The reactions vector, its length check and its tables are decode's alone: room is a scalar of the root table.
      return Chat.getRootAsChat(byteBuffer(data), root).room();
    },
  };
};

const gameTick: Pair = (builder) => {
  const root = new GameTick();
  const entity = new EntityStruct();
  const entityBytes = EntityStruct.sizeOf();
  return {
    encode(message: Message): Encoded {
      const m = message as GameTickMessage;
      builder.clear();
      const n = m.entities.length;
      GameTick.startEntitiesVector(builder, n);
      for (let i = n - 1; i >= 0; i--) {
        const e = m.entities[i]!;
        EntityStruct.createEntity(builder, e.id, e.state, e.x, e.y, e.z, e.vx, e.vy, e.vz);
      }
      const entities = builder.endVector();
      GameTick.startGameTick(builder);
      GameTick.addMatch(builder, m.match);
      GameTick.addTick(builder, m.tick);
      GameTick.addEntities(builder, entities);
      return finish(builder, GameTick.endGameTick(builder));
    },
    decode(data: Encoded): Message {
      const bb = byteBuffer(data);
      const t = GameTick.getRootAsGameTick(bb, root);
      const n = vectorLength(t.entitiesLength(), entityBytes, bb);
      const entities = new Array<Entity>(n);
      for (let i = 0; i < n; i++) {
        const e = t.entities(i, entity)!;
        entities[i] = {
          id: e.id(),
          state: e.state(),
          x: e.x(),
          y: e.y(),
          z: e.z(),
          vx: e.vx(),
          vy: e.vy(),
          vz: e.vz(),
        };
      }
      return { match: t.match(), tick: t.tick(), entities } satisfies GameTickMessage;
    },
    readKey(data: Encoded): number {
      // The entities vector is never reached, so its length check is decode's alone.
      return GameTick.getRootAsGameTick(byteBuffer(data), root).match();
    },
  };
};

const market: Pair = (builder) => {
  const root = new Market();
  return {
    encode(message: Message): Encoded {
      const m = message as MarketMessage;
      builder.clear();
      const symbol = builder.createString(m.symbol);
      Market.startMarket(builder);
      Market.addSymbol(builder, symbol);
      Market.addSeq(builder, BigInt(m.seq));
      Market.addTs(builder, BigInt(m.ts));
      Market.addBid(builder, m.bid);
      Market.addBidSize(builder, m.bidSize);
      Market.addAsk(builder, m.ask);
      Market.addAskSize(builder, m.askSize);
      return finish(builder, Market.endMarket(builder));
    },
    decode(data: Encoded): Message {
      const t = Market.getRootAsMarket(byteBuffer(data), root);
      return {
        symbol: text(t.symbol()),
        seq: uint53(t.seq()),
        ts: uint53(t.ts()),
        bid: t.bid(),
        bidSize: t.bidSize(),
        ask: t.ask(),
        askSize: t.askSize(),
      } satisfies MarketMessage;
    },
    readKey(data: Encoded): string {
      return text(Market.getRootAsMarket(byteBuffer(data), root).symbol());
    },
  };
};

const PAIRS: Record<BuiltInPayload, Pair> = { small, medium, large, chat, "game-tick": gameTick, market };

export const flatbuffersCodec: Codec = {
  name: "flatbuffers",
  description:
    "FlatBuffers (flatbuffers + flatc, protocols/schemas/flatbuffers/), zero-copy; decode here materialises the whole object, binary frame",
  frame: "binary",
  family: "zero-copy",
  standard: true,
  library: "flatbuffers",
  keyAccess: "lazy",
  decodeGuarantees: "types",
  notApplicable: (payload) =>
    isBuiltIn(payload) ? undefined : "FlatBuffers needs a schema, and your own messages have none",
  forPayload: (payload): PayloadCodec => {
    if (!isBuiltIn(payload)) throw new CodecError("NO_LAYOUT", `flatbuffers has no schema for '${payload}'`);
    return PAIRS[payload](new Builder(INITIAL_BUILDER_BYTES));
  },
};
