/**
 * How the harness fails. Each failure is a HarnessError with a stable
 * `code`; its message is one line a user can act on.
 *
 * - SETTING (SettingError): a bad setting or input file, named with its
 *   valid values; the CLI prints it and exits 2, the page shows it beside
 *   its form. Nothing has been measured yet.
 * - NOT_GIVEN_BACK: compression did not give a codec's frames back intact
 *   (the compression figures of that case are left out, the case stands).
 * - NO_MESSAGES: a payload has no messages: no generator for a user's
 *   payload, or no file given for it.
 */

export type HarnessErrorCode = "SETTING" | "NOT_GIVEN_BACK" | "NO_MESSAGES";

export class HarnessError extends Error {
  override readonly name: string = "HarnessError";

  constructor(
    readonly code: HarnessErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A bad setting: one line naming it and the valid values (the CLI prints it and exits 2). */
export class SettingError extends HarnessError {
  override readonly name = "SettingError";

  constructor(message: string) {
    super("SETTING", message);
  }
}
