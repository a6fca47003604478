/**
 * What one WebSocket case is asked to do (SocketCaseOptions) and what it measured
 * (SocketCaseFigures), shared by the loops (runner.ts, open-loop.ts), the modes and the workers.
 */

import type { CodecCatalog } from "../../protocols/registry.ts";
import type { Clock } from "../../bench/harness/clock.ts";
import type { SocketMode } from "../../bench/harness/settings.ts";
import type { Message, PayloadName } from "../../protocols/messages.ts";
import type { ServerConnectionStats, ServerSlice } from "../../protocols/socket/contract.ts";
import type { WebSocketClass } from "./connection.ts";

export interface SocketCaseOptions {
  /** Server base URL, http://host:port. */
  server: string;
  /** The run's codecs, by name. */
  catalog: CodecCatalog;
  codec: string;
  payload: PayloadName;
  mode: SocketMode;
  messages: readonly Message[];
  /** A lossy codec timed on request (--allow-lossy): replies must equal the codec's own round trip of each message. */
  ownRoundTrip?: boolean;
  /** Messages in flight in stream mode; at most, in latency mode. */
  window: number;
  /** Latency mode: messages per second, sent on schedule. */
  rate?: number;
  /** A case with no reply for this long ends as stalled. */
  stallTimeoutMs: number;
  clock: Clock;
  /** Clock read cost subtracted from each per-call timing, ns. */
  timerOverheadNs: number;
  WebSocket: WebSocketClass;
  /** Connection id, so the server's figures can be fetched afterwards. */
  id: string;
  /** CPU time of this process so far, ms (undefined where the runtime has no such counter). */
  cpuMs?: () => number;
  /** After each slice, send a slice mark and keep the server's figures of the slice (protocols/socket/contract.ts). */
  sliceFigures?: boolean;
}

export interface SocketCaseFigures {
  sent: number;
  received: number;
  lost: number;
  reordered: number;
  corrupted: number;
  /** First send to last reply, ms. */
  elapsedMs: number;
  /** Client serialize / deserialize time summed over all messages, ns (raw: the lookup of prepared bytes and the byte check). */
  serializeNs: number;
  deserializeNs: number;
  /** roundtrip: every message's round-trip time; latency: each reply's time since its message was due; ns. */
  rttNs: Float64Array | undefined;
  /** latency only: each reply's time since its message actually went out (what a closed loop sees), ns. */
  serviceNs: Float64Array | undefined;
  /** latency only: messages sent more than one interval (at least 1 ms) after they were due. */
  late: number;
  /** latency only: the span the messages were sent over at the pace the client kept (open-loop.ts, fittedSpanMs), ms; the rate achieved is messages over it. */
  sendingMs: number;
  /**
   * latency only: time the client spent on messages (encode and send, decode and check), ns. Its
   * process CPU says little there: between sends due within a few ms the pacing loop polls the
   * event loop, which keeps a core busy at any rate.
   */
  busyNs: number;
  /** Payload bytes sent and received, summed. */
  bytesSent: number;
  bytesReceived: number;
  extensions: string;
  clientCpuMs: number;
  server: ServerConnectionStats | undefined;
  /** The server's figures of this slice, from its answer to the slice mark (sliceFigures). */
  serverSlice?: ServerSlice;
  /** Why the slice failed: one line, absent when it did not. */
  error?: string;
}

/** Figures before anything happened. */
export function emptyFigures(): SocketCaseFigures {
  return {
    sent: 0,
    received: 0,
    lost: 0,
    reordered: 0,
    corrupted: 0,
    elapsedMs: 0,
    serializeNs: 0,
    deserializeNs: 0,
    rttNs: undefined,
    serviceNs: undefined,
    late: 0,
    sendingMs: 0,
    busyNs: 0,
    bytesSent: 0,
    bytesReceived: 0,
    extensions: "",
    clientCpuMs: NaN,
    server: undefined,
  };
}

