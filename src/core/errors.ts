/** The message of anything thrown, for one-line reports and log lines. */
export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
