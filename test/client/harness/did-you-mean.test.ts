/** closestName: the valid name a mistyped flag or value was meant to be, or none. */
import { describe, expect, it } from "vitest";
import { closestName } from "../../../client/harness/did-you-mean.ts";

const FLAGS = ["--quick", "--codecs", "--codec-module", "--modes", "--messages", "--max-time", "--out", "--fixed"];

describe("closestName", () => {
  it.each([
    ["--quik", FLAGS, "--quick"],
    ["--qiuck", FLAGS, "--quick"],
    ["--codec", FLAGS, undefined], // a prefix of two names: no guess
    ["--mesages", FLAGS, "--messages"],
    ["--modse", FLAGS, "--modes"],
    ["--ou", FLAGS, "--out"],
    ["msgpakr", ["json", "msgpack", "msgpackr", "protobuf"], "msgpackr"],
    ["protobuff", ["json", "msgpack", "msgpackr", "protobuf"], "protobuf"],
    ["4G", ["lan", "wifi", "4g", "slow-4g", "3g"], "4g"],
    ["xyz", ["json", "msgpack", "protobuf"], undefined],
    ["--verbose", FLAGS, undefined],
  ] as const)("%s among %j: %s", (given, valid, expected) => {
    expect(closestName(given, valid)).toBe(expected);
  });
});
