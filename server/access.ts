/**
 * Who may talk to the server: which Host a request may name and which
 * pages (Origin) may open a socket.
 */

/**
 * Loopback addresses, where the server is reachable from this machine only:
 * `localhost`, an IPv4 literal in 127.0.0.0/8, and `::1` in any of its IPv6
 * spellings (bare or bracketed, zeros written out, or 127.x.y.z mapped into
 * IPv6). Only literals: a DNS name such as `127.0.0.1.evil.example` can be
 * made to resolve anywhere.
 */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase();
  const name = h.startsWith("[") && h.endsWith("]") ? h.slice(1, -1) : h;
  if (name === "localhost") return true;
  const v4 = ipv4(name);
  if (v4) return v4[0] === 127;
  const v6 = ipv6(name);
  if (!v6) return false;
  // ::1, or ::ffff:127.x.y.z (IPv4-mapped).
  const zeros = (from: number, to: number): boolean => v6.slice(from, to).every((g) => g === 0);
  return (zeros(0, 7) && v6[7] === 1) || (zeros(0, 5) && v6[5] === 0xffff && v6[6]! >> 8 === 127);
}

/** The four octets of a dotted-quad IPv4 literal, or undefined. */
function ipv4(s: string): number[] | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return undefined;
  const octets = m.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

/** The eight 16-bit groups of an IPv6 literal (with "::" expanded and a trailing dotted quad), or undefined. */
function ipv6(s: string): number[] | undefined {
  if (!/^[0-9a-f:.]+$/.test(s) || !s.includes(":")) return undefined;
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const groups = (part: string): number[] | undefined => {
    if (part === "") return [];
    const out: number[] = [];
    for (const g of part.split(":")) {
      if (g.includes(".")) {
        const v4 = ipv4(g);
        if (!v4) return undefined;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-f]{1,4}$/.test(g)) out.push(parseInt(g, 16));
      else return undefined;
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return undefined;
  if (halves.length === 1) return head.length === 8 ? head : undefined;
  const fill = 8 - head.length - tail.length;
  return fill >= 1 ? [...head, ...Array<number>(fill).fill(0), ...tail] : undefined;
}

/**
 * A browser always sends Origin. Only the page this server serves (same
 * host and port as the request, or as the server's own address, `own`, when
 * the request came through a link in front of it: bun run bench --link) and
 * --allow-origin entries may connect; anything else could be a page on
 * another site using the visitor's browser to reach a server on their
 * loopback.
 */
export function originAllowed(req: Request, allowOrigins: readonly string[], own?: string): boolean {
  const origin = req.headers.get("origin");
  if (origin === null) return true;
  const host = req.headers.get("host");
  if (host !== null && (origin === `http://${host}` || origin === `https://${host}`)) return true;
  if (own !== undefined && origin === own) return true;
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
  const name = hostName(host);
  return name !== undefined && isLoopback(name);
}

/** The name in a Host header (`name`, `name:port`, `[v6]`, `[v6]:port`), or undefined when it is none of those. */
export function hostName(host: string): string | undefined {
  const m = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]]+)(?::\d{1,5})?$/.exec(host);
  return m?.[1];
}
