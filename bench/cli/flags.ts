/**
 * Command-line options, each described once (OptionSpec): the bench's in option-specs.ts, the
 * server's in server.ts, which shares the bench's entries for the flags both take. From one list
 * come the parser (util.parseArgs, into the settings input under each option's key, one line for
 * a mistake), the lines of --help, and the tables of docs/options.md and docs/your-project.md.
 */

import { parseArgs, type ParseArgsConfig } from "node:util";
import { closestName } from "../../client/harness/did-you-mean.ts";
import { SettingError } from "../../client/harness/harness-errors.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";

/** One option: its names, what it takes, and one text for --help and the documents. */
export interface OptionSpec {
  /** Its name in the settings input and in compare(), camelCase; its flag is the same in kebab-case unless `flag` says. */
  readonly key: string;
  readonly flag?: string;
  /** A one-letter name as well (`-h`). */
  readonly short?: string;
  /** What it takes, as --help shows it (LIST, N, FILE); absent: a switch. */
  readonly arg?: string;
  /** Given more than once, each adds a value. */
  readonly repeats?: boolean;
  /** The command line's alone: compare() does not take it. */
  readonly cliOnly?: boolean;
  /**
   * What it does, and its default. `{key}` names another option as the reader's caller spells it,
   * `code` is code, docs/PAGE.md#anchor a page (a link in the documents), and a line break starts
   * a new line in --help (a space in the documents).
   */
  readonly text: string | ((catalog: CodecCatalog) => string);
}

/** An option's flag: `--max-time` for maxTime, `--export-k6` for exportK6. */
const flagOf = (spec: OptionSpec): string =>
  spec.flag ?? `--${spec.key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;

/** How the command line spells each option of `specs`: its flag. */
export function flagsOf(specs: readonly OptionSpec[]): (key: string) => string {
  return (key) => {
    const spec = specs.find((s) => s.key === key);
    if (!spec) throw new Error(`no option '${key}'`);
    return flagOf(spec);
  };
}

/**
 * `--seed -1` as `--seed=-1`: parseArgs takes a value that starts with a dash for an option, and
 * would say the value is missing; joined, it reaches the range check, which names what is wrong.
 */
function joinNegativeValues(argv: readonly string[], specs: readonly OptionSpec[]): string[] {
  const values = new Set(specs.filter((s) => s.arg !== undefined).map(flagOf));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const next = argv[i + 1];
    if (values.has(argv[i]!) && next !== undefined && /^-[\d.]/.test(next)) out.push(`${argv[i]}=${argv[++i]}`);
    else out.push(argv[i]!);
  }
  return out;
}

/** A parseArgs refusal as one line: what was given, and what would have been right. */
function parseFault(e: unknown, specs: readonly OptionSpec[]): string {
  const err = e as { code?: string; message?: string };
  const message = err.message ?? String(e);
  const given = /'([^']+)'/.exec(message)?.[1];
  const flags = specs.map(flagOf);
  switch (err.code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION": {
      const near = closestName((given ?? message).split("=")[0]!, flags);
      return near !== undefined
        ? `unknown option '${given ?? message}'; did you mean ${near}? (--help lists every option)`
        : `unknown option '${given ?? message}'; valid options: ${flags.join(", ")}`;
    }
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE":
      return message.includes("does not take")
        ? `option '${given ?? message}' takes no value; see --help`
        : `option '${given?.split(" ")[0] ?? message}' needs a value; see --help`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `unexpected argument '${given ?? message}'; options start with --, valid options: ${flags.join(", ")}`;
    default:
      return message.split("\n")[0] ?? message;
  }
}

/** What the command line gave: each option under its key, as typed (a switch: true; a repeated one: a list). */
export type FlagValues = Record<string, string | string[] | boolean | undefined>;

/** Reads arguments (without the runtime and script) by `specs`; an unknown or malformed flag is a SettingError. */
export function readFlags(argv: readonly string[], specs: readonly OptionSpec[]): FlagValues {
  const options: NonNullable<ParseArgsConfig["options"]> = Object.fromEntries(
    specs.map((s) => [
      flagOf(s).slice(2),
      {
        type: s.arg === undefined ? "boolean" : "string",
        multiple: s.repeats === true,
        ...(s.short !== undefined ? { short: s.short } : {}),
      },
    ]),
  );
  let values: Record<string, unknown>;
  try {
    values = parseArgs({ args: joinNegativeValues(argv, specs), options, strict: true }).values;
  } catch (e) {
    throw new SettingError(parseFault(e, specs));
  }
  return Object.fromEntries(specs.map((s) => [s.key, values[flagOf(s).slice(2)] as FlagValues[string]]));
}

/** An option's text for a reader: `spell` names the others; Markdown for the documents, else plain for --help. */
function optionText(
  spec: OptionSpec,
  catalog: CodecCatalog,
  spell: (key: string) => string,
  markdown: boolean,
): string {
  const text = (typeof spec.text === "function" ? spec.text(catalog) : spec.text).replace(/\{(\w+)\}/g, (_, key) =>
    markdown ? `\`${spell(key)}\`` : spell(key),
  );
  if (!markdown) return text.replaceAll("`", "").replace(/(docs\/[\w-]+\.md)#[\w-]+/g, "$1");
  return text
    .replaceAll("\n", " ")
    .replaceAll("|", "\\|")
    .replace(/docs\/([\w-]+\.md(#[\w-]+)?)/g, (_, target: string) => `[${target.split("#")[0]}](${target})`);
}

/** `text` in lines of at most `width` columns, broken at spaces. */
function wrapped(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line !== "" && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  return [...lines, line];
}

/** An option's name as --help shows it: `-h, --help`, `--runs N`. */
export function optionName(spec: OptionSpec): string {
  return `${spec.short ? `-${spec.short}, ` : ""}${flagOf(spec)}${spec.arg !== undefined ? ` ${spec.arg}` : ""}`;
}

/** The options' lines of --help: each name, then its text from `column`, every line within 100 columns. */
export function optionLines(
  specs: readonly OptionSpec[],
  catalog: CodecCatalog,
  spell: (key: string) => string,
  column: number,
): string {
  const indent = " ".repeat(column);
  return specs
    .map((spec) => {
      const name = `  ${optionName(spec)}`;
      const lines = optionText(spec, catalog, spell, false)
        .split("\n")
        .flatMap((paragraph) => wrapped(paragraph, 100 - column));
      const first = name.length + 2 <= column ? `${name.padEnd(column)}${lines[0]}` : `${name}\n${indent}${lines[0]}`;
      return [first, ...lines.slice(1).map((l) => indent + l)].join("\n");
    })
    .join("\n");
}

/** The options as a Markdown table: each named as `name` writes it, its text with `spell` naming the others. */
export function optionsTable(
  specs: readonly OptionSpec[],
  catalog: CodecCatalog,
  name: (spec: OptionSpec) => string,
  spell: (key: string) => string,
): string {
  return [
    "| option | what it does |",
    "| --- | --- |",
    ...specs.map((s) => `| ${name(s).replaceAll("|", "\\|")} | ${optionText(s, catalog, spell, true)} |`),
  ].join("\n");
}
