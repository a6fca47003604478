/**
 * Who may talk to the server: which Host a request may name and which
 * pages (Origin) may open a socket.
 */

/** Loopback addresses, where the server is reachable from this machine only. */
export function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || host === "[::1]" || /^127\./.test(host);
}

/**
 * A browser always sends Origin. Only the page this server serves (same
 * host and port as the request) and --allow-origin entries may connect;
 * anything else could be a page on another site using the visitor's
 * browser to reach a server on their loopback.
 */
export function originAllowed(req: Request, allowOrigins: readonly string[]): boolean {
  const origin = req.headers.get("origin");
  if (origin === null) return true;
  const host = req.headers.get("host");
  if (host !== null && (origin === `http://${host}` || origin === `https://${host}`)) return true;
  return allowOrigins.includes(origin);
}

/**
 * Bound to loopback, the server answers only requests addressed to a
 * loopback name: a page on another site whose name was made to resolve to
 * 127.0.0.1 (DNS rebinding) would otherwise count as "same origin".
 */
export function hostAllowed(req: Request, loopbackOnly: boolean): boolean {
  if (!loopbackOnly) return true;
  const host = req.headers.get("host");
  if (host === null) return true;
  const name = host.startsWith("[") ? host.slice(0, host.indexOf("]") + 1) : host.split(":")[0]!;
  return isLoopback(name);
}
