/**
 * docs/hand-written-protocol.md's figures: custom-binary in codec mode of the default run
 * (epyc-default-1.json.gz) against json and json-bytes, the cross-check's plain loop
 * (crosscheck-epyc-default-1.txt), and the browser pair kept as history
 * (browser-custom-binary-{before,after}-1.json.gz).
 */

import type { CaseResult, Estimate } from "../../../client/harness/results.ts";
import { ratioText } from "../../report/format.ts";
import { claim, type PageFigures } from "./figure-spec.ts";
import { fixed, list } from "./prose.ts";
import { caseIn, crosscheckRows, machineOf } from "./sample-files.ts";

const DEFAULT = "epyc-default-1.json.gz";
const BEFORE = "browser-custom-binary-before-1.json.gz";
const AFTER = "browser-custom-binary-after-1.json.gz";
const PAYLOADS = ["small", "medium", "large"];
const two = fixed(2);

const lab = (file: string, payload: string, codec: string): CaseResult =>
  caseIn(file, { mode: "codec", payload, codec });
const vsJson = (file: string, payload: string): Estimate => {
  const r = lab(file, payload, "custom-binary").ratios?.vsJson;
  if (r === undefined) throw new Error(`results/sample/${file}: ${payload} custom-binary has no ratio to json`);
  return r;
};
/** custom-binary's total per message over another codec's, in the default run. */
const over = (payload: string, codec: string): number =>
  lab(DEFAULT, payload, "custom-binary").total.median / lab(DEFAULT, payload, codec).total.median;
/** The payloads on which custom-binary takes more than half json's time. */
const notHalf = (): string[] => PAYLOADS.filter((p) => vsJson(DEFAULT, p).value > 0.5);

export const HAND_WRITTEN_PROTOCOL: PageFigures = {
  page: "docs/hand-written-protocol.md",
  figures: {
    "default-machine": () => {
      const e = machineOf([DEFAULT]);
      return `${e.cpu}, ${e.cores} cores, Bun ${e.runtimeVersion}`;
    },
    "floor-table": () => {
      const plain = crosscheckRows().filter((r) => r.codec === "custom-binary");
      const rows = PAYLOADS.map((p) => [
        p,
        // The ratio as the tables write it, without the mark of an interval wider than the run asked.
        ratioText({ ...vsJson(DEFAULT, p), wide: false }),
        two(over(p, "json-bytes")),
        two(plain.find((r) => r.payload === p)!.plain),
        `${two(vsJson(BEFORE, p).value)} / ${two(vsJson(AFTER, p).value)}`,
      ]);
      const header = [
        "payload",
        "custom-binary / json",
        "custom-binary / json-bytes",
        "plain loop (`bun run crosscheck`) / json",
        "in Chromium / json, before the browser work and after (Xeon)",
      ];
      return [header, header.map(() => "---"), ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
    },
    "bytes-half": () =>
      claim(
        PAYLOADS.every((p) => over(p, "json-bytes") <= 0.5),
        "it takes at most half the time on every message",
        "custom-binary at most half json-bytes' time on every payload of the default run",
      ),
    "not-half": () => {
      const payloads = notHalf();
      return claim(
        payloads.length > 0,
        `does not on the ${list(payloads)} message${payloads.length > 1 ? "s" : ""}`,
        "custom-binary above half json's time on some payload of the default run",
      );
    },
    "floor-cpu": () => machineOf([DEFAULT]).cpu,
    "decode-large": () =>
      two(lab(DEFAULT, "large", "custom-binary").deserialize.median / lab(DEFAULT, "large", "json").deserialize.median),
  },
};
