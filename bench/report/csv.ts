/**
 * The CSV's rows: each case's figures under the columns of the contract (csv-columns.ts), with
 * the comparisons (ratios to json and raw, lab and field) the results carry (client/harness/ratios.ts).
 */

import type { BenchResults, CaseResult, ColdSummaries, Estimate } from "../../client/harness/results.ts";
import type { Summary } from "../../client/harness/statistics.ts";
import type { FieldFigures, LatencyPercentiles } from "../../client/harness/socket-results.ts";
import { CALIBRATION_CODEC_NAMES, KNOWN_COST_CODEC_NAMES } from "../../protocols/calibration.ts";
import { knees } from "../../client/harness/knee.ts";
import { accountColumn, CSV_COLUMNS, CSV_VERSION, SPREAD_FIELDS } from "./csv-columns.ts";
import { ACCOUNT_PHASES } from "../../client/harness/time-account.ts";
import { LOOPBACK } from "../../client/harness/link.ts";
import { caseLinkUse } from "./link-use.ts";
import { loadCell } from "../../client/harness/load.ts";

/** A set of percentiles as CSV cells: `${prefix}_p50_ns` and the rest (empty where there are none). */
function percentileCells(
  prefix: string,
  p: LatencyPercentiles | undefined,
  which: readonly (keyof Omit<LatencyPercentiles, "samples">)[] = ["p50", "p90", "p99", "p999", "p9999", "max"],
): Record<string, number | undefined> {
  return Object.fromEntries(which.map((k) => [`${prefix}_${k}_ns`, p?.[k]]));
}

type Row = Record<string, string | number | boolean | undefined>;

/** RFC 4180: quote a field holding a comma, quote, CR or LF; double inner quotes. */
export function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? formatNumber(value) : "";
  const s = String(value);
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** Up to 3 decimals, no exponent, no thousands separator. */
function formatNumber(v: number): string {
  if (Number.isInteger(v)) return Math.abs(v) < 1e21 ? String(v) : BigInt(v).toString();
  return v.toFixed(3).replace(/\.?0+$/, "");
}

/** What every row of the run holds alike: when, the account, the machine, the code. */
function runWideColumns(results: BenchResults, client: string): Row {
  const env = results.environments?.[client as CaseResult["client"]] ?? results.environment;
  return {
    timestamp: results.timestamp,
    // Known once the run has ended: empty in the rows written while it runs.
    account_elapsed_ms: results.elapsedMs > 0 ? results.elapsedMs : undefined,
    // Where that time went: known once the run has ended, like it.
    ...Object.fromEntries(ACCOUNT_PHASES.map((p) => [accountColumn(p), results.account?.phases[p]])),
    precision_pct: results.settings.precision,
    account_peak_rss_bytes:
      results.account && results.account.peaks.length > 0
        ? Math.max(...results.account.peaks.map((p) => p.peakRssBytes))
        : undefined,
    runtime: env.runtime,
    runtime_version: env.runtimeVersion,
    client,
    fixed: results.settings.fixed,
    seed: results.settings.seed,
    os: env.os,
    cpu: env.cpu,
    cores: env.cores,
    timer_resolution_ns: env.timerResolutionNs,
    timer_overhead_ns: env.timerOverheadNs,
    cross_origin_isolated: env.crossOriginIsolated ?? "",
    // What code made the row (absent for a page's own run, which knows no commit).
    bench_version: results.provenance?.benchVersion,
    commit: results.provenance?.commit,
    dirty: results.provenance?.dirty ?? "",
    csv_version: CSV_VERSION,
  };
}

/** What identifies a row and how it was measured, known even for a failed case. */
function identityColumns(results: BenchResults, c: CaseResult): Row {
  return {
    ...runWideColumns(results, c.client),
    client_library: c.clientLibrary,
    mode: c.mode,
    codec: c.codec,
    standard: c.standard,
    frame: c.frame,
    library: c.library,
    library_version: c.libraryVersion,
    payload: c.payload,
    iterations: c.iterations,
    runs: c.runs,
    rounds: c.rounds,
    warmup: c.warmup,
    verified: c.verified,
    error: c.error,
    flags: c.flags.join(" "),
    bytes: c.bytes,
    bytes_min: c.bytesMin,
    bytes_max: c.bytesMax,
    bytes_vs_json: c.ratios?.bytesVsJson ?? "",
  };
}

