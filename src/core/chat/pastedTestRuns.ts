/**
 * A test run pasted without a fence: pytest's console output, from its `test session starts`
 * banner to its closing count line (`=== 4 failed, 170 passed in 3.21s ===`), and unittest's,
 * from its progress row (or its first failure's rule) to its verdict after `Ran N tests in Xs`
 * (`OK`, `FAILED (errors=6, skipped=2)`), with the runner's chatter lines right around it
 * (Django's `Creating test database for alias…` above, `Destroying test database…` below).
 * Their header paragraphs (platform, plugins, package versions), the test sources quoted in
 * their failures and their tracebacks read as prose or as a stack trace paragraph by paragraph;
 * the banners say where the run begins and ends. Jest's console output runs from its first
 * ` PASS  src/a.test.ts` or ` FAIL  …` suite line to its `Tests: … total` line and the
 * `Snapshots:`, `Time:` and `Ran all test suites.` lines under it; a failure's code frame and
 * blank lines in between stay inside.
 */
import type { BulkSpan } from './pastedBulk';
import { isRunnerChatter } from '../content/testOutput';

const SESSION_START = /^=+ test session starts =+[ \t]*$/gm;
/** pytest's closing line: counts of outcomes and the time taken, between rules of `=`. */
const SESSION_END = /^=+ (?:[^=\n]*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|no tests ran)\b[^=\n]*) in [\d.]+\s?s(?:econds)?\b[^=\n]*=+[ \t]*$/m;

/** unittest's end: the count line, a blank line and the verdict. */
const UNITTEST_END = /^Ran \d+ tests? in [\d.]+s[ \t]*\n(?:[ \t]*\n)?(?:OK|FAILED)(?: \([^)\n]*\))?[ \t]*$/gm;
/** unittest's start: a progress row of outcomes, or the rule over its first failure. */
const UNITTEST_START = /^(?:[.sxuEF]+[ \t]*\n)?={20,}[ \t]*\n(?:ERROR|FAIL): \S/m;
/** Ran's line for a run that printed no failure: the progress row right above the rule of `-`. */
const UNITTEST_QUIET_START = /^[.sxuEF]+[ \t]*\n-{20,}[ \t]*\n$/m;

/** A jest suite line: ` PASS  src/cart.test.ts`, `FAIL src/refund.test.ts (5.1 s)`. */
const JEST_SUITE = /^ ?(?:PASS|FAIL) {1,2}\S+[^\n]*$/m;
/** Jest's closing summary: the `Tests:` count line and the `Snapshots:`, `Time:` and `Ran all test suites` lines under it. */
const JEST_END = /^Tests: +[^\n]*\b\d+ total[ \t]*(?:\n(?:Snapshots:|Time:|Ran all test suites)[^\n]*)*/gm;

/** Spans of pytest, unittest and jest runs pasted in `text`, each from where the run starts to its closing count line. */
export function pastedTestRunSpans(text: string): BulkSpan[] {
  const spans = [...pytestSpans(text), ...unittestSpans(text), ...jestSpans(text)].sort((a, b) => a.start - b.start);
  return spans.filter((span, index) => index === 0 || span.start >= spans[index - 1]!.end);
}

function unittestSpans(text: string): BulkSpan[] {
  const spans: BulkSpan[] = [];
  let from = 0;
  for (const end of text.matchAll(UNITTEST_END)) {
    const stop = (end.index ?? 0) + end[0].length;
    const before = text.slice(from, end.index ?? 0);
    const start = UNITTEST_START.exec(before) ?? UNITTEST_QUIET_START.exec(before);
    if (start !== null) {
      const withChatter = chatterAfter(text, stop);
      spans.push({ start: chatterBefore(text, from + (start.index ?? 0), from), end: withChatter });
      from = withChatter;
    } else from = stop;
  }
  return spans;
}

/** Where the runner's chatter lines right above `start` begin (Django's `Creating test database…`), not before `floor`. */
function chatterBefore(text: string, start: number, floor: number): number {
  let at = start;
  while (at > floor && text.charCodeAt(at - 1) === 10) {
    const lineStart = Math.max(floor, text.lastIndexOf('\n', at - 2) + 1);
    if (!isRunnerChatter(text.slice(lineStart, at - 1))) break;
    at = lineStart;
  }
  return at;
}

/** Where the runner's chatter lines right below `end` stop (Django's `Destroying test database…`). */
function chatterAfter(text: string, end: number): number {
  let at = end;
  while (text.charCodeAt(at) === 10) {
    const next = text.indexOf('\n', at + 1);
    const lineEnd = next === -1 ? text.length : next;
    if (!isRunnerChatter(text.slice(at + 1, lineEnd))) break;
    at = lineEnd;
  }
  return at;
}

function pytestSpans(text: string): BulkSpan[] {
  const spans: BulkSpan[] = [];
  let from = 0;
  for (const start of text.matchAll(SESSION_START)) {
    const index = start.index ?? 0;
    if (index < from) continue;
    const rest = text.slice(index);
    const end = SESSION_END.exec(rest);
    if (end === null) continue;
    const stop = index + (end.index ?? 0) + end[0].length;
    spans.push({ start: index, end: stop });
    from = stop;
  }
  return spans;
}

function jestSpans(text: string): BulkSpan[] {
  // Most texts hold no jest summary: a plain search says so faster than the expression.
  if (!text.includes('Tests: ')) return [];
  const spans: BulkSpan[] = [];
  let from = 0;
  for (const end of text.matchAll(JEST_END)) {
    const stop = (end.index ?? 0) + end[0].length;
    const start = JEST_SUITE.exec(text.slice(from, end.index ?? 0));
    if (start !== null) spans.push({ start: from + (start.index ?? 0), end: stop });
    from = stop;
  }
  return spans;
}
