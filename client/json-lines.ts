/**
 * JSON that keeps NaN and the infinities, for results crossing a process
 * boundary (the Node client reports to the bench on stdout, one JSON object
 * per line). Plain JSON would turn a figure a failed case never got (NaN)
 * into null.
 */

const NON_FINITE = "$nonFinite";

export function stringifyLine(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) => (typeof v === "number" && !Number.isFinite(v) ? { [NON_FINITE]: String(v) } : v));
}

export function parseLine(line: string): unknown {
  return JSON.parse(line, (_key, v: unknown) => {
    if (v !== null && typeof v === "object" && NON_FINITE in v) return Number((v as Record<string, string>)[NON_FINITE]);
    return v;
  });
}
