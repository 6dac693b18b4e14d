/**
 * What one line of pasted bulk is, whatever else the paste holds: a log line of any common format
 * (timestamped and syslog lines, Apache/Nginx access lines, logfmt, JSON lines), a Prometheus
 * sample or its `# HELP`/`# TYPE` header, a trace span (a JSON line with a trace or span id and a
 * duration), a grep/ripgrep hit or context line, a stack frame or an exception line, a test
 * runner's verdict line. A paste is recognised line by line, so one paste may hold several formats
 * in any order. Pure and linear: every pattern is anchored and bounded.
 */

export type DataLineKind = 'log' | 'metric' | 'metric-header' | 'span' | 'record' | 'hit' | 'frame' | 'test';

/** Longer lines are not classified (a minified blob is no line of a log). */
const MAX_LINE = 4_000;

const TIMESTAMPED: readonly RegExp[] = [
  /^\[?\d{4}[-/]\d{2}[-/]\d{2}[T ]\d{2}:\d{2}/, // 2015-10-18 18:01:47, 2015-10-18T18:01:47Z
  /^\[?\d{1,2}[-/.]\d{1,2}[ T]\d{2}:\d{2}:\d{2}/, // 03-17 16:13:38, [10.30 16:49:06]
  /^\[?(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\w* +(?:\w+ +)?\d{1,2} \d{2}:\d{2}/, // syslog, Apache error log
  /^\d{8}-\d{1,2}:\d{1,2}:\d{1,2}/, // 20171223-22:15:29, 20171223-22:16:0
  /^\[?\d{2}:\d{2}:\d{2}/, // 18:01:47 …
  /^\s*\[?(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL|SEVERE)\]?[\s:[]/, // level first
  /^\d{10}(?:\.\d+)?\s/, // epoch seconds
  /^(?:-|[A-Z][A-Z_]{2,30}) \d{10} \d{4}\.\d{2}\.\d{2} /, // BGL: alert flag or category, epoch, date
  /^\S+ \S+ \S+ \[\d{2}\/\w{3}\/\d{4}:\d{2}:\d{2}:\d{2} [+-]\d{4}\] "/, // Apache/Nginx access log (common, combined)
  /^\d{3,}\s+\S+\s[^\n]{0,300}?\b1\d{9}\b/, // HPC: id, node … epoch
];

/** `key=value key="quoted value"` pairs, three or more, one of them a time, level or message. */
const LOGFMT = /^(?:[\w.@-]{1,64}=(?:"(?:[^"\\]|\\.){0,2000}"|[^\s"]{0,500})\s+){2,}[\w.@-]{1,64}=/;
const LOGFMT_KEY = /(?:^|\s)(?:ts|time|timestamp|t|level|lvl|severity|msg|message|caller|logger|method|path|status|duration|latency)=/;

const METRIC_HEADER = /^# (?:HELP|TYPE|UNIT|EOF)\b/;
/** `name{label="v",…} 12.5 1445162505000`: a sample of the Prometheus (or OpenMetrics) text format. */
const METRIC_SAMPLE = /^[a-zA-Z_:][\w:]{0,200}(?:\{(?:[^{}"]|"(?:[^"\\]|\\.){0,500}"){0,2000}\})?\s+(?:[-+]?(?:\d[\d.eE+-]*|NaN|Inf))(?:\s+-?\d{1,19})?\s*$/;

/** A trace or span id as tracers name it: `trace_id`, `traceId` (Zipkin), `traceID` (Jaeger), `spanId`, `parentSpanID`, … */
const SPAN_KEY = /"(?:trace_?id|span_?id|parent_?(?:span_?)?id)"\s*:/i;
const DURATION_KEY = /"(?:duration(?:_ms|Ms|_us|_ns|Nanos)?|elapsed(?:_ms)?|latency(?:_ms)?)"\s*:/;
const LOG_KEY = /"(?:level|lvl|severity|msg|message|time|ts|timestamp|@timestamp)"\s*:/;

/** `path:12:text`, `path-12-text` (context), `path:12:3:text` (column): a path has a dot or a slash. */
const HIT = /^[^\s:]{0,300}[./][^\s:]{0,300}(?::\d{1,9}[:-]|-\d{1,9}-)/;

const FRAME: readonly RegExp[] = [
  /^\s+at \S/, // Java, JavaScript
  /^\s+\.\.\. \d+ more/,
  /^Caused by: /,
  /^\s+File "[^"]{1,500}", line \d+/, // Python
  /^Traceback \(most recent call last\):/,
  /^(?:[\w$]+\.)*[\w$]*(?:Error|Exception)(?::|$)/, // an exception line
  /^goroutine \d+ \[/,
];

const TEST: readonly RegExp[] = [
  /^(?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) \S/, // pytest -rA summary
  /^\S+::\S+ (?:PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)\b/, // pytest -v
  /^(?:---|===) (?:RUN|PASS|FAIL|SKIP|CONT|PAUSE):? \S/, // go test
  /^(?:ok|FAIL|---)\s+\S+\s+[\d.]+s$/,
  /^test \S+ \.\.\. (?:ok|FAILED|ignored)$/, // cargo test
  /^\s*(?:✓|✔|✕|✗|×|√|○)\s/, // jest, mocha, vitest
  /^(?:PASS|FAIL) {1,2}\S/,
  /^(?:ok|not ok) \d+ /, // TAP
  /^(?:ERROR|FAIL): \w+ \([\w.]+\)/, // unittest
  /^=+ .{0,200}\b(?:passed|failed|error|errors|test session starts|FAILURES|ERRORS|short test summary info)\b.{0,200}=+$/,
];

/** The kind of a line of pasted data, undefined for prose, code and blank lines. */
export function dataLineKind(line: string): DataLineKind | undefined {
  if (line.length === 0 || line.length > MAX_LINE) return undefined;
  const first = line.charCodeAt(0);
  if (first === 123 /* { */) {
    if (!/\}\s*,?\s*$/.test(line)) return undefined;
    if (SPAN_KEY.test(line) && DURATION_KEY.test(line)) return 'span';
    if (LOG_KEY.test(line)) return 'log';
    return /^\{\s*"[^"]{1,200}"\s*:/.test(line) ? 'record' : undefined;
  }
  if (first === 35 /* # */) return METRIC_HEADER.test(line) ? 'metric-header' : undefined;
  for (const pattern of TEST) if (pattern.test(line)) return 'test';
  for (const pattern of TIMESTAMPED) if (pattern.test(line)) return 'log';
  if (LOGFMT.test(line) && LOGFMT_KEY.test(line)) return 'log';
  if (METRIC_SAMPLE.test(line)) return 'metric';
  for (const pattern of FRAME) if (pattern.test(line)) return 'frame';
  if (HIT.test(line) || line === '--') return 'hit';
  return undefined;
}

/** Share of a block's non-blank lines that are data of any kind (0 for a block with no line). */
export function dataLineShare(lines: readonly string[]): number {
  let nonBlank = 0;
  let data = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    nonBlank++;
    if (dataLineKind(line) !== undefined) data++;
  }
  return nonBlank === 0 ? 0 : data / nonBlank;
}

/** A data kind must hold this share of a block's data lines to count as one of its formats. */
const MIXED_KIND_SHARE = 0.1;

/**
 * True when a block holds data of two formats or more (logs and samples, samples and spans…),
 * each at least a tenth of its data lines: no one format's cleaner reads it whole.
 */
export function isMixedData(lines: readonly string[]): boolean {
  const counts = new Map<DataLineKind, number>();
  let data = 0;
  for (const line of lines) {
    const kind = dataLineKind(line);
    if (kind === undefined || kind === 'frame') continue;
    const family = kind === 'metric-header' ? 'metric' : kind;
    counts.set(family, (counts.get(family) ?? 0) + 1);
    data++;
  }
  return data > 0 && [...counts.values()].filter((count) => count >= data * MIXED_KIND_SHARE).length >= 2;
}
