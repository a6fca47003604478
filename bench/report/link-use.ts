/** What the link (--link) did to a case, as the table and the CSV show it (client/harness/link.ts, linkUse). */

import { linkUse, type LinkUse } from "../../client/harness/link.ts";
import type { CaseResult } from "../../client/harness/results.ts";
import type { SocketMode } from "../../client/harness/settings.ts";

/**
 * A socket case's use of its link, from its measured rate and its frames each way (a reply frame
 * carries no mask: 4 bytes less); undefined over loopback. A fanout's rate is every subscriber's
 * deliveries together, and each subscriber (and the publisher) has a link of its own, so each
 * connection carries its share.
 */
export function caseLinkUse(c: CaseResult): LinkUse | undefined {
  const s = c.socket;
  if (!s?.link || c.mode === "codec") return undefined;
  const perConnection = c.mode === "fanout" ? c.msgsPerS / Math.max(1, s.clients) : c.msgsPerS;
  const down = s.replyWireBytes ?? s.wireBytes - 4;
  return linkUse(c.mode as SocketMode, s.link, perConnection, s.wireBytes, down, s.window);
}

/** What held a stream or fanout case back, as its cell says it: "up 86%", "window 88%", "cpu"; "" in roundtrip mode. */
export function heldByText(u: LinkUse): string {
  if (u.limit === "" || u.limit === "cpu") return u.limit;
  const used = { up: u.upShare, down: u.downShare, window: u.windowShare }[u.limit];
  return `${u.limit} ${Math.round(used * 100)}%`;
}
