/**
 * docs/clusters.md's figures: the three committed fanout runs (one process alone, one through
 * Redis, two through Redis) over the codecs of docs/results.md's fanout table.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS } from "../../../protocols/messages.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, mdTable, range, thousands } from "./prose.ts";
import { CLUSTER_CODECS } from "./results-block.ts";
import { caseIn, casesIn, machineOf, sampleResults } from "./sample-files.ts";

/** Each setup: its run, what the table calls it, and how often a message crosses the backplane. */
const SETUPS = [
  { file: "fanout-1-process.json.gz", name: "one process alone", crossings: 0 },
  { file: "fanout-1-process-redis.json.gz", name: "one process through Redis", crossings: 2 },
  { file: "fanout-2-processes-redis.json.gz", name: "two processes through Redis", crossings: 3 },
] as const;
type Setup = (typeof SETUPS)[number];
const [ALONE, REDIS, TWO] = SETUPS;
const OTHERS = CLUSTER_CODECS.filter((c) => c !== "json");

const one = (s: Setup, payload: CaseResult["payload"], codec: string): CaseResult =>
  caseIn(s.file, { mode: "fanout", payload, codec });
/** A setup's cases: docs/results.md's fanout table's, or with `all` every codec's. */
const table = (s: Setup, all = false): CaseResult[] =>
  casesIn(s.file, { mode: "fanout" }).filter((c) => all || CLUSTER_CODECS.includes(c.codec));
/** Every server process's CPU per delivery, µs. */
const cpu = (c: CaseResult): number => c.socket!.cluster!.cpuNsPerDelivery.median / 1000;
const bytes = (c: CaseResult): number => c.socket!.cluster!.backplaneBytesPerMsg.median;
/** What the backplane carries beyond the copies of the payload. */
const fixedPart = (c: CaseResult, s: Setup): number => bytes(c) - s.crossings * c.bytes;
/** "lo-hi" of a figure over a setup's table. */
const over = (s: Setup, format: (x: number) => string, f: (c: CaseResult) => number): string =>
  range(table(s).map(f), format);
const x2 = (v: number[]): string => `${range(v, fixed(2))}x`;
/** Codecs' CPU per delivery against json's on a payload, over the three setups. */
const vsJson = (payload: CaseResult["payload"], codecs: readonly string[]): string =>
  x2(SETUPS.flatMap((s) => codecs.map((c) => cpu(one(s, payload, c)) / cpu(one(s, payload, "json")))));
/** JSON's place among the table's codecs by CPU per delivery on the small message. */
const jsonPlace = (s: Setup): number =>
  table(s)
    .filter((c) => c.payload === "small")
    .sort((a, b) => cpu(a) - cpu(b))
    .findIndex((c) => c.codec === "json");
/** Two processes' deliveries per second over a setup's, codec by codec. */
const twoAgainst = (s: Setup): number[] => table(TWO).map((c) => c.msgsPerS / one(s, c.payload, c.codec).msgsPerS);
/** The payloads where the least Redis adds to a codec's CPU is more than the codecs differ alone. */
const redisFirst = (): string[] =>
  ARTICLE_PAYLOADS.filter((p) => {
    const alone = table(ALONE).filter((c) => c.payload === p);
    return lo(alone.map((c) => cpu(one(REDIS, p, c.codec)) - cpu(c))) > hi(alone.map(cpu)) - lo(alone.map(cpu));
  });

export const CLUSTERS: PageFigures = {
  page: "docs/clusters.md",
  figures: {
    machine: () => {
      const m = machineOf(SETUPS.map((s) => s.file));
      return `${m.cpu}, ${m.cores} cores`;
    },
    took: () => list(SETUPS.map((s) => String(Math.round(sampleResults(s.file).elapsedMs / 1000)))),
    setups: () =>
      mdTable(
        ["setup", "server CPU per delivery", "deliveries/s", "backplane bytes/msg", "two processes against it"],
        SETUPS.map((s) => [
          s.name,
          `${over(s, fixed(1), cpu)} µs`,
          over(s, thousands, (c) => c.msgsPerS),
          s.crossings ? `${s.crossings} x the payload + ${over(s, String, (c) => fixedPart(c, s))}` : "-",
          s === TWO ? "-" : x2(twoAgainst(s)),
        ]),
      ),
    "backplane-first": () => {
      const where = redisFirst();
      return claim(
        where.length > 0,
        `The backplane costs more than the codec${where.length < ARTICLE_PAYLOADS.length ? ` on the ${list(where)} message${where.length > 1 ? "s" : ""}` : ""}.`,
        "Redis adding more than the codecs differ on some payload",
      );
    },
    "large-custom-binary": () => vsJson("large", ["custom-binary"]),
    "large-protobuf": () => vsJson("large", ["protobuf"]),
    "small-codecs": () =>
      `${vsJson("small", OTHERS)} of JSON's, and ${claim(
        new Set(SETUPS.map(jsonPlace)).size > 1,
        "JSON's own place among them changes from one setup to the next",
        "JSON's place among the codecs on the small message changing between setups",
      )}`,
    "small-fixed-most": () =>
      claim(
        [REDIS, TWO].every((s) => table(s, true).every((c) => c.payload !== "small" || fixedPart(c, s) > bytes(c) / 2)),
        "On a small message the fixed part is most of it.",
        "the fixed part as most of a small message's backplane bytes",
      ),
    "two-not-more": () => {
      const [alone, redis] = [twoAgainst(ALONE), twoAgainst(REDIS)];
      return claim(
        hi(alone) < 1,
        hi(redis) < 1
          ? "Two processes did not deliver more here."
          : `Two processes delivered less than one alone, and ${x2(redis)} what one through Redis did.`,
        "two processes delivering fewer messages a second than one alone, every codec in the table",
      );
    },
  },
};
