/**
 * Held-out: an incident paste of three formats at once, as people paste from their dashboards:
 * application logs in logfmt, Prometheus samples and trace spans (JSON lines), "find what caused
 * the latency spike at 10:05". Built from real logs: loghub's Hadoop log (re-timed from 18:0x to
 * 10:0x) as the application log, the latency gauge computed from that same log (each 15-second
 * step's p99 grows with its WARN and ERROR lines, so the spike is where the log's own trouble is),
 * and Proxifier's real connection lifetimes as spans over the same ten minutes.
 */
import type { Workload } from './types';
import { CHAT_SYSTEM, MODEL, readShared, structuredLog, templateConstant } from './shape';

interface LogEvent { readonly time: string; readonly ms: number; readonly level: string; readonly thread: string; readonly logger: string; readonly message: string }

/** Hadoop's lines with their time moved from 18:0x to 10:0x (same date, same seconds). */
function hadoopEvents(): LogEvent[] {
  const events: LogEvent[] = [];
  for (const line of readShared('logs', 'Hadoop', 'Hadoop_2k.log').split(/\r?\n/)) {
    const match = /^(\d{4}-\d\d-\d\d) 18:(\d\d:\d\d),(\d{3}) (\w+) \[([^\]]*)\] ([\w.$]+): (.*)$/.exec(line);
    if (match === null) continue;
    const time = `${match[1]}T10:${match[2]}.${match[3]}Z`;
    events.push({ time, ms: Date.parse(time), level: match[4]!, thread: match[5]!, logger: match[6]!, message: match[7]! });
  }
  return events;
}

