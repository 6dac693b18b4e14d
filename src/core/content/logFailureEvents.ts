/**
 * A log digest cut, for a question about failures ("what errors did the device log?", "why did
 * the job fail?"), to the events logged at warning level or above, each still once with its
 * count, in order. The quieter events (info, debug, verbose) are one line saying how many were
 * left out; they stay in the original behind the digest's marker. A line that names its level is
 * judged by it, so an INFO line that merely contains the word "error" is quiet (`severity.ts`); a
 * line that names none is kept when it reports a problem in words.
 */
import { lineSeverity, namedLevel } from './severity';

/**
 * Words that report a problem beyond those `isWarningLine` already reads (failed, refused, denied,
 * timed out, invalid…). A line that names no level is kept when it says one: the cut must not lose
 * a failure its format does not label (`host - error : connection refused`).
 */
const PROBLEM_WORD = /\b(?:errors?|fails?|exceptions?|unable|cannot|can't|couldn't|could not|abort(?:ed|ing)?|crash(?:ed|es)?|panic|fatal|rejected|broken|killed|overflow|corrupt(?:ed)?)\b/i;

/** Whether a digest line reports a problem: by the level it names, or, naming none, by what it says. */
function reportsProblem(line: string): boolean {
  const named = namedLevel(line);
  if (named !== undefined) return named >= 1;
  if (lineSeverity(line) >= 1 || PROBLEM_WORD.test(line)) return true;
  // An event named in one identifier says it too: `sendSyncFailedBroadcast`, `on_upload_error`.
  const words = identifierWords(line);
  return words !== line && (lineSeverity(words) >= 1 || PROBLEM_WORD.test(words));
}

/** The line with identifiers cut into their words (camelCase, PascalCase, snake_case); the line itself when it has none. */
function identifierWords(line: string): string {
  return line.replace(/([a-z\d])([A-Z])/g, '$1 $2').replace(/([A-Za-z])_(?=[A-Za-z])/g, '$1 ');
}

/** The cut must leave at most this share of the digest's characters to be worth a different reading of the log. */
const MAX_KEPT_SHARE = 2 / 3;

export interface FailureEvents {
  readonly text: string;
  readonly kept: number;
  readonly quiet: number;
}

/** The digest's warning-and-above events; undefined when it has none, or when they are most of it. */
export function failureEventsOf(digest: string): FailureEvents | undefined {
  const lines = digest.split('\n');
  const kept: string[] = [];
  let quiet = 0;
  for (const line of lines) {
    if (line.trim().length === 0) continue;
    if (reportsProblem(line)) kept.push(line);
    else quiet++;
  }
  if (kept.length === 0 || quiet === 0) return undefined;
  kept.push(`(${quiet} quieter event line(s) of the digest left out: info, debug and the like, in the original behind the marker)`);
  const text = kept.join('\n');
  return text.length <= digest.length * MAX_KEPT_SHARE ? { text, kept: kept.length - 1, quiet } : undefined;
}
