/**
 * The page's settings in its URL, with the CLI's flag names: `modes`,
 * `codecs`, `payloads`, `iterations` / `warmup` (every mode) or
 * `iterations-MODE` / `warmup-MODE`, `runs`, `seed`, `window`,
 * `stall-timeout` (seconds), `fixed`, `rate` (latency mode: N[,N...] or
 * `sweep`), `members` and `validate` (route mode), `forks` (codec mode's
 * workers, each a fresh engine: forksFromQuery), `link` (the link the bench put in
 * front of the server, for the results: a JSON profile). `bun run bench --client chromium` (or `firefox`)
 * writes them; the page reads them over its defaults, ignoring what it
 * cannot use.
 */

import { parseRates, type LinkProfile, type Mode, type Settings } from "../harness/settings.ts";

import { ratesOverLink } from "../harness/link.ts";
import { EQUAL_KINDS } from "../harness/fidelity.ts";
import { PAYLOAD_NAMES } from "../../protocols/messages.ts";
import type { CodecCatalog } from "../../protocols/registry.ts";
import { codecGroups, socketCodecNames } from "../../protocols/contract.ts";

/**
 * The modes a page runs (fanout's subscribers run in Bun's client; route mode's members and routers run in the page;
 * cold mode's fresh page loads are driven by the bench, `--client chromium --modes cold`).
 */
export const PAGE_MODES: readonly Mode[] = ["codec", "roundtrip", "stream", "latency", "route", "evolve"];

/**
 * Codec mode's processes in the page without `forks`: fresh workers, one after the other, each
 * the unit of every interval (client/page/codec-workers.ts). Six, not the CLI's three: over three
 * default Chromium runs each way (bun run capture --repeat 3 -- --client chromium --modes codec),
 * six workers of half a run put the median interval at ±3.9% and the widest at ±25%, three
 * workers of a run ±6.1% and ±60% (Student's t on 2 degrees of freedom is 4.3, on 5 it is 2.6), in
 * the same time: each worker warms up on the messages it times.
 */
export const PAGE_FORKS = 6;

/** Codec mode's workers the URL asks for (`forks`, 1 to 64; 1: codec mode in the page itself), else PAGE_FORKS. */
export function forksFromQuery(q: URLSearchParams): number {
  const v = q.get("forks");
  return v !== null && /^\d+$/.test(v) && Number(v) >= 1 && Number(v) <= 64 ? Number(v) : PAGE_FORKS;
}

/** The rates as the page and the CLI write them: "sweep" or N,N. */
export const ratesText = (s: Pick<Settings, "rates" | "sweep">): string => (s.sweep ? "sweep" : s.rates.join(","));

/** Rates from text, or `fallback` when the text is not rates. */
function ratesOr(raw: string | null, fallback: Pick<Settings, "rates" | "sweep">): Pick<Settings, "rates" | "sweep"> {
  try {
    return raw ? parseRates("rate", raw) : { rates: [...fallback.rates], sweep: fallback.sweep };
  } catch {
    return { rates: [...fallback.rates], sweep: fallback.sweep };
  }
}

/** The URL parameters that ask the page for `settings`. */
export function settingsToQuery(settings: Settings, q: URLSearchParams): void {
  q.set("modes", settings.modes.join(","));
  q.set("codecs", settings.codecs.join(","));
  q.set("payloads", settings.payloads.join(","));
  for (const m of PAGE_MODES) {
    q.set(`iterations-${m}`, String(settings.iterations[m]));
    q.set(`warmup-${m}`, String(settings.warmup[m]));
    q.set(`runs-${m}`, String(settings.runs[m]));
  }
  q.set("seed", String(settings.seed));
  q.set("window", String(settings.window));
  q.set("stall-timeout", String(settings.stallTimeoutMs / 1000));
  q.set("rate", ratesText(settings));
  q.set("members", String(settings.members));
  if (settings.validate) q.set("validate", "1");
  if (settings.fixed) q.set("fixed", "1");
  if (settings.allowLossy) q.set("allow-lossy", "1");
  if (settings.equal && settings.equal.length > 0) q.set("equal", settings.equal.join(","));
  if (settings.link) q.set("link", JSON.stringify(settings.link));
}