function logfmt(event: LogEvent): string {
  const quote = (value: string): string => (/[\s"=]/.test(value) || value === '' ? JSON.stringify(value) : value);
  return `ts=${event.time} level=${event.level.toLowerCase()} thread=${quote(event.thread)} logger=${event.logger} msg=${quote(event.message)}`;
}

const STEP_MS = 15_000;

/** The p99 gauge per 15-second step, from the log's own trouble, and its exposition lines. */
function latencySamples(events: readonly LogEvent[], from: number, to: number): { lines: { ms: number; text: string }[]; peak: string } {
  const lines: { ms: number; text: string }[] = [];
  let peak = { value: -1, text: '' };
  for (let step = from; step < to; step += STEP_MS) {
    const inStep = events.filter((event) => event.ms >= step && event.ms < step + STEP_MS);
    const trouble = inStep.filter((event) => event.level === 'WARN' || event.level === 'ERROR' || event.level === 'FATAL').length;
    const p50 = (0.018 + inStep.length * 0.0004).toFixed(3);
    const p99 = (0.09 + trouble * 0.085).toFixed(3);
    const requests = 1200 + inStep.length * 7;
    for (const [name, value] of [['http_request_duration_seconds{service="mr-app-master",quantile="0.5"}', p50], ['http_request_duration_seconds{service="mr-app-master",quantile="0.99"}', p99], ['http_requests_total{service="mr-app-master",code="200"}', String(requests)]] as const) {
      const text = `${name} ${value} ${step}`;
      lines.push({ ms: step, text });
      if (name.includes('0.99') && Number(value) > peak.value) peak = { value: Number(value), text };
    }
  }
  return { lines, peak: peak.text };
}

/** Proxifier's closed connections as spans spread over the window, in their own order. */
function proxySpans(from: number, to: number): { ms: number; text: string }[] {
  const closes = readShared('logs', 'Proxifier', 'Proxifier_2k.log').split(/\r?\n/).map((line) => /^\[[\d. :]+\] (\S+)(?: \*64)? - (\S+) close, (\d+) bytes.*? sent, (\d+) bytes.*? received, lifetime (<1 sec|\d\d:\d\d)/.exec(line)).filter((match): match is RegExpExecArray => match !== null);
  return closes.filter((_, index) => index % 3 === 0).map((match, index, kept) => {
    const ms = from + Math.floor(((to - from) * index) / kept.length);
    const lifetime = match[5] === '<1 sec' ? 0.4 : Number(match[5]!.slice(0, 2)) * 60 + Number(match[5]!.slice(3));
    const span = { trace_id: (index * 2654435761 >>> 0).toString(16).padStart(8, '0'), span_id: (index + 1).toString(16).padStart(6, '0'), name: 'proxy.connect', service: match[1], peer: match[2], start: new Date(ms).toISOString(), duration_ms: Math.round(lifetime * 1000), bytes_sent: Number(match[3]), bytes_received: Number(match[4]) };
    return { ms, text: JSON.stringify(span) };
  });
}

/** The WARN/ERROR templates the log has between 10:05:50 and 10:06:10 (loghub's structured CSV). */
function spikeFacts(): string[] {
  const seen = new Set<string>();
  for (const row of structuredLog('Hadoop')) {
    const time = row.Time ?? '';
    if (time >= '18:05:50' && time <= '18:06:10' && (row.Level === 'WARN' || row.Level === 'ERROR')) seen.add(templateConstant(row.EventTemplate ?? ''));
  }
  return [...seen].filter((fact) => fact.length >= 8);
}

interface Incident { readonly logs: { ms: number; text: string }[]; readonly metrics: { ms: number; text: string }[]; readonly spans: { ms: number; text: string }[]; readonly peak: string }

function incident(): Incident {
  const events = hadoopEvents();
  const from = Date.parse('2015-10-18T10:05:15.000Z');
  const to = Date.parse('2015-10-18T10:06:30.000Z');
  const logs = events.filter((event) => event.ms >= from && event.ms < to).map((event) => ({ ms: event.ms, text: logfmt(event) }));
  const metrics = latencySamples(events, Date.parse('2015-10-18T10:01:45.000Z'), Date.parse('2015-10-18T10:10:30.000Z'));
  return { logs, metrics: metrics.lines, spans: proxySpans(from, to), peak: metrics.peak };
}

const EXPOSITION_HEADER = [
  '# HELP http_request_duration_seconds Request latency of the MR application master, by quantile.',
  '# TYPE http_request_duration_seconds summary',
  '# HELP http_requests_total Requests answered by the MR application master.',
  '# TYPE http_requests_total counter',
];

function sectioned(): Workload {
  const found = incident();
  const question = 'Find what caused the latency spike at 10:05. Logs, metrics and traces from that window are below.';
  const paste = [...found.logs.map((line) => line.text), '', ...EXPOSITION_HEADER, ...found.metrics.map((line) => line.text), '', ...found.spans.map((line) => line.text)].join('\n');
  return {
    id: 'held-mixed-incident-sectioned',
    category: 'logs and data',
    pattern: 'logfmt logs, Prometheus samples and spans pasted under one question',
    question,
    body: { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content: `${question}\n\n${paste}` }] },
    facts: [...spikeFacts(), found.peak],
    source: 'loghub Hadoop_2k.log re-timed to 10:0x as logfmt (10:05:15–10:06:30), a p99 gauge per 15 s computed from that log\'s WARN/ERROR count, Proxifier\'s connection lifetimes as spans; facts: every WARN/ERROR template between 10:05:50 and 10:06:10 (structured CSV) and the peak p99 sample',
  };
}

function interleaved(): Workload {
  const found = incident();
  const question = 'p99 latency jumped around 10:05 and I merged everything we had into one paste above. What went wrong?';
  const merged = [...found.logs, ...found.metrics.filter((line) => line.ms >= Date.parse('2015-10-18T10:05:15.000Z') && line.ms < Date.parse('2015-10-18T10:06:30.000Z')), ...found.spans]
    .map((line, index) => ({ ...line, index }))
    .sort((a, b) => a.ms - b.ms || a.index - b.index)
    .map((line) => line.text);
  return {
    id: 'held-mixed-incident-merged',
    category: 'logs and data',
    pattern: 'logs, samples and spans merged by time, question under the paste',
    question,
    body: { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content: `${EXPOSITION_HEADER.join('\n')}\n${merged.join('\n')}\n\n${question}` }] },
    facts: [...spikeFacts(), ...(merged.includes(found.peak) ? [found.peak] : [])],
    source: 'the same material as held-mixed-incident-sectioned, every line of the 75-second window sorted by its time into one paste, the question after it; facts: every WARN/ERROR template between 10:05:50 and 10:06:10 and the peak p99 sample when it falls in the window',
  };
}

export function incidentWorkloads(): Workload[] {
  return [sectioned(), interleaved()];
}
