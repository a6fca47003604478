/**
 * The figures block of docs/results.md, made from committed results files (results/sample/, read
 * as every report reads them): how far apart the ratios of back-to-back runs landed, mode by mode,
 * lab (codec mode) and field (inside the server) side by side, the calibration that proves the
 * field figure, the knees of back-to-back sweeps, every codec on every payload, the access
 * patterns, routing, each engine and a cluster. `bun run figures` writes it into its span.
 */

import type { BenchResults, CaseRatios, CaseResult, Environment, Estimate } from "../../../client/harness/results.ts";
import { ARTICLE_PAYLOADS, PAYLOAD_NAMES, ROUTING_KEYS } from "../../../protocols/messages.ts";
import { count, formatNs, ratioText } from "../../report/format.ts";
import { handWrittenStanding, ranked, vsJsonOf } from "../../report/ranking.ts";
import { sourceOf } from "../../report/sources.ts";
import { find, MARKS, machineLine, ratioCell, type Sample, VS_JSON } from "./sample-cells.ts";

interface View {
  mode: string;
  /** The ratio shown, with its interval. */
  ratio: (r: CaseRatios) => Estimate | undefined;
  /** Turn the ratio around (a throughput ratio read as time). */
  invert?: boolean;
  /** Spread across the runs called close: the lab's 1.05x, the field's 1.10x. */
  within: number;
  what: string;
}

const ECHO = (r: CaseRatios): Estimate | undefined => r.echoVsJson;
const FIELD = (r: CaseRatios): Estimate | undefined => r.fieldVsJson;
const CLIENT = (r: CaseRatios): Estimate | undefined => r.clientVsJson;

const VIEWS: readonly View[] = [
  {
    mode: "codec",
    ratio: VS_JSON,
    within: 1.05,
    what: "Lab, codec mode (serialize + deserialize in process, a client's work), time per message relative to JSON",
  },
  {
    mode: "codec",
    ratio: ECHO,
    within: 1.1,
    what: "Lab echo (decode a frame, then encode what it gave, a server's work), relative to JSON",
  },
  {
    mode: "roundtrip",
    ratio: FIELD,
    within: 1.1,
    what: "Field, roundtrip mode (inside a server idle between messages), decode + encode relative to JSON's",
  },
  {
    mode: "stream",
    ratio: FIELD,
    within: 1.1,
    what: "Field, stream mode (inside a busy server), decode + encode relative to JSON's",
  },
  { mode: "roundtrip", ratio: VS_JSON, within: 1.05, what: "Roundtrip mode, mean round-trip time relative to JSON" },
  {
    mode: "stream",
    ratio: (r) => r.vsRaw,
    invert: true,
    within: 1.05,
    what: "Stream mode, time per message relative to raw (the transport alone; above 1 is slower)",
  },
];

function codecsOf(results: BenchResults, mode: string, skip: readonly string[]): string[] {
  return [...new Set(results.cases.filter((c) => c.verified && c.mode === mode).map((c) => c.codec))].filter(
    (c) => !skip.includes(c),
  );
}

/** One view's table: a row per payload and codec, a column per run, and the largest over the smallest ratio. */
function viewTable(view: View, runs: readonly Sample[]): string[] {
  const lines = [
    `| payload | codec | ${runs.map((_, i) => `run ${i + 1}`).join(" | ")} | largest / smallest |`,
    `|---|---|${runs.map(() => "---|").join("")}---|`,
  ];
  let worst = 1;
  let within = 0;
  let rows = 0;
  for (const payload of PAYLOAD_NAMES) {
    for (const codec of codecsOf(runs[0]!.results, view.mode, ["json", "raw"])) {
      const cells = runs.map((r) => ratioCell(find(r.results, view.mode, payload, codec), view.ratio, view.invert));
      const ratios = cells.map((c) => c.value).filter(Number.isFinite);
      if (ratios.length === 0) continue;
      const spread = Math.max(...ratios) / Math.min(...ratios);
      worst = Math.max(worst, spread);
      rows++;
      if (spread <= view.within) within++;
      lines.push(`| ${payload} | ${codec} | ${cells.map((c) => c.text).join(" | ")} | ${spread.toFixed(3)} |`);
    }
  }
  return [
    `${view.what}: ${within} of ${rows} ratios within ${view.within.toFixed(2)}x across the runs, the widest ${worst.toFixed(3)}x apart.`,
    "",
    ...lines,
  ];
}