/** The link the bench put in front of the page's server (--link), as the results name it; undefined when none or not one. */
function linkFrom(raw: string | null): LinkProfile | undefined {
  if (!raw) return undefined;
  try {
    const l = JSON.parse(raw) as Partial<LinkProfile>;
    const ok =
      typeof l.name === "string" &&
      [l.rttMs, l.jitterMs, l.downKbps, l.upKbps].every((x) => typeof x === "number" && Number.isFinite(x));
    return ok ? (l as LinkProfile) : undefined;
  } catch {
    return undefined;
  }
}

/** Settings from the URL over `base`; a value the page cannot use leaves the default. */
export function settingsFromQuery(q: URLSearchParams, base: Settings, catalog: CodecCatalog): Settings {
  // `groups`: names that stand for several values (all; for codecs, default and the families).
  const list = <T extends string>(
    name: string,
    valid: readonly T[],
    fallback: readonly T[],
    groups: Readonly<Record<string, readonly T[]>> = { all: valid },
  ): T[] => {
    const raw = q.get(name);
    if (!raw) return [...fallback];
    const picked = [
      ...new Set(
        raw
          .split(",")
          .flatMap((x): T[] =>
            Object.hasOwn(groups, x) ? [...groups[x]!] : (valid as readonly string[]).includes(x) ? [x as T] : [],
          ),
      ),
    ];
    return picked.length > 0 ? picked : [...fallback];
  };
  // Counts start at 1 (as the CLI's flags do); warm-up may be 0.
  const int = (name: string, min = 1): number | undefined => {
    const v = q.get(name);
    return v !== null && /^\d+$/.test(v) && Number(v) >= min ? Number(v) : undefined;
  };
  // Per-mode values (iterations-codec=...) win over the one for every mode.
  const perMode = (name: string, fallback: Record<Mode, number>, min: number): Record<Mode, number> => {
    const all = int(name, min);
    const out = { ...fallback };
    for (const m of PAGE_MODES) out[m] = int(`${name}-${m}`, min) ?? all ?? fallback[m];
    return out;
  };
  const link = linkFrom(q.get("link"));
  // A sweep over a link starts lower, as the bench's own clients' does.
  const asked = ratesOr(q.get("rate"), base);
  const rates = link ? { ...asked, rates: ratesOverLink(asked) } : asked;
  return {
    ...base,
    modes: list(
      "modes",
      PAGE_MODES,
      base.modes.filter((m) => PAGE_MODES.includes(m)),
    ),
    codecs: list("codecs", socketCodecNames(catalog), base.codecs, codecGroups(catalog)),
    payloads: list("payloads", [...PAYLOAD_NAMES, ...base.userMessages.map((f) => f.name)], base.payloads),
    allowLossy: q.has("allow-lossy") ? q.get("allow-lossy") === "1" : base.allowLossy,
    ...(q.has("equal") ? { equal: list("equal", EQUAL_KINDS, [], {}) } : base.equal ? { equal: base.equal } : {}),
    iterations: perMode("iterations", base.iterations, 1),
    runs: perMode("runs", base.runs, 1),
    warmup: perMode("warmup", base.warmup, 0),
    seed: int("seed", 0) ?? base.seed,
    fixed: q.has("fixed") ? q.get("fixed") === "1" || q.get("fixed") === "true" : base.fixed,
    window: int("window") ?? base.window,
    members: int("members") ?? base.members,
    validate: q.has("validate") ? q.get("validate") === "1" || q.get("validate") === "true" : base.validate,
    stallTimeoutMs: (int("stall-timeout") ?? base.stallTimeoutMs / 1000) * 1000,
    ...rates,
    ...(link ? { link } : {}),
  };
}
