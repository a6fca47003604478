/**
 * A results CSV read back into the results every report reads (client/harness/results.ts): each
 * row a case with the figures its columns hold and its ratios to json and raw as the columns
 * give them (a CSV keeps no rounds to pair again), the run's machine, settings, knees and
 * calibration from the rows that carry them. Version 1 of the contract reads too (csv-columns.ts);
 * what a CSV does not keep (each round's figures, percentiles over the messages of a batch, a
 * run's codec order) is left empty, and a number it does not keep is NaN.
 */

import { overlapsOne } from "../../client/harness/pairing.ts";
import { markPrecision } from "../../client/harness/ratios.ts";
import type {
  Provenance,
  BenchResults,
  CalibrationCheck,
  CaseRatios,
  CaseResult,
  Comparison,
  Environment,
  Estimate,
  Knee,
} from "../../client/harness/results.ts";
import { MODE_NAMES, type ClientKind, type Mode } from "../../client/harness/settings.ts";
import type { LatencyPercentiles, SocketFigures } from "../../client/harness/socket-results.ts";
import { partialSummary, type Summary } from "../../client/harness/statistics.ts";
import type { PayloadName } from "../../protocols/messages.ts";
import { KEY_ACCESSES, type Frame, type KeyAccess } from "../../protocols/codec.ts";
import { ADDED_CHECKS, type AddedChecks } from "../../protocols/validation.ts";
import { CALIBRATION_CODEC_NAMES, KNOWN_COST_CODEC_NAMES } from "../../protocols/calibration.ts";
import { ReportError } from "./report-errors.ts";
import { ACCOUNT_PHASES, type PhaseTimes } from "../../client/harness/time-account.ts";
import { accountColumn } from "./csv-columns.ts";
import { LOOPBACK } from "../../client/harness/link.ts";

/** Parses RFC 4180 CSV (quoted fields, CRLF or LF) into rows of fields. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let i = 0;
  let quoted = false;
  while (i < text.length) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += ch;
      i++;
      continue;
    }
    if (ch === '"') quoted = true;
    else if (ch === ",") {
      row.push(field);
      field = "";
    } else if (ch === "\n" || ch === "\r") {
      if (ch === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = "";
    } else field += ch;
    i++;
  }
  if (field !== "" || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

/** A row's cell by column name (today's; older names are renamed as they are read); undefined where the file has no such column. */
type Cell = (column: string) => string | undefined;
/** A row read: its case, and its cells for what the run as a whole takes from it. */
type Row = { c: CaseResult; get: Cell };

/** Columns versions 2 and 5 renamed, under their new names, so files written before still read. */
function currentName(name: string): string {
  const round = /^(serialize|deserialize|total)_(median|min|max|stddev)_ns$/.exec(name);
  if (round) return `${round[1]}_round_${round[2]}_ns`;
  // Version 5: the time account's columns, run_* before (run_total_ms stays one run's).
  const account =
    /^run_((?:elapsed|timed|warmup|messages|verify|start|collections|compression|files|other)_ms|peak_rss_bytes)$/.exec(
      name,
    );
  if (account) return `account_${account[1]}`;
  return name === "total_ms" ? "run_total_ms" : name === "serialize_batch_msgs" ? "round_msgs" : name;
}

const num = (v: string | undefined): number => (v === undefined || v === "" ? NaN : Number(v));

/** The benchmark's time account from its columns (the same on every row): absent in files from before them, or written while the benchmark was going. */
function accountOf(get: (column: string) => string | undefined): Pick<BenchResults, "account"> {
  const phases = Object.fromEntries(ACCOUNT_PHASES.map((p) => [p, num(get(accountColumn(p)))])) as PhaseTimes;
  const wallMs = num(get("account_elapsed_ms"));
  if (!Number.isFinite(wallMs) || ACCOUNT_PHASES.some((p) => !Number.isFinite(phases[p]))) return {};
  const peak = num(get("account_peak_rss_bytes"));
  // The CSV keeps the largest process's peak only; the JSON names every process.
  return {
    account: {
      wallMs,
      phases,
      peaks: Number.isFinite(peak) ? [{ process: "largest process", peakRssBytes: peak }] : [],
    },
  };
}
/** A number, or undefined where the cell is empty. */
const optional = (v: string | undefined): number | undefined => (v === undefined || v === "" ? undefined : Number(v));

