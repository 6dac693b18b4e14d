/**
 * Test-run output. A structured report (JUnit XML, mocha/jest/rspec JSON, go test and dart
 * JSON lines) becomes a digest of its failures and counts. Console output (pytest, jest,
 * vitest, mocha, go test, cargo test, TAP, unittest, rspec…) keeps every line except
 * passing tests, progress bars and runner chatter, so each failure's message, location
 * and the summary line stay exactly as printed; a failure that goes through an earlier one's
 * frames folds to its header, one line and any error line of its own (repeatedFailures.ts), and
 * tracebacks lose their runs of library frames.
 */
import { lastCarriageSegment, MAX_PATTERN_LINE_CHARS, splitLines, stripAnsi, trailingNewline } from './limits';
import { mentionsAny, questionWords } from './question';
import { parseTestReport, renderTestReport } from './testReports';
import { cleanResult, unchanged, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';
import { foldRepeatedFailures } from './repeatedFailures';
import { cleanStackTrace } from './stackTrace';

/** Lines that report one passing (or merely started) test, per runner. */
const PASSING_LINE: readonly RegExp[] = [
  /^\s*(?:✓|✔|√|✅)\s/, // jest, vitest, mocha, node --test
  /^\s*PASS\s+\S/, // jest file header of a passing file
  /^\s*--- PASS: /, // go test
  /^\s*=== (?:RUN|PAUSE|CONT|NAME)\s/, // go test
  /^\s*ok \d+(?:\s+-)?(?!.*#\s*(?:TODO|SKIP))/i, // TAP
  /^\s*test \S.* \.\.\. ok$/, // cargo test
  /^\s*\S.*\s\.\.\.\s+(?:ok|skipped\b.*|expected failure)$/, // python unittest -v (skips are counted in its summary)
  /\s(?:PASSED)(?:\s+\[\s*\d+%\])?$/, // pytest -v
  /^\s*\[\s*(?:OK|PASSED|RUN)\s*\]\s/, // googletest
  /^\s*# Subtest: /, // node --test
];

/** Progress: pytest dot rows, percentage bars, spinners, download meters. */
const PROGRESS_LINE: readonly RegExp[] = [
  /^[\w./\\:-]+\s+[.sxXfFE]+\s*\[\s*\d+%\]$/, // pytest: tests/test_a.py ..F.. [ 22%]
  /^[.sxXfFE]{3,}\s*(?:\[\s*\d+%\])?$/, // pytest -q dots, unittest dots
  /^\s*\d+%\s*\|[█▉▊▋▌▍▎▏ #=>-]*\|/, // tqdm
  /^\s*\[[=#>. -]{5,}\]\s*\d+(?:\.\d+)?%/, // [=====>   ] 45%
  /^\s*[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏|/\\-]\s+(?:Running|Compiling|Building|Loading)\b/, // spinners
  /^\s*(?:Compiling|Downloading|Downloaded|Fresh|Checking|Blocking)\s+\S+\s+v\d/, // cargo build chatter
  /^\s*running \d+ tests?$/, // cargo, before its results
];

/** Whether a line is a pytest section rule such as `==== FAILURES ====`. */
function isRule(line: string): boolean {
  return /^[=_-]{6,}(?:\s.*\s[=_-]{6,})?$/.test(line.trim());
}

/** Cleans test output: a report becomes a digest, console output loses passes and progress. */
export function cleanTestOutput(text: string, options: { question?: string } = {}): CleanResult {
  const report = parseTestReport(text);
  if (report !== undefined && report.results.length > 0) {
    const digest = renderTestReport(report);
    const passed = report.results.filter((result) => result.status === 'passed').length;
    return cleanResult(text, digest, 'test-output', [`${report.kind} report reduced to its failures and counts (${passed} passing tests dropped)`]);
  }
  return cleanConsoleTestOutput(text, questionWords(options.question));
}

/** Runner chatter around the tests: database setup, collection banners. */
const CHATTER_LINE = /^(?:Creating|Destroying|Cloning) test database for alias |^System check identified no issues|^Using existing test database|^Testing against Django installed in |^Found \d+ test\(s\)\.$|^Importing application /;

/** Whether a line is a test runner's chatter (Django's database setup and teardown, its banners). */
export function isRunnerChatter(line: string): boolean {
  return CHATTER_LINE.test(line);
}

/**
 * pytest's header between "test session starts" and "collected N items" (platform,
 * plugins, package versions) goes; the collected line stays.
 */
function dropPytestHeader(lines: readonly string[]): { lines: string[]; dropped: number } {
  const output: string[] = [];
  let inHeader = false;
  let dropped = 0;
  for (const line of lines) {
    checkDeadline();
    if (/^=+ test session starts =+$/.test(line.trim())) {
      inHeader = true;
      output.push(line);
      continue;
    }
    if (inHeader) {
      if (/^(?:collected|collecting) .*\d+ items?/.test(line) || isRule(line) || /\[\s*\d+%\]$/.test(line)) inHeader = false;
      else if (!/error|warning/i.test(line)) {
        dropped++;
        continue;
      }
    }
    output.push(line);
  }
  return { lines: output, dropped };
}

/**
 * Inside pytest's FAILURES and ERRORS sections, each failure keeps its title, the `>` line
 * that failed (and its continuation), every `E` line, every `file:line` location with the
 * one source line under it, and captured output headers; the rest of each frame's source
 * and the dumped locals go.
 */
function compactPytestFailures(lines: readonly string[]): { lines: string[]; dropped: number } {
  const output: string[] = [];
  let section: 'none' | 'failures' | 'captured' = startsInsideFailures(lines) ? 'failures' : 'none';
  let dropped = 0;
  let keepNext = 0;
  let capturedKept = 0;
  for (const line of lines) {
    checkDeadline();
    const trimmed = line.trim();
    if (/^=+ (?:FAILURES|ERRORS) =+$/.test(trimmed)) {
      section = 'failures';
      output.push(line);
      continue;
    }
    if (/^=+ .* =+$/.test(trimmed)) {
      section = 'none';
      output.push(line);
      continue;
    }
    if (section === 'none') {
      output.push(line);
      continue;
    }
    if (/^-+ Captured .* -+$/.test(trimmed)) {
      section = 'captured';
      capturedKept = 0;
      output.push(line);
      continue;
    }
    if (/^_{3,} .* _{3,}$/.test(trimmed)) {
      section = 'failures';
      output.push(line);
      keepNext = 0;
      continue;
    }
    if (section === 'captured') {
      // Captured output is the test's own prints: keep a screenful.
      if (capturedKept < 30) {
        output.push(line);
        capturedKept++;
      } else dropped++;
      continue;
    }
    if (line.startsWith('>')) {
      output.push(line);
      keepNext = 3;
      continue;
    }
    if (/^E\s/.test(line) || line === 'E') {
      output.push(line);
      keepNext = 0;
      continue;
    }
    if (/^[^\s:][^:]{0,300}:\d+: /.test(line) || /^[^\s:][^:]{0,300}:\d+:$/.test(line)) {
      output.push(line);
      keepNext = /: in \S+$/.test(line) ? 1 : 0;
      continue;
    }
    if (/^(?:_ ){5,}_?$/.test(trimmed) || /^During handling of the above exception|^The above exception was the direct cause/.test(trimmed)) {
      output.push(line);
      keepNext = 0;
      continue;
    }
    if (keepNext > 0 && line.startsWith(' ') && trimmed !== '') {
      output.push(line);
      keepNext--;
      continue;
    }
    keepNext = 0;
    if (trimmed === '') {
      output.push('');
      continue;
    }
    dropped++;
  }
  return { lines: output, dropped };
}

/** A location line of a pytest traceback: `path:line: ErrorName` or `path:line: in function`. */
const PYTEST_LOCATION = /^[^\s:][^:]{0,300}:\d+: \S/;

/**
 * True when the text starts inside pytest's FAILURES section: the tail of an output an agent
 * cut in two (mini-swe-agent's `<output_tail>`) begins mid-traceback, so no section rule
 * announces it. Before the first `=== … ===` rule it shows an `E` line and a location line.
 */
function startsInsideFailures(lines: readonly string[]): boolean {
  let errorLine = false;
  let location = false;
  for (const line of lines) {
    checkDeadline();
    if (/^=+ .* =+$/.test(line.trim())) break;
    if (/^E\s/.test(line)) errorLine = true;
    else if (PYTEST_LOCATION.test(line)) location = true;
    if (errorLine && location) return true;
  }
  return false;
}

function cleanConsoleTestOutput(text: string, words: readonly string[]): CleanResult {
  const header = dropPytestHeader(splitLines(stripAnsi(text)).map(lastCarriageSegment));
  const compacted = compactPytestFailures(header.lines);
  const repeated = foldRepeatedFailures(compacted.lines);
  // Tracebacks printed under failures lose their runs of library frames, as a stack trace does.
  const traced = cleanStackTrace(repeated.lines.join('\n'));
  const lines = traced.changed ? splitLines(traced.text) : repeated.lines;
  const output: string[] = [];
  let passing = 0;
  let progress = 0;
  let tapBlock = false;
  let blank = 0;
  let previousLine = '';
  for (const line of lines) {
    checkDeadline();
    const before = previousLine;
    previousLine = line;
    // A passing TAP test's YAML block (between "---" and "...") goes with it.
    if (tapBlock) {
      if (/^\s*\.\.\.\s*$/.test(line)) tapBlock = false;
      continue;
    }
    // A very long line is data a test printed, never a pass or a progress bar: keep it
    // without running patterns over it.
    if (line.length > MAX_PATTERN_LINE_CHARS) {
      output.push(line);
      continue;
    }
    if (line.trim() === '') {
      if (output.length > 0 && output[output.length - 1] === '') blank++;
      else output.push('');
      continue;
    }
    if ((PASSING_LINE.some((pattern) => pattern.test(line)) || CHATTER_LINE.test(line)) && !mentionsAny(line, words)) {
      passing++;
      continue;
    }
    if (!isRule(line) && PROGRESS_LINE.some((pattern) => pattern.test(line))) {
      progress++;
      continue;
    }
    if (/^\s+---\s*$/.test(line) && /^\s*ok \d+/i.test(before)) {
      tapBlock = true;
      continue;
    }
    output.push(line);
  }
  while (output.length > 0 && output[output.length - 1] === '') output.pop();
  while (output.length > 0 && output[0] === '') output.shift();
  if (passing === 0 && progress === 0 && blank === 0 && header.dropped === 0 && compacted.dropped === 0 && repeated.folded === 0 && !traced.changed && text === stripAnsi(text)) return unchanged(text, 'test-output');
  const removed: string[] = [];
  if (header.dropped > 0) removed.push(`${header.dropped} lines of session header`);
  if (compacted.dropped > 0) removed.push(`${compacted.dropped} lines of traceback source and locals`);
  if (repeated.folded > 0) removed.push(`${repeated.folded} failures that repeat an earlier one's frames (${repeated.dropped} lines)`);
  if (traced.changed) removed.push(...traced.removed.map((line) => `traceback: ${line}`));
  if (passing > 0) removed.push(`${passing} passing-test and runner chatter lines`);
  if (progress > 0) removed.push(`${progress} progress lines`);
  if (blank > 0) removed.push(`${blank} blank lines`);
  return cleanResult(text, output.join('\n') + trailingNewline(text), 'test-output', removed);
}