/** Lab and field of one run side by side: what a codec costs relative to JSON, by what work and where. */
function sideBySide(run: Sample): string[] {
  const lines = [
    "| payload | codec | lab | lab echo | field, roundtrip | field, stream |",
    "|---|---|---|---|---|---|",
  ];
  for (const payload of PAYLOAD_NAMES) {
    for (const codec of codecsOf(run.results, "codec", ["json"])) {
      const cell = (mode: string, pick: (r: CaseRatios) => Estimate | undefined): string =>
        ratioCell(find(run.results, mode, payload, codec), pick).text;
      if (!find(run.results, "codec", payload, codec)) continue;
      lines.push(
        `| ${payload} | ${codec} | ${cell("codec", VS_JSON)} | ${cell("codec", ECHO)} | ${cell("roundtrip", FIELD)} | ${cell("stream", FIELD)} |`,
      );
    }
  }
  return lines;
}

/** "1.01 [0.98-1.04]" of a calibration share. */
function shareCell(e: Estimate | undefined): string {
  return e && Number.isFinite(e.value) ? `${e.value.toFixed(2)} [${e.low.toFixed(2)}-${e.high.toFixed(2)}]` : "-";
}

/** The calibrated run: per mode, payload and known-cost codec, the known cost and what each method found of it. */
function calibrationTable(run: Sample): string[] {
  // Files from before collections counted have no figure with interruptions left out: no column for it.
  const quiet = run.results.calibration?.some((x) => x.knownByQuiet !== undefined) === true;
  const lines = [
    `| mode | payload | known cost | ns per call | field figure: found / known |${quiet ? " interruptions left out: found / known |" : ""} field figure: cal-json / json | server CPU: found / known | server CPU: cal-json / json |`,
    `|---|---|---|---|---|${quiet ? "---|" : ""}---|---|---|`,
  ];
  for (const mode of ["roundtrip", "stream"]) {
    for (const payload of PAYLOAD_NAMES) {
      for (const check of run.results.calibration?.filter((x) => x.mode === mode && x.payload === payload) ?? []) {
        if (!find(run.results, mode, payload, check.codec)) continue;
        const known = Math.round(check.known.value).toLocaleString("en-US");
        lines.push(
          `| ${mode} | ${payload} | ${check.codec} | ${known} | ${shareCell(check.knownByTimers)} |${quiet ? ` ${shareCell(check.knownByQuiet)} |` : ""} ${shareCell(check.twinByTimers)} | ${shareCell(check.knownByCpu)} | ${shareCell(check.twinByCpu)} |`,
        );
      }
    }
  }
  return lines;
}

/** Each codec's knee in each sweep, and the largest over the smallest. */
function kneeTable(sweeps: readonly Sample[]): string[] {
  const lines = [
    `| payload | codec | ${sweeps.map((_, i) => `sweep ${i + 1}`).join(" | ")} | largest / smallest |`,
    `|---|---|${sweeps.map(() => "---|").join("")}---|`,
  ];
  let within = 0;
  let rows = 0;
  for (const payload of PAYLOAD_NAMES) {
    for (const codec of codecsOf(sweeps[0]!.results, "latency", [])) {
      const knees = sweeps.map((s) => {
        const c = find(s.results, "latency", payload, codec);
        const knee =
          c && s.results.knees?.find((k) => k.client === c.client && k.payload === payload && k.codec === codec);
        return c ? { rate: knee?.rate ?? Number.NaN, missed: knee?.missed ?? Number.NaN } : undefined;
      });
      const rates = knees.map((k) => k?.rate ?? Number.NaN).filter((r) => r > 0);
      if (rates.length === 0) continue;
      const spread = Math.max(...rates) / Math.min(...rates);
      rows++;
      if (spread <= 1.25) within++;
      const text = (k: (typeof knees)[number]): string =>
        k
          ? `${k.rate.toLocaleString("en-US")}${Number.isFinite(k.missed) ? ` (${k.missed.toLocaleString("en-US")})` : "+"}`
          : "-";
      lines.push(`| ${payload} | ${codec} | ${knees.map(text).join(" | ")} | ${spread.toFixed(2)} |`);
    }
  }
  return [`${within} of ${rows} knees within 25% of each other across the sweeps.`, "", ...lines];
}