/**
 * A per-message figure's summary from its columns. Version 4 leads with the median of the rounds
 * (`total_ns`) and its interval, the mean and its half-width under `_mean_` and `_mean_ci95_`;
 * versions 1 to 3 led with the mean (`total_mean_ns`, `total_ci95_ns`) and kept the median
 * further on (`total_round_median_ns`).
 */
function timeSummary(get: Cell, prefix: string, n: number): Summary {
  const at = (figure: string): number => num(get(`${prefix}_${figure}_ns`));
  const shared = {
    n,
    p90: at("p90"),
    p99: at("p99"),
    min: at("round_min"),
    max: at("round_max"),
    stddev: at("round_stddev"),
    mean: at("mean"),
  };
  if (num(get("csv_version")) >= 4)
    return partialSummary({
      ...shared,
      median: num(get(`${prefix}_ns`)),
      medianLow: at("ci95_low"),
      medianHigh: at("ci95_high"),
      ci95: at("mean_ci95"),
    });
  return partialSummary({ ...shared, median: at("round_median"), ci95: at("ci95") });
}

/** Latency percentiles from `${prefix}_p50_ns` and the rest; undefined where the row has none. */
function percentiles(get: Cell, prefix: string): LatencyPercentiles | undefined {
  const at = (p: string): number => num(get(`${prefix}_${p}_ns`));
  if (!Number.isFinite(at("p50"))) return undefined;
  return {
    samples: NaN,
    p50: at("p50"),
    p90: at("p90"),
    p99: at("p99"),
    p999: at("p999"),
    p9999: at("p9999"),
    max: at("max"),
  };
}

function socketOf(get: Cell, mode: Mode): SocketFigures {
  const field = optional(get("field_slices")) !== undefined;
  // Of several clients a CSV keeps only the slowest's and the fastest's rates.
  const rates = [optional(get("client_msgs_per_s_min")), optional(get("client_msgs_per_s_max"))].filter(
    (r) => r !== undefined,
  );
  return {
    clients: num(get("clients")),
    ...(rates.length > 0
      ? { perClient: [rates.map((msgsPerS) => ({ sent: NaN, received: NaN, lost: NaN, msgsPerS }))] }
      : {}),
    window: num(get("window")),
    ...linkOf(get),
    slice: num(get("round_msgs")),
    sent: num(get("sent")),
    received: num(get("received")),
    lost: num(get("lost")),
    reordered: num(get("reordered")),
    corrupted: num(get("corrupted")),
    wireBytes: num(get("wire_bytes")),
    replyBytes: num(get("reply_bytes")),
    replyWireBytes: optional(get("reply_wire_bytes")),
    compressedShare: optional(get("wire_compressed_share")),
    // Files before csv_version 3 held latency mode's figures in the rtt_ columns.
    rtt: mode === "latency" ? undefined : percentiles(get, "rtt"),
    ...(mode === "latency" ? { latency: percentiles(get, "latency") ?? percentiles(get, "rtt") } : {}),
    serviceTime: percentiles(get, "service"),
    late: optional(get("late_sends")),
    targetRate: optional(get("target_rate")),
    achievedRate: optional(get("achieved_rate")),
    serverDeserialize: partialSummary({ mean: num(get("server_deserialize_mean_ns")) }),
    serverSerialize: partialSummary({ mean: num(get("server_serialize_mean_ns")) }),
    ...(field
      ? {
          field: {
            slices: num(get("field_slices")),
            codecNs: partialSummary({ median: num(get("server_codec_ns")) }),
            sendNs: partialSummary({ median: num(get("server_send_ns")) }),
            cpuNs: partialSummary({ median: num(get("server_cpu_slice_ns")) }),
            wakeupsPerMsg: num(get("server_wakeups_per_msg")),
            interrupted: optional(get("field_interrupted_share")),
            collection: optional(get("field_collection_share")),
            scheduler: optional(get("field_scheduler_share")),
          },
        }
      : {}),
    mbPerS: num(get("mb_per_s")),
    serverCpuMs: num(get("server_cpu_ms")),
    clientCpuMs: num(get("client_cpu_ms")),
    clientCpuNsPerMsg: optional(get("client_cpu_ns_per_msg")),
    serverCpuNsPerMsg: optional(get("server_cpu_ns_per_msg")),
    serverRssPeakBytes: optional(get("server_rss_peak_bytes")),
    clientBusyNsPerMsg: optional(get("client_busy_ns_per_msg")),
    elapsedMs: num(get("elapsed_ms")),
    backpressure: num(get("backpressure")),
    dropped: num(get("dropped")),
    extensions: get("extensions") ?? "",
    ...(Number.isFinite(num(get("server_processes")))
      ? {
          cluster: {
            processes: num(get("server_processes")),
            backplane: get("backplane") ?? "",
            cpuNsPerDelivery: partialSummary({
              median: num(get("cluster_cpu_ns_per_delivery")),
              min: num(get("cluster_cpu_ns_per_delivery_min")),
              max: num(get("cluster_cpu_ns_per_delivery_max")),
            }),
            backplaneBytesPerMsg: partialSummary({ median: num(get("backplane_bytes_per_msg")) }),
          },
        }
      : {}),
  };
}

