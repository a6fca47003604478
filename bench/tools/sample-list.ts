/**
 * The committed samples (results/sample/) the documents quote, in one place: what each is called,
 * the command that makes it and what it leaves (a run's JSON, gzip-compressed: the record every
 * report reads, at a tenth of its size; its rounds only where marked kept). `bun run samples`
 * remakes them from this list;
 * the documents' figures (figures/) read only the files it names, and who quotes each is what
 * they read (`bun run samples --list` says). A sample no page reads does not belong in
 * results/sample/.
 */

/** A sample `bun run samples` remakes. */
export interface SampleEntry {
  /** What `bun run samples NAME` calls it. */
  name: string;
  /** The command as a user types it. */
  command: string;
  /** The script and its arguments, run by Bun from the project root: {out} is the entry's own folder, {sample:FILE} a sample made earlier in the same remake (or the committed one). */
  argv: string[];
  /** What it leaves in results/sample/: the file there, from the file under {out} (or "stdout": what the command printed). */
  files: Record<string, string>;
  /**
   * "kept" where its readers need a run's rounds (the verdict, which pairs them): the first
   * default run and --quick, whose verdicts the documents and report.html show. Every other
   * run's JSON moves in with its figures only (samples.ts figuresOnly), each case's figures and
   * intervals as the run wrote them: rounds are nine tenths of a file.
   */
  rounds?: "kept";
}

/** A sample kept as it was made, on purpose: `bun run samples` leaves it alone, and the documents that quote it say when it was made. */
export interface HistoryEntry {
  file: string;
  /** Why it is kept rather than remade. */
  why: string;
  /** The commit and day that made it (its file, from before results named their commit, cannot say). */
  made: { commit: string; date: string };
}

const BENCH = "bench/cli/bench.ts";

/** A `bun run bench` sample: its JSON as results/sample/NAME.json.gz. */
function bench(name: string, args: string[], rounds?: "kept"): SampleEntry {
  return {
    name,
    command: ["bun run bench", ...args].join(" "),
    argv: [BENCH, ...args, "--out", "{out}"],
    files: { [`${name}.json.gz`]: "latest.json" },
    ...(rounds ? { rounds } : {}),
  };
}

/** The four codecs people choose between, as the link samples run them. */
const LINK_CODECS = ["--codecs", "json,custom-binary,protobuf,msgpackr"];
const SWEEP = ["--modes", "latency", "--rate", "sweep"];
const EVERY_CODEC = ["--codecs", "all", "--payloads", "all"];
/** The whiteboard's three kinds of message, each a payload of its own. */
const WHITEBOARD = ["cursors", "strokes", "messages"].flatMap((p) => [
  "--messages",
  `docs/examples/whiteboard/${p}.jsonl`,
]);