/** The timings of a verified case. */
function timingColumns(c: CaseResult): Row {
  const row: Row = {};
  for (const [prefix, summary] of [
    ["serialize", c.serialize],
    ["deserialize", c.deserialize],
    ["total", c.total],
  ] as const) {
    // The median of the rounds and its interval first: the figure every ratio and the verdict use.
    row[`${prefix}_ns`] = summary.median;
    row[`${prefix}_ci95_low_ns`] = summary.medianLow;
    row[`${prefix}_ci95_high_ns`] = summary.medianHigh;
    for (const [label, key] of SPREAD_FIELDS) row[`${prefix}_${label}_ns`] = summary[key];
  }
  const ratio = c.ratios?.vsJson;
  const echo = c.ratios?.echoVsJson;
  const readOne = c.ratios?.readOneVsJson;
  const validated = c.ratios?.validatedVsJson;
  const route = c.route;
  const routeVs = c.ratios?.routeVsJson;
  const recodeVs = c.ratios?.routeRecodeVsJson;
  return Object.assign(row, {
    route_cpu_vs_json: routeVs?.value,
    route_cpu_vs_json_ci95_low: routeVs?.low,
    route_cpu_vs_json_ci95_high: routeVs?.high,
    route_recode_cpu_vs_json: recodeVs?.value,
    route_recode_cpu_vs_json_ci95_low: recodeVs?.low,
    route_recode_cpu_vs_json_ci95_high: recodeVs?.high,
    route_cpu_ns: route?.forward.cpuNs.median,
    route_recode_cpu_ns: route?.recode.cpuNs.median,
    route_recode_over_forward: route?.recodeOverForward?.value,
    route_recode_over_forward_ci95_low: route?.recodeOverForward?.low,
    route_recode_over_forward_ci95_high: route?.recodeOverForward?.high,
    route_key_ns: route?.forward.keyNs.median,
    route_recode_decode_ns: route?.recode.keyNs.median,
    route_recode_encode_ns: route?.recode.encodeNs.median,
    route_publish_ns: route?.forward.publishNs.median,
    route_msgs_per_s: route?.forward.msgsPerS.median,
    route_all_cpu_ns: route?.forward.clusterCpuNs?.median,
    route_recode_all_cpu_ns: route?.recode.clusterCpuNs?.median,
    route_backplane_bytes_per_msg: route?.forward.backplaneBytesPerMsg?.median,
    route_recode_msgs_per_s: route?.recode.msgsPerS.median,
    route_rooms: route?.rooms,
    route_routers: route?.publishers,
    route_members: route?.members,
    route_validate: route ? String(route.validate) : "",
    route_deliveries_expected: route?.expected,
    route_delivered: route?.delivered,
    route_misrouted: route?.misrouted,
    echo_ns: c.echo?.median,
    echo_vs_json: echo?.value,
    echo_vs_json_ci95_low: echo?.low,
    echo_vs_json_ci95_high: echo?.high,
    read_one_ns: c.readOne?.median,
    key_access: c.keyAccess ?? c.route?.keyAccess ?? "",
    read_one_vs_json: readOne?.value,
    read_one_vs_json_ci95_low: readOne?.low,
    read_one_vs_json_ci95_high: readOne?.high,
    validated_ns: c.validated?.median,
    added_checks: c.addedChecks ?? "",
    validated_vs_json: validated?.value,
    validated_vs_json_ci95_low: validated?.low,
    validated_vs_json_ci95_high: validated?.high,
    run_total_ms: c.totalMs.mean,
    msgs_per_s: c.msgsPerS,
    total_vs_json: ratio?.value,
    total_vs_json_ci95_low: ratio?.low,
    total_vs_json_ci95_high: ratio?.high,
    round_msgs: c.socket ? c.socket.slice : c.serializeBatches.batch,
    loop_floor_ns: c.loopFloorNs,
  });
}

