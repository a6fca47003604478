/**
 * Where JSON text stops being JSON: the line and column of the first character a JSON parser
 * cannot accept, and what it found there. JSON.parse under Bun says what went wrong but not
 * where; a user with a thousand-line messages file needs the place.
 */

/** The first fault in `text`: its 1-based line and column and a few words on it; undefined when `text` is JSON. */
export function jsonFault(text: string): { line: number; column: number; what: string } | undefined {
  let i = 0;
  const fail = (what: string): never => {
    throw Object.assign(new Error(what), { at: i });
  };
  const found = (): string => (i >= text.length ? "the end of the text" : `'${text[i]}'`);
  const space = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`expected a value, found ${found()}`);
  };
  const string = (): void => {
    i++;
    while (i < text.length && text[i] !== '"') {
      const c = text.charCodeAt(i);
      if (c < 0x20) fail("a control character inside a string (write it as an escape)");
      if (text[i] === "\\") {
        i++;
        if (text[i] === "u") {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) fail("\\u needs four hex digits");
          i += 5;
          continue;
        }
        if (i >= text.length || !'"\\/bfnrt'.includes(text[i]!)) fail(`an unknown escape \\${text[i] ?? ""}`);
      }
      i++;
    }
    if (i >= text.length) fail("a string that never ends");
    i++;
  };
  const number = (): void => {
    const m = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
    m.lastIndex = i;
    const hit = m.exec(text);
    if (!hit || hit[0] === "-" || hit[0] === "") fail(`expected a value, found ${found()}`);
    i += hit![0].length;
  };
  const value = (): void => {
    space();
    const c = text[i];
    if (c === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        space();
        if (text[i] !== '"') fail(`expected a field name in double quotes, found ${found()}`);
        string();
        space();
        if (text[i] !== ":") fail(`expected ':' after a field name, found ${found()}`);
        i++;
        value();
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") return void i++;
        fail(`expected ',' or '}', found ${found()}`);
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (;;) {
        value();
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") return void i++;
        fail(`expected ',' or ']', found ${found()}`);
      }
    }
    if (c === '"') return string();
    if (c === "t") return literal("true");
    if (c === "f") return literal("false");
    if (c === "n") return literal("null");
    return number();
  };
  try {
    value();
    space();
    if (i < text.length) fail(`more after the value: ${found()}`);
    return undefined;
  } catch (e) {
    // Nesting deeper than the stack: no place to give.
    if ((e as { at?: number }).at === undefined) return undefined;
    return { ...lineAndColumn(text, (e as { at: number }).at), what: (e as Error).message };
  }
}

/** The 1-based line and column of offset `at` in `text`. */
export function lineAndColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  return { line: before.split("\n").length, column: at - before.lastIndexOf("\n") };
}
