/**
 * docs/access-patterns.md quotes the committed every-codec run (read-one and
 * validated against decode) and the committed route run (a router's CPU per
 * message): each figure and each ranking it states is worked out here from
 * the file it comes from.
 */
import { describe, expect, it } from "vitest";
import { csvSample, doc, flat, num, type Row } from "../helpers/samples.ts";
import { fixed, hi, list, lo, ordinal, range, sayer } from "../helpers/prose.ts";

const text = flat(doc("access-patterns.md"));
/** The page says this, word for word (its lines joined); a failure names the fragment it should hold, with the file's figures in it. */
const says = sayer(text, "docs/access-patterns.md");

/** How the page names a codec in prose. */
const NAMES: Record<string, string> = {
  avro: "Avro",
  bebop: "Bebop",
  flatbuffers: "FlatBuffers",
  capnp: "Cap'n Proto",
  cbor: "CBOR",
  bson: "BSON",
  msgpack: "@msgpack/msgpack",
};
const named = (codec: string): string => NAMES[codec] ?? codec;
const sig = (digits: number) => (x: number) => x.toPrecision(digits);

describe("docs/access-patterns.md", () => {
  const every = csvSample("epyc-every-codec.csv");
  const codecRows = every.where({ mode: "codec" });
  const at = (payload: string, codec: string): Row => every.row({ mode: "codec", payload, codec });
  /** Read-one against the codec's own decode of the same round. */
  const readShare = (r: Row): number => num(r, "read_one_ns") / num(r, "deserialize_ns");
  const withoutDecode = codecRows.filter((r) => r("key_access") !== "decode");

  it("the codecs that read the key without a full decode pay the share of their decode the every-codec run gives", () => {
    expect(withoutDecode.length).toBeGreaterThan(0);
    const decoding = codecRows.filter((x) => x("key_access") === "decode");
    expect(decoding.length).toBeGreaterThan(0);
    for (const r of decoding)
      expect(num(r, "read_one_ns"), `${r("payload")} ${r("codec")}`).toBe(num(r, "deserialize_ns"));
    const market = withoutDecode.filter((r) => r("payload") === "market");
    says(
      `pay a fraction of their own decode (${range(withoutDecode.map(readShare), fixed(2))} of it, ${range(market.map(readShare), fixed(2))} on market's small messages)`,
    );
  });

  it("protobuf on chat decodes slower than JSON yet reads one field far faster, as the run says", () => {
    const protobuf = at("chat", "protobuf");
    const decode = num(protobuf, "deserialize_ns") / num(at("chat", "json"), "deserialize_ns");
    const readOne = num(protobuf, "read_one_vs_json");
    expect(decode).toBeGreaterThan(1);
    expect(readOne).toBeLessThan(1);
    says(`(protobuf on chat: its decode ${decode.toFixed(2)}x JSON's, its read-one ${readOne.toFixed(2)}x)`);
  });

  it("the two lazy formats' read-one on market is the stated multiple of JSON's full parse", () => {
    const fb = num(at("market", "flatbuffers"), "read_one_vs_json");
    const capnp = num(at("market", "capnp"), "read_one_vs_json");
    expect(at("market", "flatbuffers")("key_access")).toBe("lazy");
    expect(at("market", "capnp")("key_access")).toBe("lazy");
    says(`(on market, ${sig(2)(fb)}x and ${sig(2)(capnp)}x JSON's full parse)`);
  });

  it("a schema-less codec's validated, timed in its own loop, is the stated share of its decode", () => {
    const validator = codecRows.filter((r) => r("added_checks") === "validator");
    expect(validator.length).toBeGreaterThan(0);
    const shares = validator.map((r) => num(r, "validated_ns") / num(r, "deserialize_ns"));
    says(`came out at ${range(shares, fixed(2))}x its decode of the same round`);
    // custom-binary's validated is its decode.
    for (const r of codecRows.filter((x) => x("codec") === "custom-binary"))
      expect(num(r, "validated_ns"), r("payload")).toBe(num(r, "deserialize_ns"));
  });

  /** What the range checks add to a schema decode, per message, in µs. */
  const added = (r: Row): number => (num(r, "validated_ns") - num(r, "deserialize_ns")) / 1000;
  const ranges = codecRows.filter((r) => r("added_checks") === "ranges");
  /** The payload where the range checks add the most to a decode: the page's exception. */
  const dearest = [...ranges].sort((a, b) => added(b) - added(a))[0]?.("payload") ?? "(no payload with range checks)";

  it("what the range checks add to a schema decode, off game-tick and on it, is the run's", () => {
    const signed = (x: number) => `${x > 0 ? "+" : ""}${x.toFixed(2)}`;
    const off = ranges.filter((r) => r("payload") !== dearest);
    const on = ranges.filter((r) => r("payload") === dearest);
    says(`(${signed(lo(off.map(added)))} to ${signed(hi(off.map(added)))} µs per message) except on ${dearest}`);
    // There they add more than anywhere else: the least of them above the most elsewhere.
    const least = on.reduce((a, b) => (added(b) < added(a) ? b : a));
    const most = off.reduce((a, b) => (added(b) > added(a) ? b : a));
    expect(
      added(least),
      `the range checks add ${added(least).toFixed(2)} µs to ${least("codec")} on ${dearest}, ${added(most).toFixed(2)} µs to ${most("codec")} on ${most("payload")}`,
    ).toBeGreaterThan(added(most));
    const tick = codecRows.filter((r) => r("payload") === dearest);
    const fastest = [...tick].sort((a, b) => num(a, "deserialize_ns") - num(b, "deserialize_ns"))[0]!;
    expect(fastest("added_checks"), `the checks of ${fastest("codec")}, the fastest decoder on ${dearest}`).toBe(
      "ranges",
    );
    const times = num(fastest, "validated_ns") / num(fastest, "deserialize_ns");
    // The others whose decode the checks more than double there, named before the fastest.
    const doubled = on.filter((r) => r !== fastest && num(r, "validated_ns") > 2 * num(r, "deserialize_ns"));
    says(
      `there they add ${range(on.map(added), fixed(1))} µs, ${
        doubled.length === 0
          ? ""
          : `more than doubling ${list(doubled.map((r) => `${named(r("codec"))}'s`))} decode and `
      }making ${named(fastest("codec"))}'s, the fastest there, ${times.toFixed(1)}x as long`,
    );
  });

  it("on game-tick the fastest decoder falls to the place validated gives it, behind the codecs the page names", () => {
    const tick = codecRows.filter((r) => r("payload") === dearest);
    const by = (col: string) => [...tick].sort((a, b) => num(a, col) - num(b, col)).map((r) => r("codec"));
    const decode = by("deserialize_ns");
    const validated = by("validated_ns");
    const first = decode[0]!;
    const place = validated.indexOf(first);
    says(
      place === 0
        ? `(on ${dearest} ${named(first)} stays first)`
        : `(on ${dearest} ${named(first)} falls from first to ${ordinal(place + 1)}, behind ${list(validated.slice(0, place).map(named))})`,
    );
  });

  describe("route mode", () => {
    const route = csvSample("epyc-route.csv").where({ mode: "route" });
    const of = (payload: string, codec: string): Row =>
      route.find((r) => r("payload") === payload && r("codec") === codec)!;
    const onPayload = (payload: string) => route.filter((r) => r("payload") === payload);
    const us = (ns: number) => ns / 1000;

    it("the run is every codec on market, chat and game-tick with 8 members", () => {
      expect([...new Set(route.map((r) => r("payload")))].sort()).toEqual(["chat", "game-tick", "market"]);
      const codecs = new Set(codecRows.map((r) => r("codec")));
      for (const p of ["market", "chat", "game-tick"])
        expect(
          onPayload(p)
            .map((r) => r("codec"))
            .sort(),
          p,
        ).toEqual([...codecs].sort());
      expect(new Set(route.map((r) => r("route_members")))).toEqual(new Set(["8"]));
      says("every codec, market, chat and game-tick, 8 members");
    });

    it("the cheapest router, its key read, and what market's routers cost are the run's", () => {
      const cheapest = [...route].sort((a, b) => num(a, "route_cpu_ns") - num(b, "route_cpu_ns"))[0]!;
      says(
        `The cheapest router of the run, ${named(cheapest("codec"))} on ${cheapest("payload")}, costs the server ${us(num(cheapest, "route_cpu_ns")).toFixed(2)} µs per message, of which its key read is ${Math.round(num(cheapest, "route_key_ns"))} ns`,
      );
      says(
        `(market's routers cost ${range(
          onPayload("market").map((r) => us(num(r, "route_cpu_ns"))),
          fixed(1),
        )} µs)`,
      );
    });

    it("the key reads it quotes are the server's own timings in the run", () => {
      const cb = (p: string) => num(of(p, "custom-binary"), "route_key_ns");
      // A median above zero is a time the page gives; at or below zero, less than the timer can tell.
      const payloads = [...new Set(route.map((r) => r("payload")))];
      const timed = payloads.filter((p) => cb(p) > 0);
      const untold = payloads.filter((p) => cb(p) <= 0);
      const told = timed.map(
        (p, i) => `${Math.round(cb(p))} ns${i === 0 ? " of the server's time per message" : ""} on ${p}`,
      );
      says(
        `custom-binary's key at an offset takes ${
          timed.length === 0
            ? `less than the server's timer can tell on ${list(untold)}`
            : `${list(told)}${untold.length === 0 ? "" : `, and on ${list(untold)} less than the server's timer can tell`}`
        }`,
      );
      const keys = (codecs: string[]) =>
        route.filter((r) => codecs.includes(r("codec"))).map((r) => us(num(r, "route_key_ns")));
      says(
        `JSON's parse takes ${range(keys(["json"]), fixed(1))} µs, @msgpack/msgpack's, CBOR's and BSON's decode ${range(keys(["msgpack", "cbor", "bson"]), sig(2))} µs`,
      );
    });

    it("forwarding, the codecs that read the key without decoding lead on chat and game-tick, custom-binary and Avro on market", () => {
      const vs = (r: Row) => num(r, "route_cpu_vs_json");
      const readers = [...new Set(route.filter((r) => r("key_access") !== "decode").map((r) => r("codec")))];
      // The slow readers: behind JSON on market and on chat.
      const slow = readers.filter((c) => vs(of("market", c)) > 1 && vs(of("chat", c)) > 1);
      const fast = readers.filter((c) => !slow.includes(c));
      const ratios = (payload: string, codecs: string[]) => codecs.map((c) => vs(of(payload, c)));
      says(
        `${list(fast.map(named))} cost ${range(ratios("chat", fast), fixed(2))}x JSON's CPU on chat and ${range(ratios("game-tick", fast), fixed(2))}x on game-tick`,
      );
      for (const p of ["chat", "game-tick"]) {
        for (const c of fast) expect(vs(of(p, c)), `${p} ${c}`).toBeLessThan(1);
        // The cheapest four on the payload are all among them.
        const cheapest = [...onPayload(p)].sort((a, b) => vs(a) - vs(b)).slice(0, 4);
        for (const r of cheapest) expect(fast, `${p} ${r("codec")}`).toContain(r("codec"));
      }
      const market = [...onPayload("market")].sort((a, b) => vs(a) - vs(b));
      says(
        `on market, whose messages are small, ${list(market.slice(0, 2).map((r) => named(r("codec"))))} lead (${market
          .slice(0, 2)
          .map((r) => `${vs(r).toFixed(2)}x`)
          .join(" and ")})`,
      );
      const trailing = ["market", "chat"].flatMap((p) => ratios(p, slow));
      says(
        `${list([...slow].sort((a, b) => vs(of("market", b)) - vs(of("market", a))).map(named))}, which read without decoding but slowly, trail JSON on market and chat (${range(trailing, sig(3), sig(2))}x)`,
      );
    });

    it("the codecs that can only decode sit near JSON, CBOR and BSON behind it, but where their decode beats JSON.parse by far", () => {
      const vs = (r: Row) => num(r, "route_cpu_vs_json");
      const decoders = route.filter((r) => r("key_access") === "decode" && r("codec") !== "json");
      const payloads = [...new Set(route.map((r) => r("payload")))];
      // Beating JSON.parse by far: a decode under half of JSON's on the payload in the every-codec run.
      const exceptions = decoders.filter(
        (r) =>
          num(at(r("payload"), r("codec")), "deserialize_ns") < num(at(r("payload"), "json"), "deserialize_ns") / 2,
      );
      // Behind JSON: a codec dearer than JSON on every payload, and beyond doubt (its 95% interval
      // above 1) on most of them.
      const behindCodecs = [...new Set(decoders.map((r) => r("codec")))].filter((c) => {
        const mine = decoders.filter((r) => r("codec") === c && !exceptions.includes(r));
        return (
          mine.length === payloads.length &&
          mine.every((r) => vs(r) > 1) &&
          mine.filter((r) => num(r, "route_cpu_vs_json_ci95_low") > 1).length > payloads.length / 2
        );
      });
      const behind = decoders.filter((r) => behindCodecs.includes(r("codec")));
      const near = decoders.filter((r) => !behind.includes(r) && !exceptions.includes(r));
      /** The exceptions by payload: "Bebop and msgpackr-records on game-tick (0.39x and 0.60x)". */
      const unless = list(
        payloads.flatMap((p) => {
          const here = exceptions.filter((r) => r("payload") === p);
          return here.length === 0
            ? []
            : [
                `${list(here.map((r) => named(r("codec"))))} on ${p} (${list(here.map((r) => `${vs(r).toFixed(2)}x`))})`,
              ];
        }),
      );
      says(
        `The codecs that can only decode stay near JSON (${range(near.map(vs), fixed(2))}x)${
          behind.length === 0
            ? ""
            : ` or, ${list(behindCodecs.map(named))}, behind it (${range(behind.map(vs), fixed(2))}x)`
        }${exceptions.length === 0 ? "" : `, unless their decode beats \`JSON.parse\` by far: ${unless}`}`,
      );
      // A decode that beats JSON's by far shows: those routers are cheaper than every one near JSON.
      const dearestException = [...exceptions].sort((a, b) => vs(b) - vs(a))[0];
      const cheapestNear = [...near].sort((a, b) => vs(a) - vs(b))[0];
      if (exceptions.length > 0) expect(cheapestNear, "a codec near JSON to set the exceptions against").toBeDefined();
      if (dearestException && cheapestNear)
        expect(
          vs(dearestException),
          `${dearestException("codec")} on ${dearestException("payload")} costs ${vs(dearestException)}x JSON's CPU, ${cheapestNear("codec")} on ${cheapestNear("payload")} ${vs(cheapestNear)}x`,
        ).toBeLessThan(vs(cheapestNear));
    });

    it("what recoding adds over forwarding is the run's: on market's decoders, and most where an encoder is slow", () => {
      const over = (r: Row) => num(r, "route_recode_over_forward");
      const all = route.map(over);
      const top = [...route].sort((a, b) => over(b) - over(a)).slice(0, 2);
      says(`Recoding adds each codec's decode and encode back (${range(all, fixed(2), fixed(1))}x forwarding's CPU`);
      // The two dearest: on one payload the page names it once, else each one's.
      const where = [...new Set(top.map((r) => r("payload")))];
      says(
        `${
          where.length === 1
            ? `${list(top.map((r) => named(r("codec"))))} on ${where[0]}`
            : list(top.map((r) => `${named(r("codec"))} on ${r("payload")}`))
        }, ${top.map((r) => `${over(r).toFixed(1)}x`).join(" and ")})`,
      );
      // What it adds for the codecs that decode to read the key on market, whose encode is all it adds.
      const marketDecoders = onPayload("market").filter((r) => r("key_access") === "decode");
      expect(marketDecoders.length, "codecs that decode to read market's key").toBeGreaterThan(0);
      says(
        `forwarding's CPU: ${range(marketDecoders.map(over), fixed(2), fixed(1))}x for the codecs that decode to read the key on market`,
      );
    });
  });
});
