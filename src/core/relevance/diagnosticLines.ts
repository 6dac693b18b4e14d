/**
 * Lines that report a problem, in two tiers. Error lines (ERROR/FATAL levels, tracebacks and
 * exception lines, compiler errors, failed-test verdicts) are never elided by the relevance
 * filter, whatever the question. Warning lines (WARN levels, "fail", "failed", "refused", "timed
 * out", "deny") are ranked like any line but boosted when the question asks about failures: some
 * logs are two-thirds warnings, and keeping them all would keep the whole log.
 */
import { tokenizeForSearch } from './searchTokenizer';

const ERROR_PATTERNS: readonly RegExp[] = [
  // Upper-case levels and verdicts as loggers and test runners print them.
  /\b(?:ERROR|FATAL|CRITICAL|SEVERE|PANIC|EMERG|FAILED|FAIL)\b/,
  // Bracketed levels (Apache, syslog-style).
  /\[(?:error|crit|critical|alert|emerg|fatal|severe)\]/i,
  // Compiler, linter and shell diagnostics: "error:", "error[E0308]:", "fatal:".
  /(?:^|[\s:])(?:error|fatal|panic)(?:\[[\w-]+\])?:/i,
  /^Traceback \(most recent call last\)/,
  // An exception line: "ValueError: bad input", "java.io.IOException: closed".
  /^\s*(?:[\w$]+\.)*[\w$]*(?:Error|Exception)(?::|$)/,
  // pytest's detail lines.
  /^E {2,}\S/,
  /\b(?:segmentation fault|core dumped)\b/i,
  // Android logcat error and fatal levels: "03-17 16:13:38.811  1702  2395 E Tag: …".
  /^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+\s+[EF]\s/,
  // A web server's access log line for a request answered 4xx or 5xx: `"GET /x HTTP/1.1" 500 …`.
  /HTTP\/\d(?:\.\d)?" [45]\d\d\b/,
];

const WARNING_PATTERNS: readonly RegExp[] = [
  /\b(?:WARN|WARNING)\b/,
  /\[(?:warn|warning)\]/i,
  /(?:^|[\s:])warning(?:\[[\w-]+\])?:/i,
  /\b(?:fail|fails|failed|failure|failing|refused|denied|deny|denial|timed out|timeout|unreachable|invalid)\b/i,
  /^\d\d-\d\d \d\d:\d\d:\d\d\.\d+\s+\d+\s+\d+\s+W\s/,
];

/** True when the line reports an error (never elided). */
export function isErrorLine(line: string): boolean {
  for (const pattern of ERROR_PATTERNS) if (pattern.test(line)) return true;
  return false;
}

/** True when the line reports a warning or a soft failure (boosted for failure questions). */
export function isWarningLine(line: string): boolean {
  for (const pattern of WARNING_PATTERNS) if (pattern.test(line)) return true;
  return false;
}

export function isDiagnosticLine(line: string): boolean {
  return isErrorLine(line) || isWarningLine(line);
}

/** Stems of words that ask about problems: "why did it fail", "any errors?", "what went wrong". */
const FAILURE_STEMS = new Set(['fail', 'failur', 'error', 'err', 'warn', 'except', 'crash', 'problem', 'wrong', 'issu', 'broken', 'broke', 'bug', 'timeout', 'refus', 'deni', 'fatal', 'panic', 'traceback', 'stack', 'abort', 'di', 'dead']);

/** True when the question asks about failures, errors or warnings. */
export function asksAboutFailures(query: string): boolean {
  return tokenizeForSearch(query).some((term) => FAILURE_STEMS.has(term));
}
