/**
 * docs/clusters.md's figures: the three committed fanout runs (one process alone, one through
 * Redis, two through Redis) over the codecs of docs/results.md's fanout table.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS } from "../../../protocols/messages.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, hi, list, lo, thousands, whole } from "./prose.ts";
import { CLUSTER_CODECS } from "./results-block.ts";
import { caseIn, casesIn, machineOf, sampleResults } from "./sample-files.ts";

const FILES = {
  alone: "fanout-1-process.json.gz",
  redis: "fanout-1-process-redis.json.gz",
  two: "fanout-2-processes-redis.json.gz",
} as const;
type Setup = keyof typeof FILES;
const SETUPS = Object.keys(FILES) as Setup[];

const one = (s: Setup, payload: string, codec: string): CaseResult =>
  caseIn(FILES[s], { mode: "fanout", payload: payload as CaseResult["payload"], codec });
/** The table's cases of a setup. */
const table = (s: Setup): CaseResult[] =>
  casesIn(FILES[s], { mode: "fanout" }).filter((c) => CLUSTER_CODECS.includes(c.codec));
/** Every server process's CPU per delivery, µs. */
const cpu = (c: CaseResult): number => c.socket!.cluster!.cpuNsPerDelivery.median / 1000;
const bytesPerMsg = (c: CaseResult): number => c.socket!.cluster!.backplaneBytesPerMsg.median;
const span = (values: number[], format: (x: number) => string): string => `${format(lo(values))}-${format(hi(values))}`;
const cpuSpan = (s: Setup): string => `${span(table(s).map(cpu), fixed(1))} µs`;
/** A codec's CPU per delivery relative to json's on a payload. */
const vsJson = (s: Setup, payload: string, codec: string): number =>
  cpu(one(s, payload, codec)) / cpu(one(s, payload, "json"));
/** What the backplane carries beyond `crossings` copies of the payload. */
const fixedPart = (c: CaseResult, crossings: number): number => bytesPerMsg(c) - crossings * c.bytes;
const fixedParts = (s: Setup, crossings: number): number[] =>
  casesIn(FILES[s], { mode: "fanout" }).map((c) => fixedPart(c, crossings));
/** Two processes' deliveries per second over a setup's, codec by codec. */
const twoAgainst = (s: Setup): number[] => table("two").map((c) => c.msgsPerS / one(s, c.payload, c.codec).msgsPerS);
const rateSpan = (s: Setup): string =>
  span(
    table(s).map((c) => c.msgsPerS),
    thousands,
  );

export const CLUSTERS: PageFigures = {
  page: "docs/clusters.md",
  figures: {
    machine: () => {
      const m = machineOf(Object.values(FILES));
      return `${m.cpu}, ${m.cores} cores`;
    },
    took: () => list(SETUPS.map((s) => String(Math.round(sampleResults(FILES[s]).elapsedMs / 1000)))),
    "backplane-first": () =>
      claim(
        ARTICLE_PAYLOADS.every((p) => {
          const alone = table("alone").filter((c) => c.payload === p);
          const added = alone.map((c) => cpu(one("redis", p, c.codec)) - cpu(c));
          return lo(added) > hi(alone.map(cpu)) - lo(alone.map(cpu));
        }),
        "The backplane costs more than the codec.",
        "that on every payload the least Redis adds to a codec's CPU is more than the codecs differ alone",
      ),
    "cpu-redis": () => cpuSpan("redis"),
    "cpu-alone": () => cpuSpan("alone"),
    "cpu-two": () => cpuSpan("two"),
    "large-custom-binary": () => {
      const [cb, json] = [one("two", "large", "custom-binary"), one("two", "large", "json")];
      return `${vsJson("two", "large", "custom-binary").toFixed(2)}x JSON's CPU per delivery on two processes (${cpu(cb).toFixed(2)} against ${cpu(json).toFixed(2)} µs), ${vsJson("redis", "large", "custom-binary").toFixed(2)}x on one through Redis and ${vsJson("alone", "large", "custom-binary").toFixed(2)}x alone`;
    },
    "large-protobuf": () =>
      `${span(
        SETUPS.map((s) => vsJson(s, "large", "protobuf")),
        fixed(2),
      )}x`,
    "small-codecs": () =>
      `${span(
        SETUPS.flatMap((s) => CLUSTER_CODECS.filter((c) => c !== "json").map((c) => vsJson(s, "small", c))),
        fixed(2),
      )}x`,
    "json-place": () => {
      const place = (s: Setup) =>
        table(s)
          .filter((c) => c.payload === "small")
          .sort((a, b) => cpu(a) - cpu(b))
          .findIndex((c) => c.codec === "json");
      return claim(
        new Set(SETUPS.map(place)).size > 1,
        "JSON's own place among them changes from one setup to the next",
        "JSON's place among the codecs on the small message changing between setups",
      );
    },
    "fixed-two": () => span(fixedParts("two", 3), String),
    "fixed-one": () => span(fixedParts("redis", 2), String),
    "worked-bytes": () => {
      const worked = (codec: string) => {
        const c = one("two", "large", codec);
        return `3 x ${c.bytes} + ${fixedPart(c, 3)} = ${whole(bytesPerMsg(c))}`;
      };
      return `JSON's large message: ${worked("json")}; custom-binary's: ${worked("custom-binary")}`;
    },
    "small-fixed-most": () =>
      claim(
        (
          [
            ["two", 3],
            ["redis", 2],
          ] as const
        ).every(([s, n]) =>
          casesIn(FILES[s], { mode: "fanout", payload: "small" }).every((c) => fixedPart(c, n) > bytesPerMsg(c) / 2),
        ),
        "On a small message the fixed part is most of it.",
        "the fixed part as most of a small message's backplane bytes",
      ),
    "two-not-more": () =>
      claim(
        hi(twoAgainst("alone")) < 1 && hi(twoAgainst("redis")) < 1,
        "Two processes did not deliver more here.",
        "two processes delivering fewer messages a second than one, alone and through Redis, on every codec in the table",
      ),
    "rate-two": () => rateSpan("two"),
    "rate-alone": () => rateSpan("alone"),
    "rate-redis": () => rateSpan("redis"),
    "two-vs-alone": () => `${span(twoAgainst("alone"), fixed(2))}x`,
    "two-vs-redis": () => `${span(twoAgainst("redis"), fixed(2))}x`,
  },
};