/** What the block is made of: back-to-back default runs, a calibrated run, back-to-back sweeps, and the runs of every codec, pattern, engine and cluster. */
export interface SampleSet {
  runs: readonly Sample[];
  calibrated: Sample;
  sweeps: readonly Sample[];
  /** Every codec on every payload (`--codecs all --payloads all`): codec mode in Bun and in a browser, and the field figures of a stream run in Bun. */
  everyCodec: readonly Sample[];
  /** Codec mode with every codec on every payload and its access patterns (read-one, validated). */
  patterns: Sample;
  /** Route mode (`--modes route`): the server as a router, forwarding and recoding. */
  route: Sample;
  /** The same codecs in each JavaScript engine: codec mode and round trips with Bun's client, round trips with Node's, and both in each browser's page. */
  engines: EngineSamples;
  /** fanout with 8 subscribers: one server process alone, one publishing through Redis, two joined by Redis. */
  cluster: ClusterSamples;
}

/** The same fanout run on one process, one through Redis, and a cluster of two through Redis. */
interface ClusterSamples {
  alone: Sample;
  redis: Sample;
  cluster: Sample;
}

/** One run per client, the same codecs and payloads: JavaScriptCore (Bun), V8 (Node, Chromium), SpiderMonkey (Firefox). */
interface EngineSamples {
  bun: Sample;
  node: Sample;
  chromium: Sample;
  firefox: Sample;
}

/** A sample's first verified case run by a client (not in process), and that client's machine. */
function clientSide(sample: Sample): { c: CaseResult; m: Environment } {
  const { results } = sample;
  const c = results.cases.find((x) => x.verified && x.client !== "inprocess") ?? results.cases.find((x) => x.verified)!;
  return { c, m: results.environments?.[c.client] ?? results.environment };
}

/** Who ran a sample's client: "Chrome 156", "Firefox 153" (a page's browser), "Node 20.20.2" (the Node client's), else the runtime ("bun 1.4.4"). */
function engineLabel(sample: Sample): string {
  const { c } = clientSide(sample);
  // The report's label, but with Node's version: these columns set engines side by side.
  const node = / on Node v([\d.]+)$/.exec(c.clientLibrary);
  return node ? `Node ${node[1]}` : sourceOf(sample.results, c);
}

/**
 * The engines side by side: per payload and codec, codec mode's time relative to JSON's in each
 * engine that runs it (codec mode runs in Bun or the page; a Node client's codec work is its part
 * of the round trips), and the client's encode + decode in round trips relative to JSON's, per client.
 */
function enginesTable(e: EngineSamples): string[] {
  const codecSides = [e.bun, e.chromium, e.firefox];
  const tripSides = [e.bun, e.node, e.chromium, e.firefox];
  const head = [
    ...codecSides.map((s) => `codec, ${engineLabel(s)}`),
    ...tripSides.map((s) => `round trip, ${engineLabel(s)}`),
  ];
  const lines = [`| payload | codec | ${head.join(" | ")} |`, `|---|---|${head.map(() => "---|").join("")}`];
  for (const payload of PAYLOAD_NAMES) {
    for (const codec of codecsOf(e.chromium.results, "codec", ["json"])) {
      const codecCells = codecSides.map((s) => ratioCell(find(s.results, "codec", payload, codec), VS_JSON).text);
      const tripCells = tripSides.map((s) => {
        const c = find(s.results, "roundtrip", payload, codec);
        const cell = ratioCell(c, CLIENT).text;
        return cell !== "-" && c?.flags.includes("coarse-clock") ? `${cell} †` : cell;
      });
      if ([...codecCells, ...tripCells].every((c) => c === "-")) continue;
      lines.push(`| ${payload} | ${codec} | ${[...codecCells, ...tripCells].join(" | ")} |`);
    }
  }
  const coarse = tripSides.filter((s) =>
    s.results.cases.some((c) => c.mode === "roundtrip" && c.flags.includes("coarse-clock")),
  );
  if (coarse.length > 0) {
    const ticks = coarse.map((s) => `${formatNs(clientSide(s).m.timerResolutionNs)} (${engineLabel(s)})`).join(", ");
    lines.push(
      "",
      `† The client's clock ticks in steps of ${ticks}, longer than most of these calls: a socket mode times each call, so those cells count the ticks the calls caught. Read them as rough; codec mode times batches of at least 100 ticks.`,
    );
  }
  return lines;
}

