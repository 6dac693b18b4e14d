/**
 * A paste of data split into units of its own kind, line kinds decided one by one (see
 * `dataLines.ts`), so a paste holding logs, metrics and spans in any order splits into log
 * events, samples and spans: a log event with its continuation lines (stack frames, "Caused by",
 * indented lines), one Prometheus sample, one span, one grep group (a hit with its `-C` context,
 * up to the `--`), a test runner's line, any other line on its own. Blank lines ride with the unit
 * above them. Each unit carries what a selection needs: its severity, the time of day it names,
 * the series it belongs to and its value (a sample's reading, a span's duration), and a folding
 * key (the line's template: bookkeeping and values masked). Pure and linear in the paste's size.
 */
import { dataLineKind, type DataLineKind } from './dataLines';
import { lineTemplate } from './logTemplates';
import { lineSeverity, type Severity } from './severity';

export type UnitKind = DataLineKind | 'text';

export interface PastedUnit {
  /** First line (index into the paste's lines) and the line after the last. */
  readonly start: number;
  readonly end: number;
  readonly kind: UnitKind;
  readonly severity: Severity;
  /** Seconds since midnight (UTC for epoch stamps and zoned times, as written otherwise). */
  readonly timeOfDay?: number;
  /** A sample's series (name and labels), a span's name and service, a metric header's family. */
  readonly series?: string;
  /** A sample's reading, a span's duration. */
  readonly value?: number;
  /** The unit's first line as a template (bookkeeping and values masked): equal keys are repeats of one event. */
  readonly key: string;
}

/** A unit grows to at most this many lines of continuation (a runaway traceback stays bounded). */
const MAX_UNIT_LINES = 200;

/** A line that continues the log event or test failure above it. */
function continues(line: string, kind: DataLineKind | undefined, previous: UnitKind): boolean {
  if (previous !== 'log' && previous !== 'test' && previous !== 'frame' && previous !== 'text') return false;
  if (kind === 'frame') return true;
  return kind === undefined && /^[ \t]+\S/.test(line) && previous !== 'text';
}

/** Splits a paste's lines into units (see the module comment). */
export function splitPastedUnits(lines: readonly string[]): PastedUnit[] {
  const units: PastedUnit[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    const kind = dataLineKind(line);
    let end = index + 1;
    if (kind === 'hit' && line !== '--') {
      // A grep group: the hit and its context lines, to the separator.
      while (end < lines.length && end - index < MAX_UNIT_LINES && lines[end] !== '--' && dataLineKind(lines[end]!) === 'hit') end++;
      if (end < lines.length && lines[end] === '--') end++;
    } else {
      const unitKind: UnitKind = kind ?? 'text';
      while (end < lines.length && end - index < MAX_UNIT_LINES && lines[end]!.trim() !== '' && continues(lines[end]!, dataLineKind(lines[end]!), unitKind)) end++;
    }
    while (end < lines.length && lines[end]!.trim() === '') end++;
    units.push(describeUnit(lines, index, end, kind ?? 'text'));
    index = end;
  }
  return units;
}

