/** jsonFault: where JSON text stops being JSON, as a line and column a user can open. */
import { describe, expect, it } from "vitest";
import { jsonFault } from "../../../client/harness/json-position.ts";

describe("jsonFault", () => {
  it.each([
    ['[{"a": 1}, {"b": [1, 2, {"c": "x\\u00e9", "d": null, "e": true, "f": -1.5e3}]}]'],
    ['  {"emoji": "\\ud83d\\ude00", "nested": {"deep": [[], {}]}}\n'],
    ["0"],
  ])("finds no fault in JSON: %s", (text) => {
    expect(() => JSON.parse(text)).not.toThrow();
    expect(jsonFault(text)).toBeUndefined();
  });

  it.each([
    ['[\n  {"a": 1},\n  {a: 2}\n]', 3, 4, "expected a field name in double quotes, found 'a'"],
    ['[{"a": 1,}]', 1, 10, "expected a field name in double quotes, found '}'"],
    ['[{"a": 1} {"b": 2}]', 1, 11, "expected ',' or ']', found '{'"],
    ['{"a": 01}', 1, 8, "expected ',' or '}', found '1'"],
    ['{"a": "tab\there"}', 1, 11, "a control character inside a string (write it as an escape)"],
    ['{"a": "\\x"}', 1, 9, "an unknown escape \\x"],
    ['{"a": "open', 1, 12, "a string that never ends"],
    ['{"a": tru}', 1, 7, "expected a value, found 't'"],
    ['{"a": 1} {"b": 2}', 1, 10, "more after the value: '{'"],
    ['[{"a": 1}', 1, 10, "expected ',' or ']', found the end of the text"],
  ] as const)("%j: line %i, column %i", (text, line, column, what) => {
    expect(() => JSON.parse(text)).toThrow();
    expect(jsonFault(text)).toEqual({ line, column, what });
  });
});