/**
 * custom-binary against every codec, per payload, in one run: its time
 * relative to JSON's (codec mode's, or the field figure inside the server in
 * a WebSocket mode), its place, the fastest other schema codec and
 * custom-binary's time relative to that codec's (the ratio of their ratios
 * to JSON), and the fastest codec of all.
 */
function standingTable(sample: Sample, mode: string, pick: (r: CaseRatios) => Estimate | undefined): string[] {
  const lines = [
    "| payload | custom-binary vs json | place | fastest other schema codec | custom-binary vs it | fastest of all |",
    "|---|---|---|---|---|---|",
  ];
  const ratio = (c: CaseResult): number | undefined => (c.ratios && pick(c.ratios)?.value) ?? undefined;
  for (const payload of PAYLOAD_NAMES) {
    const cases = sample.results.cases.filter(
      (c) => c.verified && c.mode === mode && c.payload === payload && !c.codec.startsWith("cal-"),
    );
    // Codec mode pairs custom-binary with its rival round by round where the file holds rounds (a JSON's); the field figure has no per-round pick.
    const order = ranked(cases, ratio, (c) => (mode === "codec" ? c.total.median : Number.NaN));
    const standing = handWrittenStanding(order, ratio, mode === "codec" ? (r) => r.totalNs : undefined);
    if (!standing) continue;
    const { rival, vsRival } = standing;
    const cb = order[standing.place - 1]!;
    const rivalCell = rival
      ? `${rival.codec} (${ratioText({ value: vsJsonOf(rival, ratio) }, { interval: false })})`
      : "-";
    lines.push(
      `| ${payload} | ${ratioCell(cb, pick).text} | ${standing.place} of ${standing.of} | ${rivalCell} | ${ratioText(vsRival, { interval: false })} | ${order[0]!.codec} |`,
    );
  }
  return lines;
}

/** The standings an every-codec run gives: codec mode's (the lab), and the server's own decode + encode where it ran a WebSocket mode (the field). */
function standings(sample: Sample): string[] {
  const where = `\`${sample.name}\` (${machineLine(sample.results)}${sample.results.cases.some((c) => c.client === "browser") ? `, in ${sample.results.environments?.browser?.runtimeVersion ?? "a browser"}` : ""})`;
  const out: string[] = [];
  const has = (mode: string, pick: (r: CaseRatios) => Estimate | undefined): boolean =>
    sample.results.cases.some(
      (c) => c.verified && c.mode === mode && c.ratios !== undefined && pick(c.ratios) !== undefined,
    );
  if (has("codec", VS_JSON))
    out.push(
      "",
      `Every codec on every payload, codec mode, ${where}: where custom-binary stands.`,
      "",
      ...standingTable(sample, "codec", VS_JSON),
    );
  for (const mode of ["stream", "roundtrip"]) {
    if (has(mode, FIELD))
      out.push(
        "",
        `Every codec on every payload, inside the server (${mode} mode's field figure: its own decode + encode), ${where}: where custom-binary stands.`,
        "",
        ...standingTable(sample, mode, FIELD),
      );
  }
  return out;
}

/** The fastest `n` codecs of one pattern on one payload, by their paired ratio to json's same pattern: "custom-binary 0.0043, avro 0.017". */
function fastest(cases: readonly CaseResult[], ratio: (c: CaseResult) => number | undefined, n: number): string {
  return ranked(cases, ratio, () => Number.NaN)
    .filter((c) => Number.isFinite(vsJsonOf(c, ratio)))
    .slice(0, n)
    .map((c) => `${c.codec} ${ratioText({ value: vsJsonOf(c, ratio) }, { interval: false })}`)
    .join(", ");
}

/**
 * Per payload, the three fastest codecs of each access pattern (docs/access-patterns.md), each
 * against json's same pattern: where the ranking changes between encode + decode, read-one and
 * validated.
 */
