/**
 * Held-out: logs, metrics and test runs pasted into a user's message in the places people put
 * them (under, over or between their words), in formats the own set does not use: JSON-lines
 * logs, a syslog with the question after it, a metrics JSON document, and test runs of several
 * runners pasted rather than returned by a tool. Facts from the data's own ground truth.
 */
import { loadTrajectory } from '../sharedData';
import { expectedFailures, pytestVerdict } from './testRuns';
import type { Workload } from './types';
import { CHAT_SYSTEM, MODEL, readShared, structuredLog, templateConstant, topCounts } from './shape';

function userMessage(content: string): Workload['body'] {
  return { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content }] };
}

/** Zookeeper's log written as structured JSON lines, fenced between two paragraphs of the user's. */
function jsonLinesLog(): Workload {
  const lines = readShared('logs', 'Zookeeper', 'Zookeeper_2k.log').split(/\r?\n/).map((line) => {
    const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d),(\d{3}) - (\w+)\s+\[(.*?):([\w$]+)@(\d+)\] - (.*)$/.exec(line);
    if (match === null) return undefined;
    return JSON.stringify({ ts: `${match[1]}T${match[2]}.${match[3]}Z`, level: match[4], thread: match[5], logger: `${match[6]}@${match[7]}`, msg: match[8] });
  }).filter((line): line is string => line !== undefined);
  const rows = structuredLog('Zookeeper');
  const errors = [...new Set(rows.filter((row) => row.Level === 'ERROR').map((row) => templateConstant(row.EventTemplate ?? '')))].filter((fact) => fact.length >= 8);
  const question = 'Which errors did the servers log?';
  return {
    id: 'held-jsonl-service-log',
    category: 'logs and data',
    pattern: 'a JSON-lines service log fenced between the user\'s paragraphs',
    question,
    body: userMessage(`We export our ZooKeeper logs as JSON lines. Here is yesterday's:\n\n\`\`\`json\n${lines.join('\n')}\n\`\`\`\n\n${question} I only care about errors, not the routine notifications.`),
    facts: errors,
    source: 'loghub Zookeeper_2k.log rewritten as one JSON object a line (ts, level, thread, logger, msg); facts: the constant text of every ERROR template (structured CSV)',
  };
}

/** OpenSSH's auth log pasted first, the question after it. */
function syslogQuestionAfter(): Workload {
  const rows = structuredLog('OpenSSH');
  const users = rows.map((row) => /^Invalid user (\S+) from /.exec(row.Content ?? '')?.[1]).filter((user): user is string => user !== undefined);
  const question = 'Above is our sshd log from last night. Which user names did the attackers try most often, and from which addresses?';
  const addresses = rows.map((row) => /^Invalid user \S+ from (\S+)/.exec(row.Content ?? '')?.[1]).filter((address): address is string => address !== undefined);
  return {
    id: 'held-syslog-question-after',
    category: 'logs and data',
    pattern: 'a syslog pasted first, the question after it',
    question,
    body: userMessage(`${readShared('logs', 'OpenSSH', 'OpenSSH_2k.log').replace(/\n$/, '')}\n\n${question}`),
    facts: [...topCounts(users, 3), ...topCounts(addresses, 2)],
    source: 'loghub OpenSSH_2k.log pasted before the question; facts: the three user names and the two addresses with the most "Invalid user" events (structured CSV)',
  };
}

interface Series { readonly metric: string; readonly tags: string[]; readonly pointlist: [number, number][] }

/** Proxifier's bytes received per program per minute as a metrics query response. */
function metricsDocument(): Workload {
  const perProgram = new Map<string, Map<number, number>>();
  for (const line of readShared('logs', 'Proxifier', 'Proxifier_2k.log').split(/\r?\n/)) {
    const match = /^\[(\d\d)\.(\d\d) (\d\d):(\d\d):\d\d\] (\S+)(?: \*64)? - \S+ close, \d+ bytes.*? sent, (\d+) bytes.*? received/.exec(line);
    if (match === null) continue;
    const minute = Date.UTC(2016, Number(match[1]) - 1, Number(match[2]), Number(match[3]), Number(match[4])) / 1000;
    const points = perProgram.get(match[5]!) ?? new Map<number, number>();
    points.set(minute, (points.get(minute) ?? 0) + Number(match[6]));
    perProgram.set(match[5]!, points);
  }
  const series: Series[] = [...perProgram].sort((a, b) => (a[0] < b[0] ? -1 : 1)).map(([program, points]) => ({ metric: 'proxy.bytes_received', tags: [`program:${program}`, 'host:proxy.cse.cuhk.edu.hk'], pointlist: [...points].sort((a, b) => a[0] - b[0]) }));
  let peak = { program: '', time: 0, value: -1 };
  for (const entry of series) for (const [time, value] of entry.pointlist) if (value > peak.value) peak = { program: entry.tags[0]!.slice('program:'.length), time, value };
  const document = { status: 'ok', res_type: 'time_series', from_date: series[0]!.pointlist[0]![0] * 1000, interval: 60, query: 'sum:proxy.bytes_received{*} by {program}', series };
  const question = 'This is what our metrics API returned. Which program received the most bytes in a single minute, and when was that?';
  return {
    id: 'held-metrics-json-document',
    category: 'logs and data',
    pattern: 'a metrics JSON document pasted under a question',
    question,
    body: userMessage(`${question}\n\n${JSON.stringify(document, null, 2)}`),
    facts: [peak.program, String(peak.time), String(peak.value)],
    source: 'bytes received per program per minute, summed from loghub Proxifier_2k.log\'s close lines, as a metrics query response (pretty-printed); facts: the program, minute (epoch seconds) and value of the largest point',
  };
}

