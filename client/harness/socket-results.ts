/**
 * What only the WebSocket modes measure: the socket's counts and latencies,
 * the clients' shares, and the server's figures slice by slice and in sum.
 * Plain objects, part of every results file (results.ts).
 */

import type { Summary } from "./statistics.ts";
import type { LinkProfile } from "./settings.ts";

/** Latency percentiles from every round-trip sample, ns. */
export interface LatencyPercentiles {
  samples: number;
  p50: number;
  p90: number;
  p99: number;
  p999: number;
  /** Absent in files written before it was recorded. */
  p9999?: number;
  max: number;
}

/** One client's share of a `--clients N` case run. */
export interface ClientFigures {
  sent: number;
  received: number;
  lost: number;
  msgsPerS: number;
}

/** What only the WebSocket modes have. Counts are summed over runs. */
export interface SocketFigures {
  /** Concurrent connections per case (--clients). */
  clients: number;
  /** With several clients: each client's figures, per run. */
  perClient?: ClientFigures[][];
  /** Messages in flight: 1 for roundtrip, the window for stream. */
  window: number;
  /** The link the case's connections crossed (--link); absent: loopback. */
  link?: LinkProfile;
  /** Messages per timed slice: one round's share in interleaved rounds, the whole run on fresh connections. */
  slice: number;
  sent: number;
  received: number;
  lost: number;
  reordered: number;
  corrupted: number;
  /** Client-to-server frame per message (payload + header + mask), bytes; with compression, as measured on the socket (NaN when not measured). */
  wireBytes: number;
  /** Server's reply payload per message, bytes. */
  replyBytes: number;
  /** Server-to-client frame per message (payload + header), bytes; with compression, as measured on the socket (NaN when not measured; absent in older files). */
  replyWireBytes?: number;
  /** With compression: the share of the client's messages it sent compressed (a client may leave small ones alone). */
  compressedShare?: number;
  /** roundtrip and stream: every message's round-trip time, pooled over runs (undefined in latency mode, which has `latency`). */
  rtt: LatencyPercentiles | undefined;
  /** latency mode: each reply's time since its message was due (corrected for coordinated omission), pooled over runs. */
  latency?: LatencyPercentiles;
  /** latency mode: each reply's time since its message actually went out (uncorrected, what a closed loop sees). */
  serviceTime?: LatencyPercentiles;
  /** latency mode: messages sent more than one interval (at least 1 ms) after they were due, summed over runs. */
  late?: number;
  /** latency mode: messages per second asked for (all clients together) and achieved (sent over the spans they were sent in at the pace the client kept: a line fitted through each run's send times, client/socket/open-loop.ts). */
  targetRate?: number;
  achievedRate?: number;
  /** latency mode: every sample of both, as HdrHistograms (µs, 3 significant digits) in HdrHistogram's compressed base64 encoding. */
  histograms?: { correctedUs: string; serviceUs: string };
  /** Server-side decode / encode per message, per-call timing with clock cost subtracted, across runs, ns. */
  serverDeserialize: Summary;
  serverSerialize: Summary;
  /** Kept connections: the server's figures of every slice (SliceFigures.server) across the slices, per message, ns (absent in older files). */
  field?: FieldFigures;
  /** Payload megabytes (10^6) per second, one direction. */
  mbPerS: number;
  /** CPU time of the server and of the client while the cases ran, and the cases' wall time, ms. */
  serverCpuMs: number;
  clientCpuMs: number;
  /** CPU per message on each side, ns: the client's over messages sent (its pacing loop included in latency mode), the server's over messages it answered (absent in older files). */
  clientCpuNsPerMsg?: number;
  serverCpuNsPerMsg?: number;
  /** The server process's highest resident memory sampled while the case's connections were busy, bytes (NaN when the server did not say; absent in older files). */
  serverRssPeakBytes?: number;
  /** latency mode: the client's time on messages (encode and send, decode and check) per message, ns; its process CPU includes the pacing loop's polling. */
  clientBusyNsPerMsg?: number;
  elapsedMs: number;
  backpressure: number;
  dropped: number;
  extensions: string;
  /** fanout: the whole server side per delivery, every process and the backplane, over the runs (absent in older files). */
  cluster?: ClusterFigures;
}

/**
 * fanout: what the server side cost, all its processes together, read from each process's
 * /health before and after every run (client/socket/cluster-figures.ts).
 */
export interface ClusterFigures {
  /** Server processes (bun run server --processes N; 1 alone). */
  processes: number;
  /** What joined them: "redis", or "" for none. */
  backplane: string;
  /** Every process's CPU (user + system) over the deliveries, ns per delivered message. */
  cpuNsPerDelivery: Summary;
  /** Backplane wire bytes (RESP framing included; published and received, every process) per published message; 0 without one. */
  backplaneBytesPerMsg: Summary;
}

/** One fanout run's share of ClusterFigures. */
export interface ClusterSlice {
  processes: number;
  cpuNsPerDelivery: number;
  backplaneBytesPerMsg: number;
}

/** The server's side of a case, from its slices: what the codec costs inside the server (client/harness/field.ts pairs it with JSON's and raw's). */
export interface FieldFigures {
  /** Slices the server answered the mark of. */
  slices: number;
  /** Decode + encode per message, timed in the server: the field figure. */
  codecNs: Summary;
  /** send() per message. */
  sendNs: Summary;
  /** The server process's CPU per message while the connection was busy. */
  cpuNs: Summary;
  /** Times the server slept and woke, per message (mean over the slices). */
  wakeupsPerMsg: number;
  /** The share of messages interrupted: decode + encode past 10 times the slice's median (mean over the slices; absent in older files). */
  interrupted?: number;
  /** The share of the field figure that went to pauses the codec caused, collections mostly (mean over the slices; absent in older files, whose field figure left them out). */
  collection?: number;
  /** The share of the server's decode + encode the scheduler took for other processes, left out of the field figure (mean over the slices; absent in older files). */
  scheduler?: number;
}

/** Latency mode: what one slice saw at its rate (client/harness/knee.ts judges a rate by the medians over a case's slices). */
export interface SliceLatency {
  /** The slice's corrected p99 (from when each message was due), ns. */
  p99Ns: number;
  /** Messages sent more than one interval late, as a share of the slice's. */
  lateShare: number;
  /** The rate the client kept over the rate asked for. */
  achievedShare: number;
}

/** The server's figures of one slice (its answer to the slice mark, protocols/contract.ts), per message, ns. */
export interface ServerSliceFigures {
  /**
   * Decode + encode, each call timed in the server with the clock's read cost subtracted, over
   * every message of the slice, less what the scheduler took from the interrupted ones for other
   * processes (ServerSlice.schedulerNs): the field figure, collections included.
   */
  codecNs: number;
  /** Decode + encode over the messages not interrupted only (ServerSlice.kept): collections left out too, as the field figure was before they counted. */
  quietNs: number;
  /** The share of the slice's messages interrupted (decode + encode past INTERRUPTION_FACTOR times the slice's median). */
  interrupted: number;
  /** The share of codecNs that went to pauses the codec caused: interrupted messages' time over the median the scheduler does not explain (collections, mostly). */
  collection: number;
  /** The share of the slice's decode + encode the scheduler took for other processes, taken off. */
  scheduler: number;
  /** send(): where the server encodes a text frame to UTF-8. */
  sendNs: number;
  /** The server process's CPU (user + system) while this connection was busy: the codec and everything else. */
  cpuNs: number;
  /** Times the server slept and woke, per message (voluntary context switches). */
  wakeups: number;
}