function patternsTable(sample: Sample): string[] {
  const lines = ["| payload (key) | encode + decode | read-one | validated |", "|---|---|---|---|"];
  for (const payload of PAYLOAD_NAMES) {
    const of = sample.results.cases.filter(
      (c) => c.verified && c.mode === "codec" && c.payload === payload && !c.codec.startsWith("cal-"),
    );
    if (!of.some((c) => c.readOne !== undefined)) continue;
    const cell = (ratio: (c: CaseResult) => number | undefined): string => fastest(of, ratio, 3);
    lines.push(
      `| ${payload} (${ROUTING_KEYS[payload]}) | ${cell((c) => c.ratios?.vsJson?.value)} | ${cell((c) => c.ratios?.readOneVsJson?.value)} | ${cell((c) => c.ratios?.validatedVsJson?.value)} |`,
    );
  }
  return lines;
}

/** Codecs per payload the route table shows, least server CPU forwarding first (json besides, wherever it ranks). */
const ROUTE_SHOWN = 5;

/**
 * Route mode per payload, the ROUTE_SHOWN codecs that cost the server least forwarding and json:
 * their CPU per routed message forwarding and recoding, each relative to json's same router, and
 * recoding over forwarding; then the deliveries of every codec.
 */
function routeTable(sample: Sample): string[] {
  const lines = [
    "| payload (key) | codec | reads key by | CPU forwarding | vs json | CPU recoding | vs json | recoding / forwarding |",
    "|---|---|---|---|---|---|---|---|",
  ];
  const ratio = (c: CaseResult, pick: (r: CaseRatios) => Estimate | undefined): string =>
    c.codec === "json" ? "1.00" : ratioCell(c, pick).text;
  let expected = 0;
  let delivered = 0;
  let misrouted = 0;
  for (const payload of PAYLOAD_NAMES) {
    const of = sample.results.cases
      .filter((c) => c.verified && c.mode === "route" && c.payload === payload && c.route !== undefined)
      .sort((a, b) => a.route!.forward.cpuNs.median - b.route!.forward.cpuNs.median);
    for (const c of of) {
      const r = c.route!;
      expected += r.expected;
      delivered += r.delivered;
      misrouted += r.misrouted;
      if (of.indexOf(c) >= ROUTE_SHOWN && c.codec !== "json") continue;
      lines.push(
        `| ${payload} (${ROUTING_KEYS[payload]}) | ${c.codec} | ${r.keyAccess} | ${formatNs(r.forward.cpuNs.median)} | ${ratio(c, (x) => x.routeVsJson)} | ${formatNs(r.recode.cpuNs.median)} | ${ratio(c, (x) => x.routeRecodeVsJson)} | ${r.recodeOverForward ? r.recodeOverForward.value.toFixed(2) : "-"} |`,
      );
    }
  }
  if (expected === 0) return [];
  const first = sample.results.cases.find((c) => c.route !== undefined)!.route!;
  return [
    ...lines,
    "",
    `Deliveries, every codec: ${count(delivered)} of ${count(expected)} expected (${first.members} members, ${first.publishers} routers per way), ${count(misrouted)} misrouted.`,
  ];
}

/** Codecs the cluster table shows, per payload. */
/** The codecs the fanout table shows (docs/clusters.md speaks of "the codecs in the table"). */
export const CLUSTER_CODECS = ["json", "custom-binary", "protobuf", "msgpackr"];

/**
 * fanout on one process, one through Redis and two through Redis: deliveries per second and
 * every server process's CPU per delivery, with the backplane's bytes per message.
 */
function clusterTable(c: ClusterSamples): string[] {
  const lines = [
    "| payload | codec | bytes | 1 process: deliveries/s | CPU/delivery | 1 + Redis: deliveries/s | CPU/delivery | backplane B/msg | 2 + Redis: deliveries/s | CPU/delivery | backplane B/msg |",
    "|---|---|---|---|---|---|---|---|---|---|---|",
  ];
  const cells = (sample: Sample, payload: string, codec: string, backplane: boolean): string[] => {
    const x = find(sample.results, "fanout", payload, codec);
    const cl = x?.verified ? x.socket?.cluster : undefined;
    if (!x || !cl) return backplane ? ["-", "-", "-"] : ["-", "-"];
    const out = [count(x.msgsPerS), formatNs(cl.cpuNsPerDelivery.median)];
    return backplane ? [...out, count(cl.backplaneBytesPerMsg.median)] : out;
  };
  for (const payload of ARTICLE_PAYLOADS) {
    for (const codec of CLUSTER_CODECS) {
      const x = find(c.cluster.results, "fanout", payload, codec);
      if (!x) continue;
      lines.push(
        `| ${payload} | ${codec} | ${count(x.bytes)} | ${[...cells(c.alone, payload, codec, false), ...cells(c.redis, payload, codec, true), ...cells(c.cluster, payload, codec, true)].join(" | ")} |`,
      );
    }
  }
  return lines;
}

