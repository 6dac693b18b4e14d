/**
 * Test-run output. A structured report (JUnit XML, mocha/jest/rspec JSON, go test and dart
 * JSON lines) becomes a digest of its failures and counts. Console output (pytest, jest,
 * vitest, mocha, go test, cargo test, TAP, unittest, rspec…) keeps every line except
 * passing tests, progress bars and runner chatter, so each failure's message, location
 * and the summary line stay exactly as printed.
 */
import { lastCarriageSegment, splitLines, stripAnsi, trailingNewline } from './limits';
import { parseTestReport, renderTestReport } from './testReports';
import { cleanResult, unchanged, type CleanResult } from './types';

/** Lines that report one passing (or merely started) test, per runner. */
const PASSING_LINE: readonly RegExp[] = [
  /^\s*(?:✓|✔|√|✅)\s/, // jest, vitest, mocha, node --test
  /^\s*PASS\s+\S/, // jest file header of a passing file
  /^\s*--- PASS: /, // go test
  /^\s*=== (?:RUN|PAUSE|CONT|NAME)\s/, // go test
  /^\s*ok \d+(?:\s+-)?(?!.*#\s*(?:TODO|SKIP))/i, // TAP
  /^\s*test \S.* \.\.\. ok$/, // cargo test
  /^\s*\S.*\s\.\.\.\s+ok$/, // python unittest -v
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
export function cleanTestOutput(text: string): CleanResult {
  const report = parseTestReport(text);
  if (report !== undefined && report.results.length > 0) {
    const digest = renderTestReport(report);
    const passed = report.results.filter((result) => result.status === 'passed').length;
    return cleanResult(text, digest, 'test-output', [`${report.kind} report reduced to its failures and counts (${passed} passing tests dropped)`]);
  }
  return cleanConsoleTestOutput(text);
}

function cleanConsoleTestOutput(text: string): CleanResult {
  const lines = splitLines(stripAnsi(text)).map(lastCarriageSegment);
  const output: string[] = [];
  let passing = 0;
  let progress = 0;
  let tapBlock = false;
  let blank = 0;
  for (const line of lines) {
    // A passing TAP test's YAML block (between "---" and "...") goes with it.
    if (tapBlock) {
      if (/^\s*\.\.\.\s*$/.test(line)) tapBlock = false;
      continue;
    }
    if (line.trim() === '') {
      if (output.length > 0 && output[output.length - 1] === '') blank++;
      else output.push('');
      continue;
    }
    if (PASSING_LINE.some((pattern) => pattern.test(line))) {
      passing++;
      continue;
    }
    if (!isRule(line) && PROGRESS_LINE.some((pattern) => pattern.test(line))) {
      progress++;
      continue;
    }
    if (/^\s+---\s*$/.test(line) && output.length > 0 && /^\s*ok \d+/i.test(lines[lines.indexOf(line) - 1] ?? '')) {
      tapBlock = true;
      continue;
    }
    output.push(line);
  }
  while (output.length > 0 && output[output.length - 1] === '') output.pop();
  while (output.length > 0 && output[0] === '') output.shift();
  if (passing === 0 && progress === 0 && blank === 0 && text === stripAnsi(text)) return unchanged(text, 'test-output');
  const removed: string[] = [];
  if (passing > 0) removed.push(`${passing} passing-test lines`);
  if (progress > 0) removed.push(`${progress} progress lines`);
  if (blank > 0) removed.push(`${blank} blank lines`);
  return cleanResult(text, output.join('\n') + trailingNewline(text), 'test-output', removed);
}
