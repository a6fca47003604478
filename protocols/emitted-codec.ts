/**
 * The module `--emit-codec DIR` writes for a user payload's inferred
 * custom-binary layout: the layout's code (custom-binary/layout-source.ts,
 * typed) inside a codec module (protocols/codec.ts's interface, docs/codecs.md),
 * with custom-binary's reader, writer and errors copied beside it. It is the
 * code the benchmark timed on that payload, for the user to read, edit and
 * ship; `--codec-module` runs it as it is.
 */

import { describeLayout, type ObjectShape, type UnionShape } from "../custom-binary/infer.ts";
import { layoutSource } from "../custom-binary/layout-source.ts";

/** custom-binary/'s files the module imports, copied as they are into a `custom-binary/` folder beside it. */
export const RUNTIME_FILES: readonly string[] = ["errors.ts", "reader.ts", "writer.ts", "utf8.ts"];

/** The emitted codec's name (and its file's, with `.ts`): the payload's, so it joins beside custom-binary. */
export function emittedCodecName(payload: string): string {
  return `${payload}-binary`;
}

export interface EmittedFrom {
  payload: string;
  /** The messages file, as the user named it; absent for messages given inline. */
  file?: string;
  messages: number;
}

/** The module's text. */
export function emittedModule(layout: ObjectShape | UnionShape, from: EmittedFrom): string {
  const name = emittedCodecName(from.payload);
  const sample = `${from.messages.toLocaleString("en-US")} message${from.messages === 1 ? "" : "s"}${from.file ? ` of ${from.file}` : ""}`;
  const header = [
    `/**`,
    ` * ${name}: a custom-binary layout for ${JSON.stringify(from.payload)}, inferred from ${sample}`,
    ` * by ws-serialization-bench (\`--emit-codec\`). The format is custom-binary's (type 7: docs/custom-binary.md,`,
    ` * "Layouts of your own messages"); this file is the code the benchmark timed on that payload.`,
    ` * Edit it, keep it, ship it with the custom-binary/ folder beside it;`,
    ` * \`bun run bench --codec-module ${name}.ts --messages FILE\` runs it as it is.`,
    ` *`,
    ` * What the layout holds at each place. A message outside the sample that does not fit is`,
    ` * refused by encode with an EncodeError naming the place, never written with a value changed:`,
    ...describeLayout(layout).map((l) => ` *   ${l.replace(/\*\//g, "*\\/")}`),
    ` */`,
    ``,
    `import { DecodeError, EncodeError } from "./custom-binary/errors.ts";`,
    `import { BinaryReader } from "./custom-binary/reader.ts";`,
    `import { BinaryWriter } from "./custom-binary/writer.ts";`,
    ``,
  ];
  const codec = [
    ``,
    `const codec = {`,
    `  name: ${JSON.stringify(name)},`,
    `  description: ${JSON.stringify(`custom-binary layout inferred from ${sample}, binary frame`)},`,
    `  frame: "binary" as const,`,
    `  family: "schema" as const,`,
    `  standard: true,`,
    `  library: "",`,
    `  notApplicable: (payload: string): string | undefined =>`,
    `    payload === ${JSON.stringify(from.payload)} ? undefined : ${JSON.stringify(`a layout of ${from.payload}'s messages only`)},`,
    `  forPayload: () => {`,
    `    // One writer and reader per pair: each keeps its buffers from message to message.`,
    `    const w = new BinaryWriter();`,
    `    const r = new BinaryReader();`,
    `    return {`,
    `      encode: (message: unknown): Uint8Array => encode(w, message),`,
    `      decode: (data: string | Uint8Array): unknown => decode(r, data as Uint8Array),`,
    `    };`,
    `  },`,
    `};`,
    ``,
    `export default codec;`,
    ``,
  ];
  return [...header, layoutSource(layout, from.payload, { typed: true }), ...codec].join("\n");
}
