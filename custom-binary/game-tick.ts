/**
 * Layout 5: a game-state tick (docs/custom-binary.md, "game-tick"): the
 * match it belongs to (the routing key, first so a router reads it right
 * after the header), a tick number and an array of entities. Each entity
 * is an id, one byte holding its state and which of its six doubles are
 * +0, and the other doubles.
 * Entities at rest have zero velocities and ground-bound ones z = 0, so
 * leaving those out is where a layout written for this message wins.
 * No strings, so the ASCII flag is always set.
 */

import { DecodeError, EncodeError } from "./errors.ts";
import { ASCII_FLAG, HEADER } from "./header.ts";
import type { BinaryReader } from "./reader.ts";
import type { BinaryWriter } from "./writer.ts";

/** An entity's state, 0..3: idle, moving, attacking, dead (the low two bits of its flags byte). */
const MAX_STATE = 3;
/** Flags bits 2-7: x, y, z, vx, vy, vz is +0 and not written. */
const ZERO_X = 4;
const ZERO_Y = 8;
const ZERO_Z = 16;
const ZERO_VX = 32;
const ZERO_VY = 64;
const ZERO_VZ = 128;

export interface Entity {
  id: number;
  state: number;
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  vz: number;
}

/** Layout of message type 5. */
export interface GameTickMessage {
  /** The match the tick belongs to: the routing key, 1..32 in the generated sets. */
  match: number;
  tick: number;
  entities: Entity[];
}

/** Bytes of one entity at most (5-byte id, every double), and at least (1-byte id, every double +0). */
const ENTITY_MAX = 5 + 1 + 6 * 8;
const ENTITY_MIN = 1 + 1;

/** +0 exactly: -0 is written out, so it comes back as -0. */
const isPlusZero = (v: number): boolean => v === 0 && 1 / v > 0;

function writeDouble(w: BinaryWriter, field: string, v: number, zeroBit: number, flags: number): void {
  if ((flags & zeroBit) === 0) w.float64(field, v);
}

function writeEntity(w: BinaryWriter, e: Entity): void {
  w.varUint32("entities.id", e.id);
  // A value that is not a number is never +0, so float64 names it.
  const { x, y, z, vx, vy, vz } = e;
  const state = e.state;
  if (!Number.isInteger(state) || state < 0 || state > MAX_STATE)
    throw new EncodeError("entities.state", `expected an integer 0..${MAX_STATE}, got ${String(state)}`);
  const flags =
    state |
    (isPlusZero(x) ? ZERO_X : 0) |
    (isPlusZero(y) ? ZERO_Y : 0) |
    (isPlusZero(z) ? ZERO_Z : 0) |
    (isPlusZero(vx) ? ZERO_VX : 0) |
    (isPlusZero(vy) ? ZERO_VY : 0) |
    (isPlusZero(vz) ? ZERO_VZ : 0);
  w.u8(flags);
  writeDouble(w, "entities.x", x, ZERO_X, flags);
  writeDouble(w, "entities.y", y, ZERO_Y, flags);
  writeDouble(w, "entities.z", z, ZERO_Z, flags);
  writeDouble(w, "entities.vx", vx, ZERO_VX, flags);
  writeDouble(w, "entities.vy", vy, ZERO_VY, flags);
  writeDouble(w, "entities.vz", vz, ZERO_VZ, flags);
}

export function writeGameTick(w: BinaryWriter, m: GameTickMessage): void {
  const entities = m.entities;
  if (!Array.isArray(entities)) throw new EncodeError("entities", `expected an array, got ${typeof entities}`);
  w.begin(1 + 5 + 5 + 5 + entities.length * ENTITY_MAX); // header, match, tick, count, entities
  w.u8(HEADER["game-tick"] | ASCII_FLAG);
  w.varUint32("match", m.match);
  w.varUint32("tick", m.tick);
  w.varUint32("entities", entities.length);
  for (let i = 0; i < entities.length; i++) writeEntity(w, entities[i]!);
}

/** A double the flags say was written: never +0, which has exactly one encoding (left out). */
function readDouble(r: BinaryReader): number {
  const at = r.offset;
  const v = r.float64();
  if (isPlusZero(v))
    throw new DecodeError("NOT_CANONICAL", at, 0, "a +0 double written out; its flag bit must say +0 instead");
  return v;
}

export function readGameTick(r: BinaryReader, ascii: boolean): GameTickMessage {
  r.asciiFlagChecked(ascii); // no strings: the flag must be set
  const match = r.varUint32();
  const tick = r.varUint32();
  const n = r.count(ENTITY_MIN);
  const entities = new Array<Entity>(n);
  for (let i = 0; i < n; i++) {
    const id = r.varUint32();
    const flags = r.u8();
    const state = flags & 3;
    entities[i] = {
      id,
      state,
      x: flags & ZERO_X ? 0 : readDouble(r),
      y: flags & ZERO_Y ? 0 : readDouble(r),
      z: flags & ZERO_Z ? 0 : readDouble(r),
      vx: flags & ZERO_VX ? 0 : readDouble(r),
      vy: flags & ZERO_VY ? 0 : readDouble(r),
      vz: flags & ZERO_VZ ? 0 : readDouble(r),
    };
  }
  return { match, tick, entities };
}
