/** A browser's name and version, as the results and reports name it. */

/** "Chrome/156.0.8078.73" -> "Chrome 156.0.8078.73" (Firefox, Safari alike). */
export function browserVersion(userAgent: string): string {
  const m = /(Firefox|Edg|Chrome|Version)\/([\d.]+)/.exec(userAgent);
  if (!m) return "unknown";
  const name = m[1] === "Version" ? "Safari" : m[1] === "Edg" ? "Edge" : m[1];
  return `${name} ${m[2]}`;
}