export const SAMPLES: readonly SampleEntry[] = [
  // Three back to back, so the documents can say how far ratios move between runs.
  bench("bun-default-1", [], "kept"),
  bench("bun-default-2", []),
  bench("bun-default-3", []),
  {
    name: "crosscheck-bun-default-1",
    command: "bun run crosscheck --from results/sample/bun-default-1.json.gz",
    argv: ["bench/tools/crosscheck.ts", "--from", "{sample:bun-default-1.json.gz}"],
    files: { "crosscheck-bun-default-1.txt": "stdout" },
  },
  // Whether codec mode's intervals hold in the next run: five back to back (docs/methodology.md).
  {
    name: "capture-codec",
    command: "bun run capture --repeat 5 --out capture.json -- --modes codec",
    argv: ["bench/tools/capture.ts", "--repeat", "5", "--out", "{out}/capture.json", "--", "--modes", "codec"],
    files: { "capture-codec.json": "capture.json" },
  },
  bench("bun-calibrate", ["--calibrate"]),
  // Three back to back, as the default runs.
  bench("bun-sweep-1", SWEEP),
  bench("bun-sweep-2", SWEEP),
  bench("bun-sweep-3", SWEEP),
  bench("bun-quick", ["--quick"], "kept"),
  bench("bun-every-codec", [...EVERY_CODEC, "--modes", "codec"]),
  bench("chromium-every-codec", [...EVERY_CODEC, "--modes", "codec", "--client", "chromium"]),
  bench("bun-every-codec-field", [...EVERY_CODEC, "--modes", "stream"]),
  bench("bun-route", ["--modes", "route", "--codecs", "all", "--payloads", "market,chat,game-tick", "--clients", "8"]),
  bench("engines-bun", ["--modes", "codec,roundtrip", "--payloads", "all"]),
  bench("engines-node", ["--client", "node", "--modes", "roundtrip", "--payloads", "all"]),
  bench("engines-chromium", ["--client", "chromium", "--modes", "codec,roundtrip", "--payloads", "all"]),
  bench("engines-firefox", ["--client", "firefox", "--modes", "codec,roundtrip", "--payloads", "all"]),
  bench("fanout-1-process", ["--modes", "fanout", "--clients", "8"]),
  bench("fanout-1-process-redis", ["--modes", "fanout", "--clients", "8", "--processes", "1", "--backplane", "redis"]),
  bench("fanout-2-processes-redis", [
    "--modes",
    "fanout",
    "--clients",
    "8",
    "--processes",
    "2",
    "--backplane",
    "redis",
  ]),
  // Compression on the socket: the same round trips with and without permessage-deflate.
  ...(["plain", "deflate"] as const).map((way) =>
    bench(`bun-roundtrip-${way}`, [
      ...["--modes", "roundtrip", "--codecs", "json,custom-binary,msgpackr", "--iterations", "1000", "--runs", "1"],
      ...(way === "deflate" ? ["--deflate"] : []),
    ]),
  ),
  // A whiteboard's traffic (docs/examples/whiteboard/): each codec priced at it, and the load driven.
  bench("bun-load-whiteboard", [
    ...WHITEBOARD,
    ...["--modes", "codec,roundtrip", "--load", "cursors=9000,strokes=600,messages=50", "--fanout", "8"],
  ]),
  // Every codec's first messages in fresh processes (docs/cold-start.md), its rounds kept for the verdict's ties, and the plain script's check of it.
  bench("bun-cold", ["--modes", "cold", "--codecs", "all"], "kept"),
  // What each codec's reader reads across six changes to every payload's messages, both ways (docs/schema-evolution.md); and to a whiteboard's.
  bench("bun-evolve", [
    "--modes",
    "evolve",
    "--payloads",
    "small,medium,large,chat,game-tick,market",
    "--codecs",
    "all",
  ]),
  bench("bun-evolve-whiteboard", [...WHITEBOARD, "--modes", "evolve", "--codecs", "all"]),
  // The same in a browser's fresh page loads (docs/cold-start.md#in-a-browser).
  ...(["chromium", "firefox"] as const).map((browser) =>
    bench(`${browser}-cold`, ["--client", browser, "--modes", "cold", "--codecs", "all"], "kept"),
  ),
  {
    name: "cold-check-bun-cold",
    command: "bun run cold-check --from results/sample/bun-cold.json.gz",
    argv: ["bench/tools/cold-check.ts", "--from", "{sample:bun-cold.json.gz}"],
    files: { "cold-check-bun-cold.txt": "stdout" },
  },
  bench("bun-latency-2000", ["--modes", "latency"]),
  ...[10_000, 40_000].map((rate) =>
    bench(`bun-latency-large-${rate}`, [
      ...["--modes", "latency", "--rate", String(rate), "--payloads", "large"],
      ...["--codecs", "raw,json,custom-binary,msgpack", "--iterations", "4000"],
    ]),
  ),
  bench("chromium-latency", ["--client", "chromium", "--modes", "latency", "--rate", "1000,5000"]),
  bench("chromium-codec-stream", ["--client", "chromium", "--modes", "codec,stream"]),
  // Emulated links (toxiproxy-server on the PATH): three profiles, 4g with compression, each codec's
  // knee over 4g, then the crossover sweep; their files in links/.
  ...(
    [
      ["wifi", ["--modes", "roundtrip,stream", ...LINK_CODECS, "--link", "wifi"]],
      ["4g", ["--modes", "roundtrip,stream", ...LINK_CODECS, "--link", "4g"]],
      ["slow-4g", ["--modes", "roundtrip,stream", ...LINK_CODECS, "--link", "slow-4g"]],
      ["4g-deflate", ["--modes", "roundtrip,stream", ...LINK_CODECS, "--link", "4g", "--deflate"]],
      ["4g-knees", [...SWEEP, ...LINK_CODECS, "--link", "4g"]],
    ] as const
  ).map(
    ([file, args]): SampleEntry => ({
      ...bench(`links-${file}`, [...args]),
      files: { [`links/${file}.json.gz`]: "latest.json" },
    }),
  ),
  {
    name: "links-sweep",
    command: "bun run bench --link-sweep --codecs json,protobuf,msgpackr",
    argv: [BENCH, "--link-sweep", "--codecs", "json,protobuf,msgpackr", "--out", "{out}"],
    files: { "links/sweep.json": "link-sweep.json" },
  },
  {
    name: "compat",
    command:
      "bun run compat --from bun=results/sample/bun-every-codec.json.gz --from chromium=results/sample/chromium-every-codec.json.gz",
    // Bun's and Chromium's columns are the every-codec runs made above: the same codecs, payloads and mode.
    argv: [
      "bench/tools/compat.ts",
      ...["--from", "bun={sample:bun-every-codec.json.gz}", "--from", "chromium={sample:chromium-every-codec.json.gz}"],
      ...["--out", "{out}"],
    ],
    files: Object.fromEntries([
      ["compatibility.md", "compatibility.md"],
      ...["bun-no-addons", "node", "node-no-addons", "chromium-csp", "firefox", "firefox-csp"].map((place) => [
        `compat/${place}.json.gz`,
        `${place}/latest.json`,
      ]),
    ]),
  },
];

/** Samples kept as they were made; each document that quotes one says when. */
export const HISTORY: readonly HistoryEntry[] = [
  {
    file: "browser-custom-binary-before-1.json.gz",
    why: "the before half of a before/after pair: Chromium with custom-binary's decoder as it was before its browser work, code that no longer exists",
    made: { commit: "cb30bbe2a21c1c96d6c85085f751b4073db1b216", date: "2026-11-23" },
  },
  {
    file: "browser-custom-binary-after-1.json.gz",
    why: "the after half of that pair, made minutes after the before half on the same machine, so the two compare",
    made: { commit: "cb30bbe2a21c1c96d6c85085f751b4073db1b216", date: "2026-11-23" },
  },
];

/** The entries named, in the list's order; the unknown names when there are any. */
export function samplesNamed(names: readonly string[]): { entries: SampleEntry[]; unknown: string[] } {
  const unknown = names.filter((n) => !SAMPLES.some((s) => s.name === n));
  return { entries: SAMPLES.filter((s) => names.length === 0 || names.includes(s.name)), unknown };
}
