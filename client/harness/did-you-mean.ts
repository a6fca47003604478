/**
 * "Did you mean ...": the valid name closest to a mistyped one, for the one-line refusals of
 * a bad flag or value (`--quik` -> `--quick`, `msgpakr` -> `msgpackr`). Close means a few
 * edits away for its length (one for a short name, up to three for a long one) or one swap
 * of two letters; nothing is suggested when two names are equally close, or none is.
 */

/** Edits (insert, delete, replace, or swap two neighbours) from `a` to `b`. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}

/** The one valid name closest to `given`, if one is close enough and closer than the rest. */
export function closestName(given: string, valid: readonly string[]): string | undefined {
  const g = given.toLowerCase();
  const allowed = Math.max(1, Math.min(3, Math.floor(g.length / 3)));
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  let tie = false;
  for (const name of valid) {
    const n = name.toLowerCase();
    // A name the given one starts (`--quic` for `--quick`) counts as one edit away.
    const dist = n.startsWith(g) && g.length >= 3 ? 1 : distance(g, n);
    if (dist < bestDistance) {
      best = name;
      bestDistance = dist;
      tie = false;
    } else if (dist === bestDistance) tie = true;
  }
  return best !== undefined && bestDistance <= allowed && !tie ? best : undefined;
}

/** "did you mean NAME? " for a refusal's line when one valid name is close to `given`, else "". */
export function didYouMean(given: string, valid: readonly string[]): string {
  const near = closestName(given, valid);
  return near !== undefined ? `did you mean ${near}? ` : "";
}