export function sampleFigures(set: SampleSet): string {
  const { runs, calibrated, sweeps } = set;
  const first = runs[0]!;
  const files = (samples: readonly Sample[]): string => samples.map((s) => `\`${s.name}\``).join(", ");
  const out: string[] = [];
  out.push(`${runs.length} back-to-back runs of \`bun run bench\` (${files(runs)}) on ${machineLine(first.results)}.`);
  out.push(`Each cell: the median of the per-round ratios ± its 95% interval, within that run; ${MARKS}.`);
  out.push(
    "",
    `Lab and field side by side, run 1: time per message relative to JSON's (lab: codec mode; field: the server's own decode + encode, raw's timers taken off).`,
    "",
    ...sideBySide(first),
  );
  for (const view of VIEWS) {
    if (
      !first.results.cases.some(
        (c) => c.verified && c.mode === view.mode && c.ratios && view.ratio(c.ratios) !== undefined,
      )
    )
      continue;
    out.push("", ...viewTable(view, runs));
  }
  out.push(
    "",
    `The calibration, \`bun run bench --calibrate\` (\`${calibrated.name}\`): what each way of measuring inside the server found of cal-spin's known cost (1 holds), and of cal-json against json (1 holds), median of the rounds [95%].`,
    "",
    ...calibrationTable(calibrated),
  );
  const knees = kneeTable(sweeps);
  out.push(
    "",
    `Knees of ${sweeps.length} back-to-back \`bun run bench --modes latency --rate sweep\` (${files(sweeps)}), msgs/s, the rate missed above in brackets (+: kept every rate run). ${knees[0]}`,
    "",
    ...knees.slice(2),
  );
  for (const sample of set.everyCodec) out.push(...standings(sample));
  const patterns = patternsTable(set.patterns);
  if (patterns.length > 2) {
    out.push(
      "",
      `What an app does with a message, \`${set.patterns.name}\` (${machineLine(set.patterns.results)}, codec mode, every codec): the three fastest at each access pattern, each time relative to json's same work (read-one: \`JSON.parse\` and the field; validated: \`JSON.parse\` and the schema validator).`,
      "",
      ...patterns,
    );
  }
  const route = routeTable(set.route);
  if (route.length > 0) {
    out.push(
      "",
      `The server as a router, \`${set.route.name}\` (${machineLine(set.route.results)}, route mode): the server's CPU per routed message, forwarding the bytes (the key read as the codec allows) and recoding (decode, encode again), each relative to json's same router, median of the slices ± its 95% interval; per payload the ${ROUTE_SHOWN} codecs that cost it least forwarding, and json (the file has every codec).`,
      "",
      ...route,
    );
  }
  const { engines } = set;
  const engineRuns = [engines.bun, engines.node, engines.chromium, engines.firefox]
    .map((s) => `\`${s.name}\``)
    .join(", ");
  out.push(
    "",
    `The same codecs in each engine (${engineRuns}; ${machineLine(engines.bun.results)}): codec mode's time per message relative to JSON's where it runs (Bun, each browser's page), and the client's own encode + decode per message in round trips relative to JSON's, per client, median of the rounds ± its 95% interval; ${MARKS}.`,
    "",
    ...enginesTable(engines),
  );
  const { cluster } = set;
  const clusterRuns = [cluster.alone, cluster.redis, cluster.cluster].map((s) => `\`${s.name}\``).join(", ");
  out.push(
    "",
    `fanout beyond one process (${clusterRuns}; ${machineLine(cluster.cluster.results)}): one publisher, 8 subscribers, \`bun run bench --modes fanout --clients 8\` alone, with \`--processes 1 --backplane redis\` and with \`--processes 2 --backplane redis\`; deliveries per second (mean of the runs), every server process's CPU per delivery and the backplane's wire bytes per message (medians of the runs). Redis's own CPU is not counted; on two cores the processes, Redis and the client share them (see [clusters.md](clusters.md)).`,
    "",
    ...clusterTable(cluster),
  );
  return out.join("\n");
}
