import { describe, expect, it } from "vitest";
import { SettingError } from "../../../client/harness/harness-errors.ts";
import {
  checkPayloadName,
  cycleUserMessages,
  parseUserMessages,
  payloadNameOf,
} from "../../../client/harness/user-messages.ts";

const file = (text: string, name = "mine") => ({ name, file: `${name}.json`, text });
/** The label the command line opens a refusal with: the option and the file. */
const label = (f: { file: string }) => `--messages ${f.file}`;
const parse = (f: { name: string; file: string; text: string }) => parseUserMessages(f, label(f));

describe("a user's messages file", () => {
  it("reads a JSON array and JSON Lines alike, keeping -0, nesting and non-ASCII text", () => {
    const array = parse(file('[{"a": -0, "b": [{"c": "日本"}]}, {"a": 1}]')).messages;
    const lines = parse(file('{"a": -0, "b": [{"c": "日本"}]}\n\n{"a": 1}\n')).messages;
    expect(array).toEqual(lines);
    expect(Object.is((array[0] as { a: number }).a, -0)).toBe(true);
  });

  it("notes each integer beyond 2^53, which JSON.parse reads as the nearest double, and none inside strings", () => {
    const { notes } = parse(
      file(
        '[{"id": 12345678901234567890, "s": "99999999999999999999", "ok": 9007199254740991, "f": 1e400},\n {"list": [9007199254740993]}]',
      ),
    );
    // Each names its field (where it has one) and its place in the file.
    expect(notes).toEqual([
      "the integer 12345678901234567890 (field id, line 1, column 9) became 12345678901234567000 when read (beyond 2^53, as JSON.parse reads it in any JavaScript program)",
      "the integer 9007199254740993 (line 2, column 12) became 9007199254740992 when read (beyond 2^53, as JSON.parse reads it in any JavaScript program)",
    ]);
  });

  it.each([
    [
      "not JSON, with the place",
      '[\n  {"a": 1},\n  {a: 2}\n]',
      /^--messages bad\.json: not JSON at line 3, column 4: expected a field name in double quotes, found 'a'$/,
    ],
    [
      "a bad JSON line, with the place",
      '{"a": 1}\n{"a": }',
      /^--messages bad\.json: not JSON at line 2, column 7: expected a value, found '}'$/,
    ],
    ["empty", "", /^--messages bad\.json: no messages; expected a JSON array of objects, or JSON Lines/],
    ["an empty array", "[]", /no messages/],
    [
      "a message that is not an object",
      '[{"a": 1}, 5]',
      /^--messages bad\.json: message 2 is a number, not an object$/,
    ],
    ["an array in an array", "[[1]]", /message 1 is an array, not an object/],
    [
      "a message over 1 MiB",
      `[{"big": "${"x".repeat(1024 * 1024)}"}]`,
      /^--messages bad\.json: message 1 is 1,048,586 bytes as JSON, over the 1 MiB a WebSocket message may carry here$/,
    ],
  ])("%s: one line naming the file and the fault", (_what, text, expected) => {
    expect(() => parse(file(text, "bad"))).toThrow(SettingError);
    expect(() => parse(file(text, "bad"))).toThrow(expected);
  });

  it("is named after its file, and the name must work in a URL and not be a built-in's", () => {
    expect(payloadNameOf("/tmp/x/orders.json")).toBe("orders");
    expect(payloadNameOf("ticks.ndjson")).toBe("ticks");
    expect(() => checkPayloadName("chat", "chat.json", false, "--messages")).toThrow(
      "--messages chat.json: 'chat' is a built-in payload's name; name yours another: --messages my-chat=chat.json",
    );
    expect(() => checkPayloadName("my file", "my file.json", false, "--messages")).toThrow(
      "--messages my file.json: the payload takes the file's name, 'my file', which must be 1-40 letters, digits, '.', '_' or '-'; name it: --messages NAME=my file.json",
    );
    expect(() => checkPayloadName("a/b", "x.json", true, "--messages")).toThrow(
      "--messages a/b=x.json: a payload's name must be 1-40 letters, digits, '.', '_' or '-'",
    );
    expect(() => checkPayloadName("orders", "orders.json", false, "--messages")).not.toThrow();
    // The option is named as the caller spells it: compare() calls it messages.
    expect(() => checkPayloadName("chat", "chat.json", false, "messages")).toThrow(
      "messages chat.json: 'chat' is a built-in payload's name; name yours another: messages my-chat=chat.json",
    );
  });

  it("cycles the file's messages to fill a run", () => {
    const files = [file('[{"i": 0}, {"i": 1}, {"i": 2}]')];
    expect(cycleUserMessages(files, "mine", 7).map((m) => (m as { i: number }).i)).toEqual([0, 1, 2, 0, 1, 2, 0]);
  });
});