/** What only the WebSocket modes have; figures only for a verified case. */
/** The link a socket case ran over (--link; loopback when none), and what it did to the case. */
function linkColumns(c: CaseResult): Row {
  const l = c.socket?.link ?? LOOPBACK;
  const use = c.verified ? caseLinkUse(c) : undefined;
  return {
    link: l.name,
    link_rtt_ms: l.rttMs,
    link_jitter_ms: l.jitterMs,
    link_down_kbps: l.downKbps,
    link_up_kbps: l.upKbps,
    link_wire_ms: use?.bytesMs,
    link_up_share: use?.upShare,
    link_down_share: use?.downShare,
    link_window_share: use?.windowShare,
    link_limit: use?.limit,
  };
}

function socketColumns(results: BenchResults, c: CaseResult, sock: NonNullable<CaseResult["socket"]>): Row {
  const perClient = (sock.perClient ?? []).flat().map((x) => x.msgsPerS);
  const row: Row = {
    clients: sock.clients,
    client_msgs_per_s_min: perClient.length > 0 ? Math.min(...perClient) : "",
    client_msgs_per_s_max: perClient.length > 0 ? Math.max(...perClient) : "",
    window: sock.window,
    ...linkColumns(c),
    wire_bytes: sock.wireBytes,
    reply_bytes: sock.replyBytes,
    reply_wire_bytes: sock.replyWireBytes,
    wire_compressed_share: sock.compressedShare,
    sent: sock.sent,
    received: sock.received,
    lost: sock.lost,
    reordered: sock.reordered,
    corrupted: sock.corrupted,
    backpressure: sock.backpressure,
    dropped: sock.dropped,
    client_cpu_ms: sock.clientCpuMs,
    server_cpu_ms: sock.serverCpuMs,
    client_cpu_ns_per_msg: sock.clientCpuNsPerMsg,
    client_busy_ns_per_msg: sock.clientBusyNsPerMsg,
    server_cpu_ns_per_msg: sock.serverCpuNsPerMsg,
    server_rss_peak_bytes: sock.serverRssPeakBytes,
    server_processes: sock.cluster?.processes,
    backplane: sock.cluster?.backplane,
    elapsed_ms: sock.elapsedMs,
    deflate: results.settings.deflate ?? false,
    extensions: sock.extensions,
  };
  if (!c.verified) return row;
  return Object.assign(row, {
    ...percentileCells("rtt", sock.rtt),
    ...percentileCells("latency", sock.latency),
    target_rate: sock.targetRate,
    achieved_rate: sock.achievedRate,
    late_sends: sock.late,
    ...percentileCells("service", sock.serviceTime, ["p50", "p99", "p999", "p9999", "max"]),
    server_deserialize_mean_ns: sock.serverDeserialize.mean,
    server_serialize_mean_ns: sock.serverSerialize.mean,
    mb_per_s: sock.mbPerS,
    msgs_per_s_vs_raw: c.ratios?.vsRaw?.value,
    cluster_cpu_ns_per_delivery: sock.cluster?.cpuNsPerDelivery.median,
    cluster_cpu_ns_per_delivery_min: sock.cluster?.cpuNsPerDelivery.min,
    cluster_cpu_ns_per_delivery_max: sock.cluster?.cpuNsPerDelivery.max,
    backplane_bytes_per_msg: sock.cluster?.backplaneBytesPerMsg.median,
  });
}

/** The server's side of a verified socket case (client/harness/field.ts): the field figure, how it compares, and the server's CPU. */
function fieldColumns(c: CaseResult, field: FieldFigures): Row {
  const { field: cost, fieldVsJson: vs, fieldOverJson: over, cpuOverRaw: cpu, clientVsJson: client } = c.ratios ?? {};
  return {
    field_total_ns: cost?.value,
    field_total_ci95_low_ns: cost?.low,
    field_total_ci95_high_ns: cost?.high,
    field_timers_taken_off: cost?.corrected,
    field_slices: field.slices,
    field_interrupted_share: field.interrupted,
    field_collection_share: field.collection,
    field_scheduler_share: field.scheduler,
    field_vs_json: vs?.value,
    field_vs_json_ci95_low: vs?.low,
    field_vs_json_ci95_high: vs?.high,
    field_over_json_ns: over?.value,
    field_over_json_ci95_low_ns: over?.low,
    field_over_json_ci95_high_ns: over?.high,
    server_codec_ns: field.codecNs.median,
    server_send_ns: field.sendNs.median,
    server_cpu_slice_ns: field.cpuNs.median,
    server_cpu_over_raw_ns: cpu?.value,
    server_cpu_over_raw_ci95_low_ns: cpu?.low,
    server_cpu_over_raw_ci95_high_ns: cpu?.high,
    server_wakeups_per_msg: field.wakeupsPerMsg,
    client_codec_vs_json: client?.value,
    client_codec_vs_json_ci95_low: client?.low,
    client_codec_vs_json_ci95_high: client?.high,
  };
}

