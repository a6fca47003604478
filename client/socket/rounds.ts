/** How the WebSocket modes cut a run into rounds. */

import type { Settings, SocketMode } from "../../bench/harness/settings.ts";

/**
 * Messages per round in each mode: short enough that a payload's codecs
 * take turns within a second or so (ratios pair round by round, as in
 * codec mode), long enough for a stream to reach its steady rate. A fanout
 * case is one round per run (its subscribers take a while to connect).
 */
const ROUND_MESSAGES: Record<SocketMode, number> = { roundtrip: 250, stream: 5_000, fanout: Number.POSITIVE_INFINITY };

/** Messages per round of `mode` under these settings (a run of fewer is one round). */
export function roundMessages(mode: SocketMode, settings: Settings): number {
  return Math.min(settings.iterations[mode], ROUND_MESSAGES[mode]);
}

/** Rounds a case of `mode` is meant to run: every run cut into rounds. */
export function plannedRounds(mode: SocketMode, settings: Settings): number {
  return settings.runs * Math.ceil(settings.iterations[mode] / roundMessages(mode, settings));
}
