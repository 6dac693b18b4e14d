/**
 * The shape of a tool output, from its head only: enough to count what kinds of content flow
 * through (and size the next strategy), never enough to record any of it.
 */

export const SHAPE_CLASSES = [
  'empty', 'json_array', 'json_object', 'unified_diff', 'search_grep', 'build_test_log', 'stack_trace',
  'html_xml', 'csv_table', 'file_listing', 'log_lines', 'source_code', 'prose', 'other',
] as const;

export type ShapeClass = (typeof SHAPE_CLASSES)[number];

const TEST_LOG = /\b(?:PASS(?:ED)?|FAIL(?:ED|URE)?|ERROR|passed|failed|tests? (?:run|ran)|Tests?:|test session starts|collected \d+ items?|BUILD (?:SUCCESS|FAILED)|npm ERR!|error TS\d+|warning:|Compiling|\d+ (?:passing|failing))\b/;
const STACK_LINE = /^\s*(?:at [\w$.<>]+ ?\(?.*:\d+|File ".*", line \d+|Traceback \(most recent call last\)|\w+(?:Error|Exception)\b.*:)/;
const GREP_LINE = /^[^\s:][^:\n]*:\d+:/;
const LOG_LINE = /^\s*(?:\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}|\d{2}:\d{2}:\d{2}|\[?(?:INFO|WARN(?:ING)?|ERROR|DEBUG|TRACE)\]?\s)/;
const PATH_LINE = /^(?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\/?$/;
const CODE_LINE = /^\s*(?:import |from \S+ import |export |def |class |function |const |let |var |public |private |#include|package |fn |func |return\b|if \(|for \(|}\s*$|\/\/|#!)/;

/** Classifies a tool output by its first `headChars` characters. */
export function classifyShape(text: string, headChars = 2000): ShapeClass {
  const head = text.slice(0, headChars);
  const trimmed = head.trim();
  if (trimmed.length === 0) return 'empty';
  if (trimmed.startsWith('[') && looksJson(text, trimmed)) return 'json_array';
  if (trimmed.startsWith('{') && looksJson(text, trimmed)) return 'json_object';
  const lines = trimmed.split('\n').slice(0, 60);
  const share = (pattern: RegExp): number => lines.filter((line) => pattern.test(line)).length / lines.length;
  if (/^(?:diff --git |--- \S|\+\+\+ \S|@@ -\d)/m.test(trimmed) && /^@@ -\d+(?:,\d+)? \+\d+/m.test(trimmed)) return 'unified_diff';
  if (/^\s*<(?:!doctype|html|\?xml|[a-z][\w:-]*[\s>])/i.test(trimmed) && share(/<\/?[a-z][\w:-]*[^>]*>/i) > 0.3) return 'html_xml';
  if (share(STACK_LINE) > 0.2 || /Traceback \(most recent call last\)/.test(trimmed)) return 'stack_trace';
  if (TEST_LOG.test(trimmed) && share(TEST_LOG) > 0.05) return 'build_test_log';
  if (share(GREP_LINE) > 0.6) return 'search_grep';
  if (share(LOG_LINE) > 0.5) return 'log_lines';
  if (lines.length >= 3 && isTable(lines)) return 'csv_table';
  if (lines.length >= 3 && share(PATH_LINE) > 0.8) return 'file_listing';
  if (share(CODE_LINE) > 0.15 || share(/[;{}]\s*$/) > 0.3) return 'source_code';
  const letters = (trimmed.match(/[A-Za-z]/g) ?? []).length;
  if (letters / trimmed.length > 0.6 && / [a-z]+ [a-z]+ /.test(trimmed)) return 'prose';
  return 'other';
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
  return /^[[{]\s*(?:"|\{|\[|\d|-|true|false|null|\]|\})/.test(head);
}

function isTable(lines: readonly string[]): boolean {
  for (const separator of [',', '\t', '|']) {
    const counts = lines.slice(0, 20).map((line) => line.split(separator).length - 1);
    if (counts[0]! >= 2 && counts.every((count) => count === counts[0])) return true;
  }
  return false;
}
