/**
 * The source of an inferred layout's encoder and decoder (infer.ts): plain
 * straight-line code, one function per object of the layout, as a hand
 * written layout (chat.ts) reads. The same text is what the benchmark runs
 * on a user's payload (inferred-codec.ts) and what `--emit-codec` writes for
 * the user to read, edit and ship.
 *
 * The code calls a BinaryWriter `w` and a BinaryReader `r` handed to it and
 * throws EncodeError and DecodeError: the only names it takes from outside
 * (SOURCE_PARAMETERS); the header byte's parts are written in as numbers.
 */

import type { ObjectShape, Shape, UnionShape } from "./infer.ts";
import { ASCII_FLAG, VERSION } from "./header.ts";

/** The message type of a layout inferred from a user's messages (docs/custom-binary.md, "Header byte"). */
const INFERRED_TYPE = 7;
/** The header byte of an inferred layout's message, without the ASCII flag. */
const INFERRED_HEADER = (VERSION << 4) | INFERRED_TYPE;

/** Names the generated code takes from outside, in this order (inferred-codec.ts passes them). */
export const SOURCE_PARAMETERS = ["EncodeError", "DecodeError"] as const;

export interface SourceOptions {
  /** TypeScript annotations on the functions' parameters (an emitted module), or plain JavaScript. */
  typed: boolean;
}

/** Most bytes a value of `shape` takes that its own code does not reserve (strings, arrays and objects reserve theirs). */
function fixedMax(shape: Shape): number {
  switch (shape.kind) {
    case "boolean":
      return 1;
    case "uint":
    case "int":
    case "float64":
      return 8;
    case "float32":
      return 4;
    case "enum":
      return 5;
    case "nullable":
      return 1 + fixedMax(shape.of);
    case "tuple":
      return shape.items.reduce((n, s) => n + fixedMax(s), 0);
    default:
      return 0;
  }
}

/** Fewest bytes a value of `shape` takes on the wire: what an array's count is checked against. */
function minBytes(shape: Shape): number {
  switch (shape.kind) {
    case "unseen":
    case "const":
      return 0;
    case "float32":
      return 4;
    case "float64":
      return 8;
    case "tuple":
      return shape.items.reduce((n, s) => n + minBytes(s), 0);
    case "object":
      return (
        presenceBytes(shape) + shape.fields.reduce((n, f) => n + (f.optional || f.nullable ? 0 : minBytes(f.shape)), 0)
      );
    default:
      return 1;
  }
}

function presenceBits(o: ObjectShape): number {
  return o.fields.reduce((n, f) => n + (f.optional ? 1 : 0) + (f.nullable ? 1 : 0), 0);
}