function describeUnit(lines: readonly string[], start: number, end: number, kind: UnitKind): PastedUnit {
  const first = lines[start]!;
  let severity: Severity = (kind === 'span' ? spanStatusSeverity(first) : undefined) ?? lineSeverity(first);
  for (let index = start + 1; index < end && severity < 2; index++) if (lineSeverity(lines[index]!) === 2) severity = 2;
  const measured = kind === 'metric' ? sample(first) : kind === 'span' ? span(first) : kind === 'metric-header' ? { series: /^# \w+ (\S+)/.exec(first)?.[1] } : {};
  const timeOfDay = timeOfDayIn(first);
  return { start, end, kind, severity, key: lineTemplate(first).key, ...(timeOfDay !== undefined ? { timeOfDay } : {}), ...measured };
}

/** `name{labels} value [timestamp]`: the series and the reading. */
function sample(line: string): { series?: string; value?: number } {
  const match = /^([a-zA-Z_:][\w:]*(?:\{.*\})?)\s+(\S+)(?:\s+-?\d+)?\s*$/.exec(line);
  if (match === null) return {};
  const value = Number(match[2]);
  return { series: match[1]!, ...(Number.isFinite(value) ? { value } : {}) };
}

/**
 * A span's status, as tracers export it: `"status":"ERROR"`, `"status_code":"OK"`, OTLP's
 * `"status":{"code":"STATUS_CODE_ERROR"}` or `{"code":2}`. It names the outcome, so a span that
 * succeeded is not taken for a failure because its input mentions an error.
 */
const SPAN_STATUS = /"(?:status|status_?code|statusCode|otel\.status_code)"\s*:\s*(?:\{[^{}]{0,120}?"code"\s*:\s*)?"?(STATUS_CODE_ERROR|STATUS_CODE_OK|STATUS_CODE_UNSET|ERROR|OK|UNSET|[0-2])(?![\w.])/i;

/** Zipkin's `"error": "…"` tag, Jaeger's `{"key":"error","type":"bool","value":true}` or its `otel.status_code` tag set to ERROR. */
const SPAN_ERROR_TAG = /"error"\s*:\s*(?:true|"(?!false")[^"]+")|"key"\s*:\s*"(?:error|otel\.status_code)"\s*,\s*(?:"(?:type|vType)"\s*:\s*"\w+"\s*,\s*)?"(?:value|vBool|vStr)"\s*:\s*(?:true|"(?:true|ERROR)")/i;

/**
 * 2 for a span whose status is an error or that carries an error tag, 0 for one whose status
 * names another outcome, undefined when it says neither (then its text decides).
 */
function spanStatusSeverity(line: string): Severity | undefined {
  const status = SPAN_STATUS.exec(line)?.[1]?.toUpperCase();
  if (status === 'ERROR' || status === 'STATUS_CODE_ERROR' || status === '2' || SPAN_ERROR_TAG.test(line)) return 2;
  return status === undefined ? undefined : 0;
}

/** A span's name (with its service) and its duration, in the unit it was written in. */
function span(line: string): { series?: string; value?: number } {
  const name = /"(?:name|operationName|operation)"\s*:\s*"([^"]{0,200})"/.exec(line)?.[1];
  const service = /"(?:service|serviceName|service_name)"\s*:\s*"([^"]{0,200})"/.exec(line)?.[1];
  const duration = /"(?:duration(?:_ms|Ms|_us|_ns|Nanos)?|elapsed(?:_ms)?|latency(?:_ms)?)"\s*:\s*"?(-?[\d.]+)/.exec(line)?.[1];
  const value = duration === undefined ? undefined : Number(duration);
  return { ...(name !== undefined || service !== undefined ? { series: `${service ?? ''} ${name ?? ''}`.trim() } : {}), ...(value !== undefined && Number.isFinite(value) ? { value } : {}) };
}

/** Seconds since midnight of the first time a line names (see PastedUnit.timeOfDay). */
export function timeOfDayIn(line: string): number | undefined {
  const head = line.length > 600 ? line.slice(0, 600) : line;
  const clock = /(?:^|[^\d:])(\d{1,2}):(\d{2}):(\d{2})(?![\d:])|(?:^|[^\d:])(\d{1,2}):(\d{2})(?=[\s,.\]Z+-]|$)(?!:\d)/.exec(head);
  if (clock !== null) {
    const hours = Number(clock[1] ?? clock[4]);
    const minutes = Number(clock[2] ?? clock[5]);
    const seconds = Number(clock[3] ?? 0);
    if (hours < 24 && minutes < 60 && seconds < 60) return hours * 3600 + minutes * 60 + seconds;
  }
  // Epoch stamps: milliseconds (a Prometheus sample's last field) or seconds.
  const epoch = /(?:^|[\s"=:,])(1\d{12}|1\d{9})(?:[\s",}]|$)/.exec(head);
  if (epoch !== null) {
    const milliseconds = epoch[1]!.length === 13 ? Number(epoch[1]) : Number(epoch[1]) * 1000;
    return Math.floor((milliseconds % 86_400_000) / 1000);
  }
  return undefined;
}
