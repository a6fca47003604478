/**
 * How a client's measuring fails: the socket modes in Bun, Node or a
 * browser, the client worker threads, and the page. Each failure is a
 * ClientError with a stable `code`; its message is the one line a case's
 * `error` records.
 *
 * - CONNECT: the server cannot be reached (the run stops at the first, since every case would fail alike).
 * - STALLED: nothing arrived for the stall timeout.
 * - CLOSED: the server or the network closed the connection mid-case.
 * - PROTOCOL: the server answered outside the socket contract (no slice figures, an unknown subscriber).
 * - UNKNOWN_CODEC: the plan's catalog has no codec of that name.
 * - WORKER: a client worker thread failed.
 * - FORM: the page's form asks for nothing to run.
 * - FINISHED: a reply loop already ended (not a failure of the case: later events are ignored).
 * - FAILED: a step of a run in the page failed (its finished cases are kept); the page shows the lines.
 */

export type ClientErrorCode =
  | "CONNECT"
  | "STALLED"
  | "CLOSED"
  | "PROTOCOL"
  | "UNKNOWN_CODEC"
  | "WORKER"
  | "FORM"
  | "FINISHED"
  | "FAILED";

export class ClientError extends Error {
  override readonly name = "ClientError";

  constructor(
    readonly code: ClientErrorCode,
    message: string,
  ) {
    super(message);
  }
}
