import type { Refusal, SocketServer } from "./context.ts";

/** A plain-text answer: one line, with its status and any extra headers. */
export function text(status: number, body: string, headers: Record<string, string> = {}): Response {
  return new Response(body + "\n", { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });
}

/** A refusal: counted by kind for /health, answered with one plain line. */
export function refuse(
  s: Pick<SocketServer, "refused">,
  kind: Refusal,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): Response {
  s.refused[kind]++;
  return text(status, body, headers);
}