/** The ratios as the row's columns give them; how many rounds both cases finished a CSV does not say, so a ratio counts the case's own. */
function ratiosOf(get: Cell, rounds: number): CaseRatios {
  const comparison = (column: string): Comparison | undefined => {
    const ratio = num(get(column));
    if (!Number.isFinite(ratio)) return undefined;
    const r = { ratio, low: num(get(`${column}_ci95_low`)), high: num(get(`${column}_ci95_high`)), rounds };
    return { ...r, overlap: overlapsOne(r) };
  };
  const estimate = (column: string, unit = ""): Estimate | undefined => {
    const value = num(get(`${column}${unit}`));
    return Number.isFinite(value)
      ? { value, low: num(get(`${column}_ci95_low${unit}`)), high: num(get(`${column}_ci95_high${unit}`)), rounds }
      : undefined;
  };
  const field = estimate("field_total", "_ns");
  return {
    bytesVsJson: optional(get("bytes_vs_json")),
    vsJson: comparison("total_vs_json"),
    vsRaw: comparison("msgs_per_s_vs_raw"),
    echoVsJson: comparison("echo_vs_json"),
    readOneVsJson: comparison("read_one_vs_json"),
    validatedVsJson: comparison("validated_vs_json"),
    routeVsJson: comparison("route_cpu_vs_json"),
    routeRecodeVsJson: comparison("route_recode_cpu_vs_json"),
    clientVsJson: comparison("client_codec_vs_json"),
    field: field && { ...field, corrected: get("field_timers_taken_off") === "true" },
    fieldVsJson: comparison("field_vs_json"),
    fieldOverJson: estimate("field_over_json", "_ns"),
    cpuOverRaw: estimate("server_cpu_over_raw", "_ns"),
  };
}

/** Route mode's figures of a row (medians only: a CSV holds no slices). */
function routeOf(get: Cell, rounds: number): Pick<CaseResult, "route"> {
  const cpu = optional(get("route_cpu_ns"));
  if (cpu === undefined) return {};
  const median = (column: string) => partialSummary({ median: num(get(column)) });
  const over = num(get("route_recode_over_forward"));
  const keyAccess = get("key_access");
  return {
    route: {
      rooms: num(get("route_rooms")),
      publishers: num(get("route_routers")),
      members: num(get("route_members")),
      validate: get("route_validate") === "true",
      keyAccess:
        keyAccess !== undefined && (KEY_ACCESSES as readonly string[]).includes(keyAccess)
          ? (keyAccess as KeyAccess)
          : "decode",
      expected: num(get("route_deliveries_expected")),
      delivered: num(get("route_delivered")),
      misrouted: num(get("route_misrouted")),
      forward: {
        cpuNs: median("route_cpu_ns"),
        keyNs: median("route_key_ns"),
        encodeNs: partialSummary({ median: 0 }),
        publishNs: median("route_publish_ns"),
        msgsPerS: median("route_msgs_per_s"),
        ...(optional(get("route_all_cpu_ns")) !== undefined
          ? { clusterCpuNs: median("route_all_cpu_ns"), backplaneBytesPerMsg: median("route_backplane_bytes_per_msg") }
          : {}),
      },
      recode: {
        cpuNs: median("route_recode_cpu_ns"),
        keyNs: median("route_recode_decode_ns"),
        encodeNs: median("route_recode_encode_ns"),
        publishNs: partialSummary({ median: NaN }),
        msgsPerS: median("route_recode_msgs_per_s"),
        ...(optional(get("route_recode_all_cpu_ns")) !== undefined
          ? {
              clusterCpuNs: median("route_recode_all_cpu_ns"),
              backplaneBytesPerMsg: median("route_backplane_bytes_per_msg"),
            }
          : {}),
      },
      ...(Number.isFinite(over)
        ? {
            recodeOverForward: {
              value: over,
              low: num(get("route_recode_over_forward_ci95_low")),
              high: num(get("route_recode_over_forward_ci95_high")),
              rounds,
            },
          }
        : {}),
    },
  };
}

