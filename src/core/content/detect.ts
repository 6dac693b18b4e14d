/**
 * Format detection: the command or path hint first (the command that printed the text is
 * the best evidence), then the content's shape. Looks at a bounded sample only.
 */
import { bookkeepingKey } from './bookkeeping';
import { isFrameLine } from './stackTrace';
import { looksLikeTestReport } from './testReports';
import type { ContentFormat, ContentHint } from './types';

/** Characters of the content examined for its shape. */
const SAMPLE_CHARS = 64_000;
/** Lines of the sample examined line by line. */
const SAMPLE_LINES = 400;

const TEST_COMMAND = /(?:^|[\s/])(?:pytest|py\.test|jest|vitest|mocha|ava|tap|karma|jasmine|phpunit|rspec|ctest|nextest|tox|nox)(?:\s|$)|\bgo test\b|\bcargo (?:test|nextest)\b|\b(?:npm|yarn|pnpm|bun)(?: run)? test\b|\bpython\d?(?:\.\d+)? -m (?:pytest|unittest)\b|\bmanage\.py test\b|\bnode --test\b|\b(?:deno|bun) test\b|\bdotnet test\b|\b(?:mvn|gradle|gradlew|\.\/gradlew)\b.*\btest\b|\bmake (?:test|check)\b|\bruntests\.py\b|\btests?\/runtests\b/;
const GREP_COMMAND = /(?:^|[\s|;&(])(?:grep|egrep|fgrep|rg|ag|ack|git grep)\s/;
const DIFF_COMMAND = /\bgit (?:diff|show|log -p|format-patch)\b|(?:^|[\s|;&])diff\s/;
const LISTING_COMMAND = /^(?:ls|find|tree|fd|git ls-files|du)\b/;
const LOG_COMMAND = /\b(?:journalctl|dmesg|docker(?: compose)? logs|kubectl logs|tail -[fn]|logcat)\b/;

/** The command's segments, without `cd … &&` prefixes and the pagers after a pipe. */
function mainSegments(command: string): string[] {
  return command.split(/&&|\|\||;|\|/).map((segment) => segment.trim()).filter((segment) => segment !== '' && !/^(?:cd|export|source|set|echo|head|tail(?! -f)|sort|uniq|wc|cat|less|more|tee|cut|tr|xargs\s*$)\b/.test(segment));
}

function fromCommand(command: string): ContentFormat | undefined {
  const text = command.slice(0, 2_000);
  // The output has the shape of the command that produced it: in `ls -R | grep .py` that is ls.
  const producer = mainSegments(text)[0];
  if (producer === undefined) return TEST_COMMAND.test(text) ? 'test-output' : undefined;
  if (TEST_COMMAND.test(producer)) return 'test-output';
  if (GREP_COMMAND.test(` ${producer}`)) return 'grep';
  if (DIFF_COMMAND.test(producer)) return 'diff';
  if (LOG_COMMAND.test(producer)) return 'log';
  if (LISTING_COMMAND.test(producer)) return 'file-listing';
  if (TEST_COMMAND.test(text)) return 'test-output';
  return undefined;
}

function fromPath(path: string, sample: string): ContentFormat | undefined {
  const lower = path.toLowerCase();
  if (/\.(?:html?|xhtml)$/.test(lower)) return 'html';
  if (/\.(?:diff|patch)$/.test(lower)) return 'diff';
  if (/\.log$|\.log\.\d+$/.test(lower)) return 'log';
  if (/\.(?:xml|trx|json|jsonl)$/.test(lower) && looksLikeTestReport(sample)) return 'test-output';
  if (/\.json$/.test(lower)) return 'json';
  return undefined;
}

/** Detects the format from the command/path hint first, then the content's shape. */
export function detectContentFormat(text: string, hint: ContentHint = {}): ContentFormat {
  const sample = text.length > SAMPLE_CHARS ? text.slice(0, SAMPLE_CHARS) : text;
  const byCommand = hint.command !== undefined ? fromCommand(hint.command) : undefined;
  if (byCommand !== undefined) return byCommand;
  const byPath = hint.path !== undefined ? fromPath(hint.path, sample) : undefined;
  if (byPath !== undefined) return byPath;
  return fromShape(text, sample);
}

function fromShape(text: string, sample: string): ContentFormat {
  const trimmed = sample.trimStart();
  if (trimmed === '') return 'text';
  if (looksLikeTestReport(sample)) return 'test-output';
  // A page, or a big fragment; a script printing a small <select> is data the agent is debugging.
  if ((text.length >= 2_000 && /^(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(trimmed)) || (text.length >= 4_000 && /^<[a-z]/i.test(trimmed) && (sample.match(/<\/(?:div|p|span|a|li|td|section)>/gi) ?? []).length >= 20)) return 'html';
  if (/^[[{]/.test(trimmed) && isJson(text)) return 'json';
  const lines = sample.split('\n').slice(0, SAMPLE_LINES);
  const nonBlank = lines.filter((line) => line.trim() !== '');
  if (nonBlank.length === 0) return 'text';
  if (/^diff --git |^Index: |^--- \S.*\n\+\+\+ \S.*\n@@ /m.test(sample) && /^@@ -\d+/m.test(sample)) return 'diff';
  if (looksLikeTestConsole(sample)) return 'test-output';
  const frames = nonBlank.filter(isFrameLine).length;
  if (/^Traceback \(most recent call last\):|^goroutine \d+ \[|^thread '.*' panicked at|^Exception in thread |^\s+at \S[^\n]{0,300}:\d+(?::\d+)?\)$/m.test(sample) && frames >= 2) return 'stack-trace';
  if (frames >= 3 && frames >= nonBlank.length * 0.4) return 'stack-trace';
  const share = (predicate: (line: string) => boolean): number => nonBlank.filter(predicate).length / nonBlank.length;
  // A hit starts with a path (no spaces, a dot or a slash in it), so "18:01:47" is no hit.
  if (nonBlank.length >= 2 && share((line) => /^[^\s:]{0,300}[./][^\s:]{0,300}:\d{1,9}[:-]/.test(line) || line === '--') >= 0.6) return 'grep';
  if (nonBlank.length >= 5 && share((line) => /[├└]── |^[|`]-- |^\s*│/.test(line)) >= 0.5) return 'file-listing';
  if (nonBlank.length >= 5 && share((line) => /^[-dl][-rwxsStT]{9}[@+.]?\s+\d+\s/.test(line) || /^total \d+$/.test(line)) >= 0.7) return 'file-listing';
  if (nonBlank.length >= 5 && share((line) => /^(?:\.{0,2}\/)?[\w.@+-]+(?:\/[\w.@+-]+)+\/?$|^[\w./-]+:$/.test(line)) >= 0.8) return 'file-listing';
  if (nonBlank.length >= 5 && share(looksLikeLogLine) >= 0.6) return 'log';
  // Structured logging: one JSON object per line with a level, message or time field.
  if (nonBlank.length >= 5 && share((line) => /^\{.*\}$/.test(line.trim()) && /"(?:level|lvl|severity|msg|message|time|ts|timestamp|@timestamp)"\s*:/.test(line)) >= 0.8) return 'log';
  if (nonBlank.length >= 10 && share((line) => /\d/.test(line)) >= 0.5 && repetitionShare(nonBlank) >= 0.5) return 'log';
  return 'text';
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

function looksLikeTestConsole(sample: string): boolean {
  return (
    /^=+ (?:test session starts|FAILURES|ERRORS|short test summary info)\b.*=+$/m.test(sample) ||
    /^=+ .*\b\d+ (?:passed|failed|error|errors)\b.*=+$/m.test(sample) ||
    /^Tests?:\s+(?:\d+ (?:failed|passed|skipped|todo|total),?\s*)+/m.test(sample) ||
    /^ ?(?:Test Files|Tests)\s+\d+ (?:failed|passed)/m.test(sample) ||
    /^test result: (?:ok|FAILED)\. \d+ passed/m.test(sample) ||
    /^(?:---|===) (?:FAIL|PASS|RUN):? \S/m.test(sample) && /^(?:ok|FAIL)\s+\S+\s+[\d.]+s$|^(?:PASS|FAIL)$/m.test(sample) ||
    /^\s*\d+ passing \(\d+/m.test(sample) ||
    /^(?:not )?ok \d+ /m.test(sample) && /^1\.\.\d+$/m.test(sample) ||
    /^Ran \d+ tests? in [\d.]+s$/m.test(sample) && /^(?:OK|FAILED)\b/m.test(sample) ||
    /^(?:PASS|FAIL) {1,2}\S+\.(?:test|spec)\.[jt]sx?\b/m.test(sample)
  );
}

const LOG_LINE_START: readonly RegExp[] = [
  /^\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}/, // 2015-10-18 18:01:47
  /^\[?\d{1,2}[-/.]\d{1,2}[ T]\d{2}:\d{2}:\d{2}/, // 03-17 16:13:38, [10.30 16:49:06]
  /^\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* +(?:\w+ +)?\d{1,2} \d{2}:\d{2}/, // syslog, Apache
  /^\d{8}-\d{1,2}:\d{2}:\d{2}/, // 20171223-22:15:29
  /^\d{5,}\s.*\b1\d{9}\b/, // HPC: id … epoch
  /^\[?\d{2}:\d{2}:\d{2}/, // 18:01:47 …
  /^\s*(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b[\s:[]/, // level first
  /^\[(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\]/i,
  /^\d{10}(?:\.\d+)?\s/, // epoch seconds
  /^\S+ \S+ \S+ \[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "/, // web server access log (common and combined formats)
];

function looksLikeLogLine(line: string): boolean {
  return line.length <= 4_000 && (LOG_LINE_START.some((pattern) => pattern.test(line)) || /^\s+at |^\s+\.\.\. \d+ more|^Caused by/.test(line));
}

function repetitionShare(lines: readonly string[]): number {
  const keys = new Set(lines.map(bookkeepingKey));
  return 1 - keys.size / lines.length;
}
