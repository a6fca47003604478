/**
 * A user's own messages (`--messages FILE`, or given inline to compare()): a JSON array of message
 * objects, or JSON Lines (one object per line). The file's text travels in
 * the settings to every process that needs it (the Node client, worker
 * threads, codec-mode forks; the page gets it from the server) and each
 * parses it here, the same way, so every process sends the same values;
 * JSON would not carry a -0 between processes, the text does.
 */

import { inferLayout, LayoutError } from "../../custom-binary/infer.ts";
import { kindOf } from "../../protocols/codec.ts";
import type { UserLayout } from "../../protocols/custom-binary.ts";
import { type Message, type PayloadName, isBuiltIn } from "../../protocols/messages.ts";
import { type UserMessagesFile } from "./settings.ts";
import { HarnessError, SettingError } from "./harness-errors.ts";
import { jsonFault, lineAndColumn } from "./json-position.ts";

/** A payload name from a file name: its base name without `.json`, `.jsonl` or `.ndjson`. */
export function payloadNameOf(file: string): string {
  const base = file.split(/[\\/]/).pop() ?? file;
  return base.replace(/\.(json|jsonl|ndjson)$/i, "");
}

/** True for a name a payload of the user's may take: usable in a URL and a CSV, and not a built-in's. */
export function isPayloadName(name: string): boolean {
  return /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(name) && !isBuiltIn(name) && name !== "all";
}

/**
 * Checks the payload name of a messages file (`named`: given as NAME=FILE, else the file's own); a
 * refusal names the option as `option` spells it (`--messages`) and says how to name the payload.
 */
export function checkPayloadName(name: string, file: string, named: boolean, option: string): void {
  if (isPayloadName(name)) return;
  const rule = "1-40 letters, digits, '.', '_' or '-'";
  if (isBuiltIn(name) || name === "all")
    throw new SettingError(
      `${option} ${named ? `${name}=` : ""}${file}: '${name}' is a built-in payload's name; name yours another: ${option} my-${name}=${file}`,
    );
  throw new SettingError(
    named
      ? `${option} ${name}=${file}: a payload's name must be ${rule}`
      : `${option} ${file}: the payload takes the file's name, '${name}', which must be ${rule}; name it: ${option} NAME=${file}`,
  );
}

/**
 * Largest message a user's file may hold, as JSON in UTF-8: the server's WebSocket message limit
 * (MAX_PAYLOAD_BYTES of protocols/contract.ts, which this file does not import: that would
 * load every codec with the message generator).
 */
const MAX_USER_MESSAGE_BYTES = 1024 * 1024;

/** A JSON number at a given place (sticky: matched where lastIndex points). */
const NUMBER = /-?\d+(\.\d+)?([eE][+-]?\d+)?/y;

/** Integer literals in JSON text that a JavaScript number cannot hold exactly (beyond 2^53), with where each starts. */
function bigIntegers(text: string): { literal: string; at: number }[] {
  const out: { literal: string; at: number }[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === "\\") i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') {
      inString = true;
      continue;
    }
    if (c === "-" || (c >= "0" && c <= "9")) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text)!;
      if (m[1] === undefined && m[2] === undefined && !Number.isSafeInteger(Number(m[0])))
        out.push({ literal: m[0], at: i });
      i += m[0].length - 1;
    }
  }
  return out;
}

/**
 * `text` parsed, or a SettingError opening with `label` and naming the place JSON stops: `line 3,
 * column 14` of the file (`lineOffset`: the line `text` starts on, for a line of JSON Lines).
 */
function parseJson(text: string, label: string, lineOffset = 0): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const fault = jsonFault(text);
    throw new SettingError(
      fault
        ? `${label}: not JSON at line ${fault.line + lineOffset}, column ${fault.column}: ${fault.what}`
        : `${label}: not JSON (${(e as Error).message})`,
    );
  }
}

/** What a messages file holds: its messages, and notes on what reading it changed. */
export interface UserMessages {
  messages: Message[];
  /** Integers beyond 2^53 that became the nearest double when read, as JSON.parse reads them in any JavaScript program. */
  notes: string[];
}