/** The link the socket cases ran over, when it was not loopback (files before the link columns: loopback). */
function linkOf(get: Cell | undefined): Pick<BenchResults["settings"], "link"> {
  const name = get?.("link");
  if (get === undefined || name === undefined || name === "" || name === LOOPBACK.name) return {};
  return {
    link: {
      name,
      rttMs: num(get("link_rtt_ms")),
      jitterMs: num(get("link_jitter_ms")),
      downKbps: num(get("link_down_kbps")),
      upKbps: num(get("link_up_kbps")),
    },
  };
}

function caseOf(get: Cell): CaseResult {
  const mode = (get("mode") ?? "") as Mode;
  const rounds = num(get("rounds") ?? get("runs"));
  const iterations = num(get("iterations"));
  const total = timeSummary(get, "total", rounds);
  const batch = { batch: mode === "codec" ? num(get("round_msgs")) : NaN, samples: NaN, p50: NaN, p90: NaN, p99: NaN };
  const echo = optional(get("echo_ns"));
  const readOne = optional(get("read_one_ns"));
  const keyAccess = get("key_access");
  const validated = optional(get("validated_ns"));
  const addedChecks = get("added_checks");
  const deflateBytes = optional(get("deflate_bytes"));
  return {
    client: (get("client") ?? "") as ClientKind,
    clientLibrary: get("client_library") ?? "",
    mode,
    codec: get("codec") ?? "",
    standard: get("standard") !== "false",
    frame: (get("frame") ?? "") as Frame,
    library: get("library") ?? "",
    libraryVersion: get("library_version") ?? "",
    payload: (get("payload") ?? "") as PayloadName,
    iterations,
    runs: num(get("runs")),
    rounds,
    warmup: num(get("warmup")),
    bytes: num(get("bytes")),
    bytesMin: num(get("bytes_min")),
    bytesMax: num(get("bytes_max")),
    verified: get("verified") === "true",
    error: get("error") ?? "",
    serialize: timeSummary(get, "serialize", rounds),
    deserialize: timeSummary(get, "deserialize", rounds),
    total,
    totalMs: partialSummary({ n: rounds, mean: num(get("run_total_ms")) }),
    ...(echo !== undefined ? { echo: partialSummary({ median: echo }) } : {}),
    ...(readOne !== undefined ? { readOne: partialSummary({ median: readOne }) } : {}),
    ...(mode === "codec" && keyAccess !== undefined && (KEY_ACCESSES as readonly string[]).includes(keyAccess)
      ? { keyAccess: keyAccess as KeyAccess }
      : {}),
    ...(validated !== undefined ? { validated: partialSummary({ median: validated }) } : {}),
    ...(addedChecks !== undefined && (Object.values(ADDED_CHECKS) as string[]).includes(addedChecks)
      ? { addedChecks: addedChecks as AddedChecks }
      : {}),
    msgsPerS: num(get("msgs_per_s")),
    serializeBatches: batch,
    deserializeBatches: batch,
    loopFloorNs: num(get("loop_floor_ns")),
    flags: (get("flags") ?? "").split(/[ ;|]+/).filter((f) => f !== ""),
    raw: [],
    ...(mode !== "codec" ? { socket: socketOf(get, mode) } : {}),
    ...(mode === "route" ? routeOf(get, rounds) : {}),
    ...(deflateBytes !== undefined
      ? {
          compression: {
            deflateBytes,
            deflateContextBytes: num(get("deflate_context_bytes")),
            zstdBytes: num(get("zstd_bytes")),
            zstdNs: num(get("zstd_ns")),
            zstdEmptyNs: num(get("zstd_empty_ns")),
          },
        }
      : {}),
    ratios: ratiosOf(get, rounds),
  };
}

