/**
 * How severe a line says it is, by the level it was logged at when it names one: FATAL, SEVERE,
 * CRITICAL, EMERG, PANIC and FAILURE (3) over ERROR (2) over WARN (1) over INFO, NOTICE and DEBUG
 * (0). An explicit level decides: an INFO line that merely contains the word "error"
 * (`instruction cache parity error corrected`) is 0, not an error. A line without a level is
 * judged by what it says (an exception, a traceback, a 5xx answer is an error; a refused or
 * timed-out one a warning).
 */
import { isErrorLine, isWarningLine } from '../relevance/diagnosticLines';

export type Severity = 0 | 1 | 2 | 3;

const LEVELS: Readonly<Record<string, Severity>> = {
  fatal: 3, severe: 3, critical: 3, crit: 3, emerg: 3, emergency: 3, panic: 3, alert: 3, failure: 3,
  error: 2, err: 2,
  warn: 1, warning: 1,
  info: 0, notice: 0, debug: 0, trace: 0, fine: 0, finer: 0, finest: 0, config: 0, verbose: 0,
};

/** `level=error`, `"level":"ERROR"`, `"severity": "warning"`. */
const KEYED_LEVEL = /(?:^|[\s,{])"?(?:level|lvl|severity|loglevel)"?\s*[=:]\s*"?([A-Za-z]{3,9})\b/;
/** A bare upper-case level word, or one in brackets in any case: `FATAL`, `[error]`, `<WARN>`. */
const BARE_LEVEL = /(?:^|[\s[<|(-])(FATAL|SEVERE|CRITICAL|CRIT|EMERG|PANIC|ALERT|FAILURE|ERROR|ERR|WARN|WARNING|INFO|NOTICE|DEBUG|TRACE)(?=$|[\s\]>|):,-])|\[(fatal|severe|critical|crit|emerg|panic|alert|error|err|warn|warning|info|notice|debug|trace)\]/;
/** Android logcat: `03-17 16:13:38.811  1702  2395 E Tag: …`. */
const LOGCAT_LEVEL = /^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+\s+([VDIWEF])\s/;
const LOGCAT: Readonly<Record<string, Severity>> = { V: 0, D: 0, I: 0, W: 1, E: 2, F: 3 };

/** Only the head of a line names its level; a long message is not searched through. */
const LEVEL_HEAD = 400;

/** The level a line names, when it names one. */
export function namedLevel(line: string): Severity | undefined {
  const head = line.length > LEVEL_HEAD ? line.slice(0, LEVEL_HEAD) : line;
  const logcat = LOGCAT_LEVEL.exec(head);
  if (logcat !== null) return LOGCAT[logcat[1]!];
  const keyed = KEYED_LEVEL.exec(head);
  if (keyed !== null) {
    const level = LEVELS[keyed[1]!.toLowerCase()];
    if (level !== undefined) return level;
  }
  const bare = BARE_LEVEL.exec(head);
  if (bare !== null) return LEVELS[(bare[1] ?? bare[2]!).toLowerCase()];
  return undefined;
}

/** The line's severity (see the module comment). */
export function lineSeverity(line: string): Severity {
  const named = namedLevel(line);
  if (named !== undefined) return named;
  if (isErrorLine(line)) return 2;
  return isWarningLine(line) ? 1 : 0;
}