/**
 * Parses a messages file: one line opening with `label` (the option and the file, as the caller
 * names them: `--messages orders.json`) and saying what is wrong, as a SettingError.
 */
export function parseUserMessages(f: UserMessagesFile, label: string): UserMessages {
  const text = f.text.replace(/^\uFEFF/, "");
  let values: unknown[];
  if (text.trimStart().startsWith("[")) {
    const parsed = parseJson(text, label);
    values = parsed as unknown[];
  } else {
    values = [];
    text.split("\n").forEach((line, i) => {
      if (line.trim() !== "") values.push(parseJson(line, label, i));
    });
  }
  if (values.length === 0)
    throw new SettingError(
      `${label}: no messages; expected a JSON array of objects, or JSON Lines with one object per line`,
    );
  const messages: Message[] = [];
  const notes: string[] = [];
  values.forEach((v, i) => {
    if (v === null || typeof v !== "object" || Array.isArray(v)) {
      const kind = kindOf(v);
      const said = /^(an? |null$|undefined$)/.test(kind) ? kind : `a ${kind}`;
      throw new SettingError(`${label}: message ${i + 1} is ${said}, not an object`);
    }
    const json = JSON.stringify(v);
    const bytes = new TextEncoder().encode(json).length;
    if (bytes > MAX_USER_MESSAGE_BYTES) {
      throw new SettingError(
        `${label}: message ${i + 1} is ${bytes.toLocaleString("en-US")} bytes as JSON, over the 1 MiB a WebSocket message may carry here`,
      );
    }
    messages.push(v as Message);
  });
  for (const { literal, at } of bigIntegers(text)) {
    const { line, column } = lineAndColumn(text, at);
    const field = /"((?:[^"\\]|\\.)*)"\s*:\s*$/.exec(text.slice(0, at))?.[1];
    notes.push(
      `the integer ${literal}${field !== undefined ? ` (field ${field}` : " ("}${field !== undefined ? ", " : ""}line ${line}, column ${column}) became ${Number(literal)} when read (beyond 2^53, as JSON.parse reads it in any JavaScript program)`,
    );
  }
  return { messages, notes };
}

const parsed = new Map<string, UserMessages>();

/** A file's messages, parsed once per process; `label` opens a refusal (where the run is resolved: the option and the file). */
export function userMessagesOf(
  files: readonly UserMessagesFile[],
  payload: PayloadName,
  label = `payload '${payload}'`,
): UserMessages {
  const f = files.find((x) => x.name === payload);
  if (!f) throw new HarnessError("NO_MESSAGES", `no messages for payload '${payload}'`);
  const key = `${f.name}\n${f.text}`;
  let m = parsed.get(key);
  if (!m) parsed.set(key, (m = parseUserMessages(f, label)));
  return m;
}

const layouts = new Map<string, UserLayout>();

/**
 * A user payload's custom-binary layout, inferred from all its messages
 * once per process (custom-binary/infer.ts), or why no layout carries them
 * (a place holding two types): custom-binary then does not run on it, and
 * says so.
 */
export function userLayoutOf(files: readonly UserMessagesFile[], payload: PayloadName): UserLayout {
  const f = files.find((x) => x.name === payload);
  const key = f ? `${f.name}\n${f.text}` : payload;
  let layout = layouts.get(key);
  if (!layout) {
    try {
      layout = { layout: inferLayout(userMessagesOf(files, payload).messages) };
    } catch (e) {
      if (!(e instanceof LayoutError)) throw e;
      layout = { reason: e.message };
    }
    layouts.set(key, layout);
  }
  return layout;
}

/** `count` messages of a user's file, in the file's order, over and over. */
export function cycleUserMessages(
  files: readonly UserMessagesFile[],
  payload: PayloadName,
  count: number,
  start = 0,
): Message[] {
  const { messages } = userMessagesOf(files, payload);
  const out = new Array<Message>(count);
  for (let i = 0; i < count; i++) out[i] = messages[(start + i) % messages.length]!;
  return out;
}
