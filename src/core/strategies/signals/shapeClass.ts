/**
 * The shape of a tool output, from its head only: enough to count what kinds of content flow
 * through (and size the next strategy), never enough to record any of it.
 */
import { shareSettles } from '../../content/lineShare';

export const SHAPE_CLASSES = [
  'empty', 'json_array', 'json_object', 'unified_diff', 'search_grep', 'build_test_log', 'stack_trace',
  'html_xml', 'csv_table', 'file_listing', 'log_lines', 'source_code', 'prose', 'other',
] as const;

export type ShapeClass = (typeof SHAPE_CLASSES)[number];

const TEST_LOG = /\b(?:PASS(?:ED)?|FAIL(?:ED|URE)?|ERROR|passed|failed|tests? (?:run|ran)|Tests?:|test session starts|collected \d+ items?|BUILD (?:SUCCESS|FAILED)|npm ERR!|error TS\d+|warning:|Compiling|\d+ (?:passing|failing))\b/;
/** One of these anywhere in the head settles it: a test runner or a build tool wrote this. */
const TEST_MARKER = /test session starts|collected \d+ items?|^Ran \d+ tests? in|^(?:FAILED|PASSED|ERROR) \S+::|\[\s*\d+%\]\s*$|BUILD (?:SUCCESS|FAILED)|npm ERR!|^Tests?:\s+\d+|\d+ (?:passing|failing)\b|error TS\d+|^=+ .*(?:passed|failed).* =+$/m;
const STACK_LINE = /^\s*(?:at [\w$.<>]+ ?\(?.*:\d+|File ".*", line \d+|Traceback \(most recent call last\)|\w+(?:Error|Exception)\b.*:)/;
/** `path:line:` (grep -rn) or `line:` (grep -n on one file). */
const GREP_LINE = /^(?:[^\s:][^:\n]*:\d+[:-]|\d+:)/;
/** A clock time or a level word near the start of the line: syslog, Apache, Android, HDFS, log4j. */
const LOG_LINE = /^(?:.{0,40}?\b\d{1,2}:\d{2}:\d{2}\b|.{0,60}?\b1\d{9}\b|\s*\d{6} \d{6} |.{0,60}?\b(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE|FATAL|NOTICE)\b)/;
const PATH_LINE = /^(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/?:?$/;
const CODE_LINE = /^\s*(?:import |from \S+ import |export |def |class |function |const |let |var |public |private |#include|package |fn |func |return\b|if \(|for \(|}\s*$|\/\/|#!|@\w|\*|#|\"\"\")/;

/** A line that reads as code: a keyword opening, an indented statement, or code punctuation at its end. */
function codeLike(line: string): boolean {
  return CODE_LINE.test(line) || /[:;{}(,[]\s*$/.test(line) || (/^\s{2,}\S/.test(line) && /[=()[\]{}.]/.test(line)) || /^\s*[\w.[\]]+\s*[-+*/]?=\s*\S/.test(line) || /^\s*-{3,}\s*$/.test(line);
}

/** Classifies a tool output by its first `headChars` characters. */
export function classifyShape(text: string, headChars = 2000): ShapeClass {
  // Colour codes say nothing about shape.
  const head = text.slice(0, headChars).replace(/\x1b\[[0-9;]*m/g, '');
  const trimmed = head.trim();
  if (trimmed.length === 0) return 'empty';
  if (trimmed.startsWith('[') && looksJson(text, trimmed)) return 'json_array';
  if (trimmed.startsWith('{') && looksJson(text, trimmed)) return 'json_object';
  const lines = trimmed.split('\n', 60);
  // More than `above` of the head's lines, read only until that is settled.
  const share = (pattern: RegExp, above: number): boolean => shareSettles(lines, (line) => pattern.test(line), (count) => count / lines.length > above);
  if (/^(?:diff --git |--- \S|\+\+\+ \S|@@ -\d)/m.test(trimmed) && /^@@ -\d+(?:,\d+)? \+\d+/m.test(trimmed)) return 'unified_diff';
  if (/^\s*<(?:!doctype|html|\?xml|[a-z][\w:-]*[\s>])/i.test(trimmed) && share(/<\/?[a-z][\w:-]*[^>]*>/i, 0.3)) return 'html_xml';
  if (share(STACK_LINE, 0.2) || /Traceback \(most recent call last\)/.test(trimmed)) return 'stack_trace';
  if (TEST_MARKER.test(trimmed)) return 'build_test_log';
  if (share(LOG_LINE, 0.6)) return 'log_lines';
  if (TEST_LOG.test(trimmed) && share(TEST_LOG, 0.05)) return 'build_test_log';
  if (share(GREP_LINE, 0.6)) return 'search_grep';
  if (lines.length >= 3 && isTable(lines)) return 'csv_table';
  if (lines.length >= 3 && share(PATH_LINE, 0.8)) return 'file_listing';
  const nonBlank = lines.filter((line) => line.trim().length > 0);
  if (nonBlank.filter(codeLike).length / nonBlank.length > 0.5) return 'source_code';
  if (asciiLetters(trimmed) / trimmed.length > 0.6 && / [a-z]+ [a-z]+ /.test(trimmed)) return 'prose';
  return 'other';
}

/** How many characters of `text` are ASCII letters (what `/[A-Za-z]/g` would match, counted without an array of matches). */
function asciiLetters(text: string): number {
  let letters = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index) | 32;
    if (code >= 97 && code <= 122) letters++;
  }
  return letters;
}

function looksJson(full: string, head: string): boolean {
  if (full.length <= 200_000) {
    try {
      JSON.parse(full);
      return true;
    } catch {
      // Fall through to the head check: a truncated dump is still JSON-shaped.
    }
  }
  // A bare number must be followed by a separator: "[10.30 16:49:06]" opens a log line, not an array.
  return /^[[{]\s*(?:"|\{|\[|-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?\s*[,\]]|true\b|false\b|null\b|\]|\})/.test(head);
}

/** The first 20 lines hold the same number of one separator, at least two a line. */
function isTable(lines: readonly string[]): boolean {
  const rows = Math.min(lines.length, 20);
  for (const separator of TABLE_SEPARATORS) {
    const first = occurrences(lines[0]!, separator);
    if (first < 2) continue;
    let same = true;
    for (let index = 1; index < rows && same; index++) same = occurrences(lines[index]!, separator) === first;
    if (same) return true;
  }
  return false;
}

const TABLE_SEPARATORS = [',', '\t', '|'] as const;

/** How many times `separator` (one character) occurs in `line`, counted without splitting it. */
function occurrences(line: string, separator: string): number {
  let count = 0;
  for (let at = line.indexOf(separator); at !== -1; at = line.indexOf(separator, at + 1)) count++;
  return count;
}