/** What code made the file: version 6 on says (bench_version, commit, dirty); every version names its format. */
function provenanceOf(get: Cell): Provenance {
  const version = get("csv_version") || "1";
  const dirty = get("dirty");
  return {
    commit: get("commit") ?? "",
    ...(dirty === "true" || dirty === "false" ? { dirty: dirty === "true" } : {}),
    benchVersion: get("bench_version") ?? "",
    format: `csv ${version}`,
  };
}

function environmentOf(get: Cell): Environment {
  const isolated = get("cross_origin_isolated");
  return {
    runtime: get("runtime") ?? "",
    runtimeVersion: get("runtime_version") ?? "",
    os: get("os") ?? "",
    cpu: get("cpu") ?? "",
    cores: num(get("cores")),
    timerResolutionNs: num(get("timer_resolution_ns")),
    timerOverheadNs: num(get("timer_overhead_ns")),
    // Not in a CSV.
    ...{ arch: "", memoryGiB: NaN, libraries: {}, clock: "", gcBetweenCases: false, msgpackrNative: false },
    ...(isolated === "true" || isolated === "false" ? { crossOriginIsolated: isolated === "true" } : {}),
  };
}

/** Each latency case's knee, once per client, payload and codec. */
function kneesOf(rows: readonly Row[]): Knee[] {
  const found = new Map<string, Knee>();
  for (const { c, get } of rows) {
    const rate = optional(get("knee_rate"));
    const key = `${c.client}\u0000${c.payload}\u0000${c.codec}`;
    if (rate === undefined || found.has(key)) continue;
    const missed = optional(get("knee_missed_rate"));
    const beside = { rate: num(get("knee_beside_raw_rate")), missed: optional(get("knee_beside_raw_missed_rate")) };
    found.set(key, {
      client: c.client,
      payload: c.payload,
      codec: c.codec,
      rate,
      ...(missed !== undefined ? { missed } : {}),
      ...(beside.rate !== rate || beside.missed !== missed
        ? { besideRaw: beside.missed === undefined ? { rate: beside.rate } : beside }
        : {}),
    });
  }
  return [...found.values()];
}

/** The calibration's checks from the calibration codecs' rows: each known-cost codec's known cost and shares (cal-spin's), cal-json's beside them. */
function calibrationOf(rows: readonly Row[]): CalibrationCheck[] {
  const share = (get: Cell, column: string): Estimate | undefined => {
    const value = num(get(column));
    return Number.isFinite(value)
      ? { value, low: num(get(`${column}_ci95_low`)), high: num(get(`${column}_ci95_high`)), rounds: NaN }
      : undefined;
  };
  const checks: CalibrationCheck[] = [];
  const at = (c: CaseResult) => (x: { c: CaseResult }) =>
    x.c.client === c.client &&
    x.c.mode === c.mode &&
    x.c.payload === c.payload &&
    x.c.socket?.targetRate === c.socket?.targetRate &&
    x.c.verified;
  for (const { c, get } of rows) {
    const known = num(get("calibration_known_ns"));
    if (!KNOWN_COST_CODEC_NAMES.includes(c.codec) || !c.verified || !Number.isFinite(known)) continue;
    const twin = rows.find(
      (x) => CALIBRATION_CODEC_NAMES.includes(x.c.codec) && !KNOWN_COST_CODEC_NAMES.includes(x.c.codec) && at(c)(x),
    );
    checks.push({
      client: c.client,
      mode: c.mode,
      payload: c.payload,
      ...(c.socket?.targetRate !== undefined ? { rate: c.socket.targetRate } : {}),
      codec: c.codec,
      known: { value: known, low: NaN, high: NaN, rounds: NaN },
      knownByTimers: share(get, "calibration_field_share"),
      twinByTimers: twin && share(twin.get, "calibration_field_share"),
      knownByQuiet: share(get, "calibration_quiet_share"),
      knownByCpu: share(get, "calibration_cpu_share"),
      twinByCpu: twin && share(twin.get, "calibration_cpu_share"),
    });
  }
  return checks;
}

