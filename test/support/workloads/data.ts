/**
 * Data workloads: JSON and tables from ../shared/data (octokit's recorded GitHub API
 * conversations, the jest report's test cases, the GitHub MCP server's tool manifest, Proxifier's
 * connections) and pasted instructions, each under a question.
 */
import * as fs from 'node:fs';
import { loadTrajectory, sharedPath } from '../sharedData';
import type { Workload } from './types';
import { CHAT_SYSTEM, freshToolResult, MODEL, pastedUnder, readShared } from './shape';

interface Recording {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly response?: unknown;
  readonly rawHeaders?: readonly string[];
}

function recordings(): { scenario: string; recording: Recording }[] {
  const folder = sharedPath('json', 'github-api');
  return fs.readdirSync(folder).sort().flatMap((file) => (JSON.parse(fs.readFileSync(`${folder}/${file}`, 'utf8')) as Recording[]).map((recording) => ({ scenario: file, recording })));
}

/** `Tue, 19 Jul 2022 04:39:54 GMT` → `19/Jul/2022:04:39:54 +0000`, as a combined log writes it. */
function logTime(date: string | undefined): string {
  const match = /(\d{1,2}) (\w{3}) (\d{4}) (\d{2}:\d{2}:\d{2})/.exec(date ?? '');
  return match === null ? '19/Jul/2022:00:00:00 +0000' : `${match[1]!.padStart(2, '0')}/${match[2]}/${match[3]}:${match[4]} +0000`;
}

/**
 * Every recorded request of octokit's fixtures as a combined-log-format access log line: method,
 * path, status and response size as recorded, the Date header as the time.
 */
function accessLog(): Workload {
  const lines = recordings().map(({ recording }) => {
    const headers = recording.rawHeaders ?? [];
    const date = headers[headers.findIndex((header) => header.toLowerCase() === 'date') + 1];
    const size = recording.response === undefined ? 0 : JSON.stringify(recording.response).length;
    return `140.82.112.5 - - [${logTime(date)}] "${recording.method.toUpperCase()} ${recording.path} HTTP/1.1" ${recording.status} ${size} "-" "octokit-fixtures/1.0"`;
  });
  const failing = recordings().filter(({ recording }) => recording.status >= 400).map(({ recording }) => recording.path);
  const question = 'Which requests in this access log failed with a 4xx or 5xx status?';
  return {
    id: 'access-log-failures',
    category: 'logs and data',
    pattern: 'web-server access log pasted under "which requests fail?"',
    question,
    body: pastedUnder(question, lines.join('\n')),
    facts: failing,
    source: 'every request recorded in octokit/fixtures (json/github-api), written as combined-log-format lines (method, path, status, response size, Date header); facts: the paths of the requests recorded with a status of 400 or more',
  };
}

/**
 * Connections opened per minute through Proxifier (counted from its real log) as the JSON a
 * metrics endpoint returns. Planted: one minute deep in the series carries a spike.
 */
function metricsSpike(): Workload {
  const counts = new Map<string, { opened: number; received: number }>();
  for (const line of readShared('logs', 'Proxifier', 'Proxifier_2k.log').split('\n')) {
    const minute = /^\[(\d\d\.\d\d \d\d:\d\d)/.exec(line)?.[1];
    if (minute === undefined) continue;
    const entry = counts.get(minute) ?? { opened: 0, received: 0 };
    if (/open through proxy/.test(line)) entry.opened++;
    const received = /, (\d+) bytes(?: \([^)]*\))? received/.exec(line);
    if (received !== null) entry.received += Number(received[1]);
    counts.set(minute, entry);
  }
  const series = [...counts].map(([minute, entry]) => ({ minute: `2016-${minute.replace(' ', 'T').replace('.', '-')}:00`, connections_opened: entry.opened, bytes_received: entry.received }));
  const spikeAt = Math.floor(series.length * 0.73);
  const spike = series[spikeAt]!;
  series[spikeAt] = { ...spike, connections_opened: 743 };
  const question = 'Here is the proxy\'s connections-per-minute series. Find the spike: when was it and how high?';
  return {
    id: 'metrics-series-spike',
    category: 'logs and data',
    pattern: 'a metrics series and "find the spike"',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command: 'curl -s http://proxy.internal/metrics/connections?step=60' } }, JSON.stringify({ metric: 'proxy_connections_opened', step_seconds: 60, points: series }, null, 2)),
    facts: [spike.minute, '743'],
    source: 'connections opened and bytes received per minute, counted from loghub Proxifier_2k.log, pretty-printed as a metrics response',
    planted: `the minute ${spike.minute} (point ${spikeAt} of ${series.length}) has its connections_opened set to 743 (the real peak is 77)`,
  };
}

interface Testcase { suite: string; name: string; time: number; status: 'passed' | 'failed' | 'skipped'; failure?: string }