/** What a unittest (Django) run says failed: each failing test's name and its exception line. */
export function unittestVerdict(output: string): string[] {
  const facts: string[] = [];
  for (const block of output.split(/^={50,}$/m).slice(1)) {
    const header = /^(?:ERROR|FAIL): (\w+) \(([\w.]+)\)/m.exec(block);
    if (header === null) continue;
    facts.push(`${header[1]} (${header[2]})`);
    const lines = block.split(/^-{50,}$/m)[1]?.split('\n').map((line) => line.trim()).filter((line) => line !== '') ?? [];
    const exception = [...lines].reverse().find((line) => /^[\w.]*(?:Error|Exception|Failure)\b/.test(line));
    // At most 80 characters, cut between words: a fact ending mid-word is never found whole.
    if (exception !== undefined) facts.push(exception.length <= 80 ? exception : exception.slice(0, 81).replace(/\s+\S*$/, ''));
  }
  return [...new Set(facts)];
}

/** An agent's observation as a person would paste it: the output's text without the agent's tags. */
function pastedObservation(instance: string, messageIndex: number): string {
  const content = loadTrajectory(instance).messages[messageIndex]!.content;
  const bodies = [...content.matchAll(/<(output|output_head|output_tail)>\n?([\s\S]*?)\n?<\/\1>/g)].map((match) => match[2]!);
  return bodies.join('\n').replace(/\n+$/, '');
}

function pytestFewFailures(): Workload {
  const output = pastedObservation('astropy__astropy-13236', 81);
  const question = 'Which tests failed and why? Ignore the passed ones.';
  return {
    id: 'held-pytest-few-failures',
    category: 'logs and data',
    pattern: 'a pytest run with a few failures pasted under a question',
    question,
    body: userMessage(`${question}\n\n${output}`),
    facts: pytestVerdict(output),
    source: 'the pytest run of astropy__astropy-13236 (trajectory message 81, head and tail as the agent saw them) pasted without a fence; facts: its FAILED ids, E error lines and count line',
  };
}

function djangoUnittest(): Workload {
  const output = pastedObservation('django__django-10973', 49);
  const question = 'I ran the dbshell tests. Which ones fail, and what is the error?';
  return {
    id: 'held-django-unittest-run',
    category: 'logs and data',
    pattern: 'a Django (unittest) test run pasted under a question',
    question,
    body: userMessage(`${question}\n\n${output}`),
    facts: unittestVerdict(output),
    source: 'the test run of django__django-10973 (trajectory message 49) pasted without a fence; facts: each failing test and its exception line',
  };
}

function pastedReport(file: string, expected: string, id: string, pattern: string, layout: (report: string) => string, question: string): Workload {
  const report = readShared('test-reports', file).replace(/\n$/, '');
  return {
    id,
    category: 'logs and data',
    pattern,
    question,
    body: userMessage(layout(report)),
    facts: expectedFailures(expected, report),
    source: `test-reports/${file} pasted into the user's message; facts: every failing test and its message's first line from expected/${expected}`,
  };
}

export function heldOutDataWorkloads(): Workload[] {
  const jestQuestion = 'Which of these jest tests fail, and with what error?';
  const goQuestion = 'Why did CI go red? Name the failing tests and what they printed.';
  const mochaQuestion = 'List the failing mocha tests with their errors.';
  return [
    jsonLinesLog(),
    syslogQuestionAfter(),
    metricsDocument(),
    pytestFewFailures(),
    djangoUnittest(),
    pastedReport('jest-junit.xml', 'jest-junit.md', 'held-jest-junit-between', 'a jest JUnit report pasted between two sentences', (report) => `CI attached this report:\n\n${report}\n\n${jestQuestion}`, jestQuestion),
    pastedReport('golang-json.json', 'golang-json.md', 'held-go-test-json-after', 'go test -json output pasted, question after it', (report) => `${report}\n\n${goQuestion}`, goQuestion),
    pastedReport('mocha-json.json', 'mocha-json.md', 'held-mocha-json-pasted', 'a mocha JSON report pasted under a question', (report) => `${mochaQuestion}\n\n${report}`, mochaQuestion),
  ];
}
