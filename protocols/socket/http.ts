/** A plain-text answer: one line, with its status and any extra headers. */
export function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}