/** The jest report's test cases as a CI API would list them, 500 of them with both failures deep inside. */
function testcaseArray(): Workload {
  const xml = readShared('test-reports', 'external', 'jest', 'jest-test-results.xml');
  const cases: Testcase[] = [];
  let suite = '';
  for (const match of xml.matchAll(/<testsuite name="([^"]*)"|<testcase classname="([^"]*)" name="([^"]*)" time="([^"]*)">([\s\S]*?)<\/testcase>/g)) {
    if (match[1] !== undefined) {
      suite = match[1];
      continue;
    }
    const body = match[5] ?? '';
    const failure = /<failure>([^\n<]*)/.exec(body)?.[1];
    cases.push({ suite, name: decode(match[3]!), time: Number(match[4]), status: failure !== undefined ? 'failed' : /<skipped/.test(body) ? 'skipped' : 'passed', ...(failure !== undefined ? { failure: decode(failure) } : {}) });
  }
  const failures = cases.map((entry, index) => (entry.status === 'failed' ? index : -1)).filter((index) => index >= 0);
  const last = failures[failures.length - 1]!;
  const start = Math.max(0, last - 430);
  const slice = cases.slice(start, start + 500);
  const question = 'This is the test list from our CI API. Which tests failed and why?';
  const failed = slice.filter((entry) => entry.status === 'failed');
  return {
    id: 'json-array-failures',
    category: 'logs and data',
    pattern: 'a 500-item JSON array, "which failed and why?", failures deep inside',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command: 'curl -s https://ci.internal/api/runs/4211/tests' } }, JSON.stringify(slice, null, 2)),
    facts: [...new Set(failed.flatMap((entry) => [entry.suite, entry.failure!]))],
    source: 'test cases 500 in a row from test-reports/external/jest/jest-test-results.xml, as JSON objects (suite, name, time, status, failure); facts: the failing suites and failure messages (expected/jest-test-results.md lists the same two)',
  };
}

function decode(text: string): string {
  return text.replace(/&quot;/g, '"').replace(/&apos;/g, '\'').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
}

/** The GitHub MCP server's tool definitions, pasted as one manifest of about 100 KB. */
function toolManifest(): Workload {
  const folder = sharedPath('clients', 'mcp-tools', 'github-mcp-server');
  const tools: unknown[] = [];
  let size = 0;
  for (const file of fs.readdirSync(folder).filter((name) => name.endsWith('.snap')).sort()) {
    if (size >= 100_000) break;
    const definition = JSON.parse(fs.readFileSync(`${folder}/${file}`, 'utf8')) as Record<string, unknown>;
    tools.push(definition);
    size += JSON.stringify(definition, null, 2).length;
  }
  const manifest = JSON.stringify({ server: 'github-mcp-server', tools }, null, 2);
  const target = tools.find((tool) => (tool as { name?: string }).name === 'add_comment_to_pending_review') as { name: string; description: string };
  const question = 'From this MCP manifest: which tool adds a review comment to a pull request review that is still pending, and what does it require first?';
  return {
    id: 'mcp-manifest-100kb',
    category: 'RAG and tool-heavy',
    pattern: 'a 100 KB manifest pasted under a question',
    question,
    body: pastedUnder(question, manifest),
    facts: [target.name, 'A pending review needs to already exist to call this'],
    source: `the first ${tools.length} tool definitions of clients/mcp-tools/github-mcp-server (alphabetical, ${Math.round(manifest.length / 1000)} KB pretty-printed); facts: the tool's name and the precondition its own description states`,
  };
}

/**
 * The same instructions pasted 40 times (a client that appends its instructions to every
 * message): mini-swe-agent's task instructions from a trajectory's first user message.
 */
function repeatedInstructions(): Workload {
  const task = loadTrajectory('django__django-11119').messages[1]!.content;
  const instructions = /<instructions>\n([\s\S]*?)\n<\/instructions>/.exec(task)?.[1] ?? task;
  const question = 'Given these instructions, which files am I allowed to modify?';
  const content = `${Array.from({ length: 40 }, () => instructions).join('\n\n')}\n\n${question}`;
  return {
    id: 'instructions-pasted-40x',
    category: 'RAG and tool-heavy',
    pattern: 'the same instructions pasted 40 times',
    question,
    body: { model: MODEL, messages: [{ role: 'system', content: CHAT_SYSTEM }, { role: 'user', content }] },
    facts: ['MODIFY: Regular source code files in /testbed', 'DO NOT MODIFY: Tests, configuration files'],
    source: 'the <instructions> block of django__django-11119\'s task (mini-swe-agent), 40 copies then the question; facts: the two boundary rules the answer quotes',
  };
}

/** octokit's recorded release-asset upload conflict, returned whole by an HTTP tool. */
function apiConversation(): Workload {
  const text = readShared('json', 'github-api', 'release-assets-conflict.json');
  const question = 'The release upload script failed. Which request failed, and what did GitHub say?';
  return {
    id: 'github-api-conflict',
    category: 'logs and data',
    pattern: 'a recorded API conversation (JSON) returned by a tool',
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command: 'cat recordings/release-assets-conflict.json' } }, text),
    facts: ['already_exists', 'Validation Failed', 'assets?name=test-upload.txt'],
    source: 'json/github-api/release-assets-conflict.json (octokit/fixtures); facts: the recorded 422 response (error code and message) and the failing request\'s path',
  };
}

export function dataWorkloads(): Workload[] {
  return [accessLog(), metricsSpike(), testcaseArray(), toolManifest(), repeatedInstructions(), apiConversation()];
}