/** The results a CSV in the benchmark's contract (any version, 1 to 6) holds, failed cases too. */
export function resultsFromCsv(text: string): BenchResults {
  const [header, ...body] = parseCsv(text);
  if (!header || !header.includes("codec") || !header.includes("mode"))
    throw new ReportError("NOT_RESULTS", "not a results CSV: no codec and mode columns");
  const col = new Map(header.map((name, i) => [currentName(name), i]));
  const rows = body
    .filter((row) => row.length > 1)
    .map((row): Row => {
      const get: Cell = (name) => row[col.get(name) ?? -1];
      return { c: caseOf(get), get };
    });
  const cases = rows.map((r) => r.c);
  const first = rows[0]?.get ?? (() => undefined);
  // The precision the benchmark asked for: its codec-mode ratios still wider than it are marked again.
  const precision = num(first("precision_pct"));
  if (Number.isFinite(precision)) markPrecision(cases, precision);
  const socket = rows.find((r) => r.c.mode !== "codec");
  const environment = environmentOf(first);
  // A client that ran somewhere else (a browser beside Bun's own rows) has its own machine.
  const environments: BenchResults["environments"] = {};
  for (const { c, get } of rows) {
    const env = environmentOf(get);
    if (
      !(c.client in environments) &&
      (env.runtime !== environment.runtime || env.runtimeVersion !== environment.runtimeVersion)
    )
      environments[c.client] = env;
  }
  const modes = [...new Set(cases.map((c) => c.mode))];
  // Each mode's messages per run and warm-up, as its first row has them.
  const perMode = (pick: (c: CaseResult | undefined) => number | undefined): Record<Mode, number> =>
    Object.fromEntries(MODE_NAMES.map((m) => [m, pick(cases.find((c) => c.mode === m)) ?? NaN])) as Record<
      Mode,
      number
    >;
  const knees = kneesOf(rows);
  const calibration = calibrationOf(rows);
  return {
    timestamp: first("timestamp") ?? "",
    settings: {
      codecs: [...new Set(cases.map((c) => c.codec))],
      payloads: [...new Set(cases.map((c) => c.payload))],
      modes,
      iterations: perMode((c) => c?.iterations),
      warmup: perMode((c) => c?.warmup),
      runs: perMode((c) => (c ? Math.max(...cases.filter((x) => x.mode === c.mode).map((x) => x.runs)) : undefined)),
      seed: num(first("seed")),
      fixed: first("fixed") === "true",
      window: socket ? num(socket.get("window")) : NaN,
      ...linkOf(socket?.get),
      rates: [...new Set(cases.map((c) => c.socket?.targetRate).filter((r) => r !== undefined))],
      clients: socket ? num(socket.get("clients")) : NaN,
      deflate: rows.some((r) => r.get("deflate") === "true"),
      validate: rows.some((r) => r.get("route_validate") === "true"),
      members: num(rows.find((r) => r.c.mode === "route")?.get("route_members")),
      ...(Number.isFinite(precision) ? { precision } : {}),
      // Not in a CSV.
      ...{ sweep: false, stallTimeoutMs: NaN, userMessages: [], allowLossy: false, excluded: [], minBatchNs: NaN },
      client: (socket ?? rows[0])?.c.client ?? "inprocess",
    },
    provenance: provenanceOf(first),
    environment,
    ...(Object.keys(environments).length > 0 ? { environments } : {}),
    order: {},
    cases,
    elapsedMs: num(rows[0]?.get("account_elapsed_ms")),
    ...accountOf(first),
    ...(knees.length > 0 ? { knees } : {}),
    ...(calibration.length > 0 ? { calibration } : {}),
  };
}