/**
 * What a case's row takes from the run as a whole: its knee (latency mode at several rates; found
 * from the cases where the results do not carry the knees, as the live CSV's do not) and, for the
 * calibration codecs, what the calibration found (client/harness/field.ts).
 */
function runColumns(results: BenchResults): (c: CaseResult) => Row {
  const found = results.knees ?? knees(results.cases);
  const checks = results.calibration ?? [];
  const est = (prefix: string, e: Estimate | undefined): Row => ({
    [prefix]: e?.value,
    [`${prefix}_ci95_low`]: e?.low,
    [`${prefix}_ci95_high`]: e?.high,
  });
  return (c) => {
    const k =
      c.mode === "latency"
        ? found.find((x) => x.client === c.client && x.payload === c.payload && x.codec === c.codec)
        : undefined;
    // A known-cost codec's row carries its own check; cal-json's, its share from any check of its mode and payload.
    const known = KNOWN_COST_CODEC_NAMES.includes(c.codec);
    const check = CALIBRATION_CODEC_NAMES.includes(c.codec)
      ? checks.find(
          (x) =>
            x.client === c.client &&
            x.mode === c.mode &&
            x.payload === c.payload &&
            x.rate === c.socket?.targetRate &&
            (!known || x.codec === c.codec),
        )
      : undefined;
    return {
      knee_rate: k?.rate,
      knee_missed_rate: k?.missed,
      knee_beside_raw_rate: k ? (k.besideRaw?.rate ?? k.rate) : undefined,
      knee_beside_raw_missed_rate: k ? (k.besideRaw ? k.besideRaw.missed : k.missed) : undefined,
      calibration_known_ns: check && known ? check.known.value : undefined,
      ...(check
        ? {
            ...est("calibration_field_share", known ? check.knownByTimers : check.twinByTimers),
            ...est("calibration_cpu_share", known ? check.knownByCpu : check.twinByCpu),
          }
        : {}),
      ...(check && known ? est("calibration_quiet_share", check.knownByQuiet) : {}),
    };
  };
}

/** Cold mode's figures of a verified case: each over its processes, with its interval, and the firsts against json's. */
function coldColumns(c: CaseResult, cold: ColdSummaries): Row {
  const row: Row = {};
  const summary = (name: string, s: Summary | undefined): void => {
    row[`cold_${name}_ns`] = s?.median;
    row[`cold_${name}_ci95_low_ns`] = s?.medianLow;
    row[`cold_${name}_ci95_high_ns`] = s?.medianHigh;
  };
  const ratio = (name: string, e: Estimate | undefined): void => {
    row[`cold_${name}_vs_json`] = e?.value;
    row[`cold_${name}_vs_json_ci95_low`] = e?.low;
    row[`cold_${name}_vs_json_ci95_high`] = e?.high;
  };
  const r = c.ratios;
  summary("first", cold.first);
  ratio("first", r?.coldFirstVsJson);
  summary("first10", cold.first10);
  ratio("first10", r?.coldFirst10VsJson);
  summary("first100", cold.first100);
  ratio("first100", r?.coldFirst100VsJson);
  summary("first1000", cold.first1000);
  ratio("first1000", r?.coldFirst1000VsJson);
  summary("import", cold.import);
  summary("setup", cold.setup);
  row.bundle_bytes = cold.bundleBytes;
  row.bundle_gzip_bytes = cold.bundleGzipBytes;
  return row;
}