function presenceBytes(o: ObjectShape): number {
  return Math.ceil(presenceBits(o) / 8);
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** `o.name`, or `o["a name"]` where the name is not an identifier. */
function member(object: string, name: string): string {
  return IDENTIFIER.test(name) ? `${object}.${name}` : `${object}[${JSON.stringify(name)}]`;
}

/** A key in an object literal. */
function key(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/**
 * The layout's source: `encode(w, message)` gives the message's bytes,
 * `decode(r, bytes)` the message; every other function and constant it
 * declares serves those two. `name` is the payload's, for the comments.
 */
export function layoutSource(layout: ObjectShape | UnionShape, name: string, options: SourceOptions): string {
  return new Generator(options.typed).module(layout, name);
}

class Generator {
  private readonly functions: string[] = [];
  private readonly constants: string[] = [];
  private readonly written = new Map<ObjectShape, string>();
  private readonly read = new Map<ObjectShape, string>();
  private vars = 0;
  private readonly names = new Set<string>();

  constructor(private readonly typed: boolean) {}

  /**
   * A function's name from the place it writes or reads: `writeMessage`, `readCur` (a union's
   * kind), `writeCustomer`, `readItems` (an array's items), numbered where a name repeats.
   */
  private functionName(prefix: "write" | "read", path: string, union = false): string {
    const last = /([A-Za-z0-9_$]+)[^A-Za-z0-9_$]*$/.exec(path.replace(/\[\d*\]$|\{\}$|\[\]/g, ""))?.[1];
    const base = `${prefix}${last === undefined ? "Message" : last.charAt(0).toUpperCase() + last.slice(1)}${union ? "Kind" : ""}`;
    let name = base;
    for (let i = 2; this.names.has(name); i++) name = `${base}${i}`;
    this.names.add(name);
    return name;
  }

  private t(name: string, type: string): string {
    return this.typed ? `${name}: ${type}` : name;
  }

  private ret(type: string): string {
    return this.typed ? `: ${type}` : "";
  }

  private v(prefix: string): string {
    return `${prefix}${this.vars++}`;
  }

  module(layout: ObjectShape | UnionShape, name: string): string {
    const top = this.writer(layout, "");
    const readTop = this.reader(layout, "");
    const lines = [
      comment(`${JSON.stringify(name)}'s message: the header byte, then the layout.`),
      `function encode(${this.t("w", "BinaryWriter")}, ${this.t("message", "unknown")})${this.ret("Uint8Array")} {`,
      `  w.begin(64);`,
      `  w.u8(${INFERRED_HEADER});`,
      `  ${top}(w, message);`,
      `  if (w.stringsAscii) w.orAt(0, ${ASCII_FLAG});`,
      `  return w.finish();`,
      `}`,
      ``,
      `function decode(${this.t("r", "BinaryReader")}, ${this.t("bytes", "Uint8Array")})${this.ret("unknown")} {`,
      `  r.reset(bytes);`,
      `  const header = r.u8();`,
      `  if (header >> 4 !== ${VERSION})`,
      `    throw new DecodeError("UNSUPPORTED_VERSION", 0, header, "version " + (header >> 4) + ", expected ${VERSION}");`,
      `  if ((header & 7) !== ${INFERRED_TYPE})`,
      `    throw new DecodeError("UNKNOWN_TYPE", 0, header, "message type " + (header & 7) + ${JSON.stringify(`, expected ${INFERRED_TYPE} (${name})`)});`,
      `  const ascii = (header & ${ASCII_FLAG}) !== 0;`,
      `  const message = ${readTop}(r, ascii);`,
      `  r.asciiFlagChecked(ascii);`,
      `  r.finish();`,
      `  return message;`,
      `}`,
    ];
    return (
      [
        helpers(this.typed),
        ...this.constants,
        ...(this.constants.length > 0 ? [""] : []),
        ...this.functions,
        ...lines,
      ].join("\n") + "\n"
    );
  }

  /** A function writing an object or a union, declared once per shape; its name. */
  private writer(shape: ObjectShape | UnionShape, path: string): string {
    if (shape.kind === "union") return this.unionWriter(shape, path);
    const known = this.written.get(shape);
    if (known) return known;
    const fn = this.functionName("write", path);
    this.written.set(shape, fn);
    const body: string[] = [];
    body.push(
      `  if (typeof m !== "object" || m === null || Array.isArray(m))`,
      `    throw new EncodeError(${JSON.stringify(path || "message")}, "expected an object, got " + kindOf(m));`,
    );
    const bits = presenceBits(shape);
    const fixed = presenceBytes(shape) + shape.fields.reduce((n, f) => n + fixedMax(f.shape), 0);
    if (fixed > 0) body.push(`  w.ensure(${fixed});`);
    // Every field the object holds must be one the layout writes: the count of fields there
    // (undefined counts as absent) against the keys, so no field is dropped unseen.
    body.push(`  let fields = 0;`);
    const values = shape.fields.map((f) => {
      const v = this.v("v");
      body.push(`  const ${v} = ${member("m", f.name)};`);
      if (f.shape.kind === "const") body.push(`  fields++;`);
      else if (f.optional) body.push(`  if (${v} !== undefined) fields++;`);
      else {
        body.push(
          `  if (${v} === undefined) throw new EncodeError(${JSON.stringify(fieldPathOf(path, f.name))}, "missing; the layout requires it");`,
          `  fields++;`,
        );
      }
      return v;
    });
    body.push(
      `  if (!onlyFields(m, fields)) throw new EncodeError(${JSON.stringify(path || "message")}, "holds " + otherField(m, ${this.constant(JSON.stringify(shape.fields.map((f) => f.name)))}) + ", a field the layout does not hold");`,
    );
    if (bits > 0) {
      // One bit per optional field (there) and per nullable one (not null), in field order, eight to a byte.
      const parts: string[] = [];
      shape.fields.forEach((f, i) => {
        if (f.optional) parts.push(`(${values[i]} !== undefined ? ${1 << (parts.length % 8)} : 0)`);
        if (f.nullable) parts.push(`(${values[i]} != null ? ${1 << (parts.length % 8)} : 0)`);
      });
      for (let byte = 0; byte * 8 < parts.length; byte++)
        body.push(`  w.u8(${parts.slice(byte * 8, byte * 8 + 8).join(" | ")});`);
    }
    shape.fields.forEach((f, i) => {
      const v = values[i]!;
      const p = fieldPathOf(path, f.name);
      if (f.shape.kind === "const") return;
      const inner = this.write(f.shape, v, p, "  ");
      if (f.optional && f.nullable)
        body.push(`  if (${v} !== undefined && ${v} !== null) {`, ...inner.map((l) => "  " + l), `  }`);
      else if (f.optional) body.push(`  if (${v} !== undefined) {`, ...inner.map((l) => "  " + l), `  }`);
      else if (f.nullable) body.push(`  if (${v} !== null) {`, ...inner.map((l) => "  " + l), `  }`);
      else body.push(...inner);
    });
    this.functions.push(
      comment(`${path === "" ? "The message" : path}: ${shape.fields.map((f) => f.name).join(", ")}.`),
      `function ${fn}(${this.t("w", "BinaryWriter")}, ${this.t("m", "any")})${this.ret("void")} {`,
      ...body,
      `}`,
      ``,
    );
    return fn;
  }

  private unionWriter(shape: UnionShape, path: string): string {
    const fn = this.functionName("write", path, true);
    const arms = shape.arms.map((a) => this.writer(a.shape, `${path}{${shape.tag}=${JSON.stringify(a.tag)}}`));
    const tagPath = JSON.stringify(fieldPathOf(path, shape.tag));
    this.functions.push(
      comment(`${path === "" ? "The message" : path}: one of ${shape.arms.length} kinds, told apart by ${shape.tag}.`),
      `function ${fn}(${this.t("w", "BinaryWriter")}, ${this.t("m", "any")})${this.ret("void")} {`,
      `  const tag = typeof m === "object" && m !== null ? m[${JSON.stringify(shape.tag)}] : undefined;`,
      `  w.ensure(5);`,
      `  switch (tag) {`,
      ...shape.arms.flatMap((a, i) => [
        `    case ${JSON.stringify(a.tag)}:`,
        `      w.varUint32(${tagPath}, ${i});`,
        `      ${arms[i]}(w, m);`,
        `      return;`,
      ]),
      `  }`,
      `  throw new EncodeError(${tagPath}, "holds " + JSON.stringify(tag) + ", not one of the layout's ${shape.arms.length} kinds: " + ${JSON.stringify(shape.arms.map((a) => a.tag).join(", "))});`,
      `}`,
      ``,
    );
    return fn;
  }

  private constant(expression: string): string {
    const name = `C${this.constants.length}`;
    this.constants.push(`const ${name} = ${expression};`);
    return name;
  }

  /** Lines writing the value held in `v` (a variable) as `shape`. */
  private write(shape: Shape, v: string, path: string, indent: string): string[] {
    const p = JSON.stringify(path);
    const fail = (what: string): string => `throw new EncodeError(${p}, "expected ${what}, got " + kindOf(${v}));`;
    switch (shape.kind) {
      case "unseen":
        return [`${indent}throw new EncodeError(${p}, "the sample held no value here, so the layout holds none");`];
      case "const":
        return [];
      case "boolean":
        return [`${indent}if (typeof ${v} !== "boolean") ${fail("true or false")}`, `${indent}w.u8(${v} ? 1 : 0);`];
      case "uint":
        return [`${indent}w.uint53(${p}, ${v});`];
      case "int":
        return [`${indent}w.int53(${p}, ${v});`];
      case "float32":
        return [`${indent}w.float32(${p}, ${v});`];
      case "float64":
        return [`${indent}w.float64(${p}, ${v});`];
      case "string":
        return [
          `${indent}if (typeof ${v} !== "string") ${fail("a string")}`,
          `${indent}w.ensure(5 + 3 * ${v}.length);`,
          `${indent}w.string(${p}, ${v});`,
        ];
      case "enum": {
        const values = this.constant(JSON.stringify(shape.values));
        const i = this.v("i");
        return [
          `${indent}if (typeof ${v} !== "string") ${fail("a string")}`,
          `${indent}const ${i} = ${values}.indexOf(${v});`,
          `${indent}w.varUint32(${p}, ${i} + 1);`,
          `${indent}if (${i} < 0) {`,
          `${indent}  w.ensure(5 + 3 * ${v}.length);`,
          `${indent}  w.string(${p}, ${v});`,
          `${indent}}`,
        ];
      }
      case "nullable":
        return [
          `${indent}if (${v} === null) w.u8(0);`,
          `${indent}else {`,
          `${indent}  w.u8(1);`,
          ...this.write(shape.of, v, path, indent + "  "),
          `${indent}}`,
        ];
      case "array": {
        const i = this.v("i");
        const x = this.v("x");
        const fixed = fixedMax(shape.items);
        return [
          `${indent}if (!Array.isArray(${v})) ${fail("an array")}`,
          `${indent}w.ensure(5);`,
          `${indent}w.varUint32(${p}, ${v}.length);`,
          `${indent}for (let ${i} = 0; ${i} < ${v}.length; ${i}++) {`,
          `${indent}  const ${x} = ${v}[${i}];`,
          ...(fixed > 0 ? [`${indent}  w.ensure(${fixed});`] : []),
          ...this.write(shape.items, x, `${path}[]`, indent + "  "),
          `${indent}}`,
        ];
      }
      case "tuple": {
        const n = shape.items.length;
        const fixed = fixedMax(shape);
        return [
          `${indent}if (!Array.isArray(${v}) || ${v}.length !== ${n}) ${fail(`an array of ${n}`)}`,
          ...(fixed > 0 ? [`${indent}w.ensure(${fixed});`] : []),
          ...shape.items.flatMap((s, k) => {
            const x = this.v("x");
            return [`${indent}const ${x} = ${v}[${k}];`, ...this.write(s, x, `${path}[${k}]`, indent)];
          }),
        ];
      }
      case "map": {
        const k = this.v("k");
        const x = this.v("x");
        const fixed = fixedMax(shape.values);
        return [
          `${indent}if (typeof ${v} !== "object" || ${v} === null || Array.isArray(${v})) ${fail("an object")}`,
          `${indent}w.ensure(5);`,
          `${indent}w.varUint32(${p}, Object.keys(${v}).length);`,
          `${indent}for (const ${k} of Object.keys(${v})) {`,
          `${indent}  const ${x} = ${v}[${k}];`,
          `${indent}  w.ensure(${5 + fixed} + 3 * ${k}.length);`,
          `${indent}  w.string(${p}, ${k});`,
          ...this.write(shape.values, x, `${path}{}`, indent + "  "),
          `${indent}}`,
        ];
      }
      case "object":
      case "union":
        return [`${indent}${this.writer(shape, path)}(w, ${v});`];
    }
  }

  /** A function reading an object or a union, declared once per shape; its name. */
  private reader(shape: ObjectShape | UnionShape, path: string): string {
    if (shape.kind === "union") return this.unionReader(shape, path);
    const known = this.read.get(shape);
    if (known) return known;
    const fn = this.functionName("read", path);
    this.read.set(shape, fn);
    const body: string[] = [];
    const bits = presenceBits(shape);
    const bytes = presenceBytes(shape);
    const presence: string[] = [];
    for (let b = 0; b < bytes; b++) {
      const p = this.v("p");
      presence.push(p);
      const used = Math.min(8, bits - b * 8);
      body.push(`  const ${p} = r.u8();`);
      if (used < 8)
        body.push(
          `  if (${p} > ${(1 << used) - 1}) throw new DecodeError("RESERVED_BITS", r.offset - 1, ${p}, "presence byte has reserved bits set");`,
        );
    }
    let bit = 0;
    const flag = (): string => {
      const b = bit++;
      return `(${presence[b >> 3]} & ${1 << (b & 7)}) !== 0`;
    };
    const plain = shape.fields.every((f) => !f.optional && !f.nullable);
    if (plain) {
      // The fields are read in wire order: inline in the literal when every read is one call,
      // else each into a variable first.
      const reads = shape.fields.map((f) =>
        f.shape.kind === "const"
          ? { lines: [], value: JSON.stringify(f.shape.value) }
          : this.readValue(f.shape, fieldPathOf(path, f.name), "  "),
      );
      const inline = reads.every((x) => x.lines.length === 0);
      const values = shape.fields.map((f, i) => {
        const { lines, value } = reads[i]!;
        body.push(...lines);
        if (inline || f.shape.kind === "const" || lines.length > 0) return `${key(f.name)}: ${value}`;
        const x = this.v("x");
        body.push(`  const ${x} = ${value};`);
        return `${key(f.name)}: ${x}`;
      });
      body.push(`  return { ${values.join(", ")} };`);
    } else {
      body.push(`  const m${this.typed ? ": any" : ""} = {};`);
      for (const f of shape.fields) {
        const target = member("m", f.name);
        if (f.shape.kind === "const") {
          body.push(`  ${target} = ${JSON.stringify(f.shape.value)};`);
          continue;
        }
        const present = f.optional ? flag() : undefined;
        const notNull = f.nullable ? flag() : undefined;
        const { lines, value } = this.readValue(f.shape, fieldPathOf(path, f.name), "    ");
        const assign = [...lines, `    ${target} = ${value};`];
        if (present && notNull)
          // A field that is not there has its not-null bit clear: set, it would be a second encoding.
          body.push(
            `  if (${present}) {`,
            `    if (!(${notNull})) ${target} = null;`,
            `    else {`,
            ...assign.map((l) => "  " + l),
            `    }`,
            `  } else if (${notNull}) throw new DecodeError("NOT_CANONICAL", r.offset, -1, ${JSON.stringify(`${fieldPathOf(path, f.name)} absent but marked not null`)});`,
          );
        else if (present) body.push(`  if (${present}) {`, ...assign, `  }`);
        else if (notNull) body.push(`  if (!(${notNull})) ${target} = null;`, `  else {`, ...assign, `  }`);
        else body.push(...assign.map((l) => l.slice(2)));
      }
      body.push(`  return m;`);
    }
    this.functions.push(
      comment(`${path === "" ? "The message" : path}: ${shape.fields.map((f) => f.name).join(", ")}.`),
      `function ${fn}(${this.t("r", "BinaryReader")}, ${this.t("ascii", "boolean")})${this.ret("any")} {`,
      ...body,
      `}`,
      ``,
    );
    return fn;
  }

  private unionReader(shape: UnionShape, path: string): string {
    const fn = this.functionName("read", path, true);
    const arms = shape.arms.map((a) => this.reader(a.shape, `${path}{${shape.tag}=${JSON.stringify(a.tag)}}`));
    this.functions.push(
      comment(`${path === "" ? "The message" : path}: one of ${shape.arms.length} kinds, told apart by ${shape.tag}.`),
      `function ${fn}(${this.t("r", "BinaryReader")}, ${this.t("ascii", "boolean")})${this.ret("any")} {`,
      `  const arm = r.varUint32();`,
      `  switch (arm) {`,
      ...shape.arms.map((_, i) => `    case ${i}: return ${arms[i]}(r, ascii);`),
      `  }`,
      `  throw new DecodeError("OUT_OF_RANGE", r.offset - 1, -1, "kind " + arm + ${JSON.stringify(` of ${fieldPathOf(path, shape.tag)}, where the layout has ${shape.arms.length}`)});`,
      `}`,
      ``,
    );
    return fn;
  }

  /** Lines reading a value of `shape` (in wire order) and the expression that holds it after them. */
  private readValue(shape: Shape, path: string, indent: string): { lines: string[]; value: string } {
    switch (shape.kind) {
      case "unseen":
        return {
          lines: [
            `${indent}throw new DecodeError("OUT_OF_RANGE", r.offset, -1, ${JSON.stringify(`a value at ${path}, where the layout holds none`)});`,
          ],
          value: "undefined",
        };
      case "const":
        return { lines: [], value: JSON.stringify(shape.value) };
      case "boolean":
        return { lines: [], value: "r.boolean()" };
      case "uint":
        return { lines: [], value: "r.varUint53()" };
      case "int":
        return { lines: [], value: "r.varInt53()" };
      case "float32":
        return { lines: [], value: "r.float32()" };
      case "float64":
        return { lines: [], value: "r.float64()" };
      case "string":
        return { lines: [], value: "r.string(ascii)" };
      case "enum": {
        const values = this.constant(JSON.stringify(shape.values));
        const i = this.v("i");
        const s = this.v("s");
        return {
          lines: [
            `${indent}const ${i} = r.varUint32();`,
            `${indent}let ${s}${this.typed ? ": string" : ""};`,
            `${indent}if (${i} === 0) {`,
            `${indent}  ${s} = r.string(ascii);`,
            `${indent}  if (${values}.includes(${s})) throw new DecodeError("NOT_CANONICAL", r.offset, -1, "a string written out where the layout has its index");`,
            `${indent}} else if (${i} <= ${shape.values.length}) ${s} = ${values}[${i} - 1];`,
            `${indent}else throw new DecodeError("OUT_OF_RANGE", r.offset - 1, -1, "value " + ${i} + ${JSON.stringify(` at ${path}, where the layout has ${shape.values.length}`)});`,
          ],
          value: s,
        };
      }
      case "nullable": {
        const x = this.v("x");
        const inner = this.readValue(shape.of, path, indent + "  ");
        return {
          lines: [
            `${indent}let ${x}${this.typed ? ": any" : ""} = null;`,
            `${indent}if (r.boolean()) {`,
            ...inner.lines,
            `${indent}  ${x} = ${inner.value};`,
            `${indent}}`,
          ],
          value: x,
        };
      }
      case "array": {
        const n = this.v("n");
        const a = this.v("a");
        const i = this.v("i");
        const inner = this.readValue(shape.items, `${path}[]`, indent + "  ");
        return {
          lines: [
            `${indent}const ${n} = r.count(${Math.max(1, minBytes(shape.items))});`,
            `${indent}const ${a} = new Array(${n});`,
            `${indent}for (let ${i} = 0; ${i} < ${n}; ${i}++) {`,
            ...inner.lines,
            `${indent}  ${a}[${i}] = ${inner.value};`,
            `${indent}}`,
          ],
          value: a,
        };
      }
      case "tuple": {
        const lines: string[] = [];
        const items = shape.items.map((s, k) => {
          const inner = this.readValue(s, `${path}[${k}]`, indent);
          lines.push(...inner.lines);
          if (inner.lines.length === 0 && /\(/.test(inner.value)) {
            // A read: hold it in a variable so the items are read in wire order.
            const x = this.v("x");
            lines.push(`${indent}const ${x} = ${inner.value};`);
            return x;
          }
          return inner.value;
        });
        return { lines, value: `[${items.join(", ")}]` };
      }
      case "map": {
        const n = this.v("n");
        const o = this.v("o");
        const i = this.v("i");
        const k = this.v("k");
        const inner = this.readValue(shape.values, `${path}{}`, indent + "  ");
        return {
          lines: [
            `${indent}const ${n} = r.count(${1 + Math.max(1, minBytes(shape.values))});`,
            `${indent}const ${o}${this.typed ? ": any" : ""} = {};`,
            `${indent}for (let ${i} = 0; ${i} < ${n}; ${i}++) {`,
            `${indent}  const ${k} = r.string(ascii);`,
            `${indent}  if (Object.hasOwn(${o}, ${k})) throw new DecodeError("NOT_CANONICAL", r.offset, -1, "key " + JSON.stringify(${k}) + " twice");`,
            ...inner.lines,
            `${indent}  Object.defineProperty(${o}, ${k}, { value: ${inner.value}, enumerable: true, writable: true, configurable: true });`,
            `${indent}}`,
          ],
          value: o,
        };
      }
      case "object":
      case "union":
        return { lines: [], value: `${this.reader(shape, path)}(r, ascii)` };
    }
  }
}

/** A doc comment of `text`, which holds field names: nothing in it can end the comment early. */
function comment(text: string): string {
  return `/** ${text.replace(/\*\//g, "*\\/").replace(/[\r\n\u2028\u2029]/g, " ")} */`;
}

function fieldPathOf(path: string, name: string): string {
  return path === "" ? name : `${path}.${name}`;
}

/** Helpers the generated code calls, declared once in its text. */
function helpers(typed: boolean): string {
  const t = (name: string, type: string): string => (typed ? `${name}: ${type}` : name);
  return `/** What a value is, for an error. */
function kindOf(${t("v", "unknown")})${typed ? ": string" : ""} {
  return v === null ? "null" : Array.isArray(v) ? "an array" : typeof v;
}

/** The object holds exactly \`count\` fields that are not undefined (so the layout drops none). */
function onlyFields(${t("m", "any")}, ${t("count", "number")})${typed ? ": boolean" : ""} {
  let n = 0;
  for (const k in m) if (m[k] !== undefined) n++;
  return n === count;
}

/** The first field of \`m\` not among \`known\`, quoted. */
function otherField(${t("m", "any")}, ${t("known", "readonly string[]")})${typed ? ": string" : ""} {
  for (const k in m) if (m[k] !== undefined && !known.includes(k)) return JSON.stringify(k);
  return "a field twice";
}
`;
}
