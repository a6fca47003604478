/**
 * docs/hand-written-protocol.md's figures: custom-binary in codec mode of the default run against json and
 * json-bytes, the cross-check's plain loop, and the browser before/after pair kept as history.
 */

import type { CaseResult } from "../../../client/harness/results.ts";
import { ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, list, mdTable } from "./prose.ts";
import { caseIn, crosscheckRows, estimateIn, machineOf } from "./sample-files.ts";

const DEFAULT = "bun-default-1.json.gz";
const PAYLOADS = ["small", "medium", "large"];
const two = fixed(2);
const machine = () => machineOf([DEFAULT]);
const vsJson = (file: string, payload: string) => estimateIn(file, { mode: "codec", payload, codec: "custom-binary" });
/** custom-binary's time per message over another codec's in the default run: in total, or one half of it. */
const over = (p: string, codec: string, of = (c: CaseResult) => c.total.median): number =>
  of(caseIn(DEFAULT, { mode: "codec", payload: p, codec: "custom-binary" })) /
  of(caseIn(DEFAULT, { mode: "codec", payload: p, codec }));

export const HAND_WRITTEN_PROTOCOL: PageFigures = {
  page: "docs/hand-written-protocol.md",
  figures: {
    "default-machine": () => `${machine().cpu}, ${machine().cores} cores, Bun ${machine().runtimeVersion}`,
    "floor-table": () => {
      const plain = crosscheckRows().filter((r) => r.codec === "custom-binary");
      return mdTable(
        [
          "payload",
          "custom-binary / json",
          "custom-binary / json-bytes",
          "plain loop (`bun run crosscheck`) / json",
          "in Chromium / json, before the browser work and after (Xeon)",
        ],
        PAYLOADS.map((p) => [
          p,
          ratioText({ ...vsJson(DEFAULT, p), wide: false }), // without the mark of a wide interval
          two(over(p, "json-bytes")),
          two(plain.find((r) => r.payload === p)!.plain),
          ["before", "after"].map((w) => two(vsJson(`browser-custom-binary-${w}-1.json.gz`, p).value)).join(" / "),
        ]),
      );
    },
    // At most half json-bytes' time everywhere; more than half json's somewhere.
    "half-time": () => {
      const above = PAYLOADS.filter((p) => vsJson(DEFAULT, p).value > 0.5);
      return claim(
        above.length > 0 && PAYLOADS.every((p) => over(p, "json-bytes") <= 0.5),
        `it takes at most half the time on every message. Against plain \`json\`, whose strings arrive already decoded by the WebSocket layer, it does not on the ${list(above)} message${above.length > 1 ? "s" : ""}`,
        "custom-binary at most half json-bytes' time on every payload, and above half json's on some",
      );
    },
    "floor-cpu": () => machine().cpu,
    "decode-large": () => two(over("large", "json", (c) => c.deserialize.median)),
  },
};
