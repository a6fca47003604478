/**
 * How the bench's own machinery fails around the measuring: the processes
 * it starts and the servers it reaches. (A bad flag or input file is a
 * SettingError, client/harness/harness-errors.ts.) Each failure is a
 * CliError with a stable `code`; the bench prints its one line.
 *
 * - UNREACHABLE: the server given with --url cannot be reached.
 * - SERVER_START: a server process the bench started never became ready.
 * - CHILD: a process of the bench's own (codec mode's, the Node client)
 *   ended without its result (the cases it finished were told as they came).
 * - BUILD: the Node client could not be bundled.
 * - NO_NODE: --client node with no Node.js on PATH.
 * - PAGE: the page in a browser failed or did not finish.
 * - TOOL: a tool's own step failed (cross-check, screenshot).
 * - REDIS: the local redis-server the bench starts as a backplane is missing or never became ready.
 * - LINK: the link emulator (Toxiproxy, for --link) is missing, never became ready or refused a setting.
 */

export type CliErrorCode =
  | "UNREACHABLE"
  | "SERVER_START"
  | "CHILD"
  | "BUILD"
  | "NO_NODE"
  | "PAGE"
  | "TOOL"
  | "REDIS"
  | "LINK";

export class CliError extends Error {
  override readonly name: string = "CliError";

  constructor(
    readonly code: CliErrorCode,
    message: string,
  ) {
    super(message);
  }
}
