/**
 * What a fanout run costs the whole server side: every server process's
 * CPU and the backplane's traffic, read from each process's /health before
 * and after the run (outside the timed part). One server alone is a cluster
 * of one without a backplane; a server too old to say its CPU gives NaN.
 */

import { HEALTH_PATH } from "../../protocols/contract.ts";

/** One reading of every process. */
interface ClusterReading {
  cpuMs: number;
  /** Backplane wire bytes (RESP framing included) written by publishing and read by subscribing, all processes. */
  backplaneBytes: number;
  /** Messages published to the backplane, all processes. */
  backplaneMessages: number;
}

/** A run's share: the processes, their CPU, and the backplane's traffic. */
export interface ClusterRun {
  processes: number;
  cpuMs: number;
  backplaneBytes: number;
  backplaneMessages: number;
}

interface HealthBody {
  cpuMs?: number;
  backplane?: { published: number; publishedBytes: number; receivedBytes: number };
}

async function readOne(url: string): Promise<ClusterReading> {
  try {
    const body = (await (
      await fetch(new URL(HEALTH_PATH, url), { signal: AbortSignal.timeout(5000) })
    ).json()) as HealthBody;
    const b = body.backplane;
    return {
      cpuMs: body.cpuMs ?? NaN,
      backplaneBytes: b ? b.publishedBytes + b.receivedBytes : 0,
      backplaneMessages: b?.published ?? 0,
    };
  } catch {
    return { cpuMs: NaN, backplaneBytes: NaN, backplaneMessages: NaN };
  }
}

/** Reads every process (`urls`: each one's own URL) at once, summed. */
export async function readCluster(urls: readonly string[]): Promise<ClusterReading> {
  const all = await Promise.all(urls.map(readOne));
  return all.reduce((a, b) => ({
    cpuMs: a.cpuMs + b.cpuMs,
    backplaneBytes: a.backplaneBytes + b.backplaneBytes,
    backplaneMessages: a.backplaneMessages + b.backplaneMessages,
  }));
}

/** What happened between two readings of `processes` processes. */
export function clusterRun(before: ClusterReading, after: ClusterReading, processes: number): ClusterRun {
  return {
    processes,
    cpuMs: after.cpuMs - before.cpuMs,
    backplaneBytes: after.backplaneBytes - before.backplaneBytes,
    backplaneMessages: after.backplaneMessages - before.backplaneMessages,
  };
}