function caseRow(results: BenchResults, c: CaseResult, ofRun: (c: CaseResult) => Row): Row {
  return {
    ...identityColumns(results, c),
    ...ofRun(c),
    ...(c.verified ? timingColumns(c) : {}),
    ...(c.socket ? socketColumns(results, c, c.socket) : {}),
    ...(c.verified && c.socket?.field ? fieldColumns(c, c.socket.field) : {}),
    ...(c.verified && c.cold ? coldColumns(c, c.cold) : {}),
    ...(c.compression && c.verified
      ? {
          deflate_bytes: c.compression.deflateBytes,
          deflate_context_bytes: c.compression.deflateContextBytes,
          zstd_bytes: c.compression.zstdBytes,
          zstd_ns: c.compression.zstdNs,
          zstd_empty_ns: c.compression.zstdEmptyNs,
        }
      : {}),
  };
}

/** The rows of --load (mode `load`): a codec each, raw first, its payload cell the load itself. */
function loadRows(results: BenchResults): Row[] {
  const load = results.load;
  if (!load) return [];
  const est = (prefix: string, e: Estimate | undefined): Row => ({
    [prefix]: e?.value,
    [`${prefix}_ci95_low`]: e?.low,
    [`${prefix}_ci95_high`]: e?.high,
  });
  return load.codecs.map((f) => ({
    ...runWideColumns(results, "bun"),
    mode: "load",
    payload: loadCell(load.spec),
    codec: f.codec,
    verified: f.carried === true,
    error: f.why,
    ...est("load_server_cores", f.predictedCores),
    ...est("load_measured_server_cores", f.measuredCores),
    ...est("load_codec_cores", f.codecCores),
    load_bytes_per_s_up: f.bytesUpPerS,
    load_bytes_per_s_down: f.bytesDownPerS,
    load_deflated_bytes_per_s_up: f.deflatedUpPerS,
    load_deflated_bytes_per_s_down: f.deflatedDownPerS,
    ...est("load_saved_core_hours_per_day", f.savedCoreHoursPerDay),
    ...est("load_measured_saved_core_hours_per_day", f.measuredSavedCoreHoursPerDay),
    load_saved_gb_per_day: f.savedGbPerDay,
    load_saved_deflated_gb_per_day: f.savedDeflatedGbPerDay,
    load_sent_share: f.keptShare,
    load_fanout: load.spec.fanout,
    load_window_ms: load.windowMs,
  }));
}

/** Evolve mode's rows (mode `evolve`): a codec, payload, change and direction each, its outcome and the line that says why. */
function evolveRows(results: BenchResults): Row[] {
  return (results.evolve ?? []).map((r) => ({
    ...runWideColumns(results, results.settings.client === "browser" ? "browser" : "inprocess"),
    mode: "evolve",
    payload: r.payload,
    codec: r.codec,
    iterations: r.messages,
    verified: r.outcome !== "not-run" && r.outcome !== "not-applicable",
    change: r.change,
    direction: r.direction,
    outcome: r.outcome,
    detail: r.detail,
  }));
}

export function csvHeader(): string {
  return CSV_COLUMNS.join(",") + "\r\n";
}

/** A row of the CSV as a plain object: each column with a value (a cell that is not empty), by its name (docs/results-columns.md). */
export type CsvRecord = Record<string, string | number | boolean>;

/** The CSV's rows of these cases as plain objects, in the columns' order. */
export function csvRecords(results: BenchResults, cases: readonly CaseResult[] = results.cases): CsvRecord[] {
  const ofRun = runColumns(results);
  const held = (v: Row[string]): v is string | number | boolean =>
    v !== undefined && (typeof v !== "number" || Number.isFinite(v));
  // The load's rows and evolve mode's close the whole run's records (`cases` left to their default).
  const rows = [
    ...cases.map((c) => caseRow(results, c, ofRun)),
    ...(cases === results.cases ? [...loadRows(results), ...evolveRows(results)] : []),
  ];
  return rows.map((row) => Object.fromEntries(CSV_COLUMNS.flatMap((col) => (held(row[col]) ? [[col, row[col]]] : []))));
}

/** The rows of these cases, each ending in CRLF as RFC 4180 has it. */
export function csvRows(results: BenchResults, cases: readonly CaseResult[] = results.cases): string {
  return csvRecords(results, cases)
    .map((row) => CSV_COLUMNS.map((col) => csvField(row[col])).join(",") + "\r\n")
    .join("");
}

export function toCsv(results: BenchResults): string {
  return csvHeader() + csvRows(results);
}
