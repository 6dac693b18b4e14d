/**
 * Test-run workloads: real reports from dorny/test-reporter's fixtures (facts from their
 * `expected/*.md` summaries) and a real pytest run from an agent trajectory (facts from the run's
 * own verdict lines).
 */
import { loadTrajectory } from '../sharedData';
import { containsFact } from './facts';
import type { Workload } from './types';
import { fencedUnder, freshToolResult, MODEL, AGENT_SYSTEM, readShared } from './shape';

/**
 * The failures an expected summary lists: each failing test's name, and the first line of its
 * message cut to the longest prefix (12 characters at least) that the report itself contains
 * verbatim (reports escape characters the summary shows plainly).
 */
export function expectedFailures(expectedFile: string, report: string): string[] {
  const lines = readShared('test-reports', 'expected', expectedFile).split('\n');
  const facts: string[] = [];
  lines.forEach((line, index) => {
    const failing = /^\s*❌ (.+)$/.exec(line);
    if (failing === null) return;
    const name = failing[1]!.trim();
    if (containsFact(report, name)) facts.push(name);
    const message = /^\t(.+)$/.exec(lines[index + 1] ?? '')?.[1]?.trim();
    if (message === undefined) return;
    for (let length = Math.min(message.length, 80); length >= 12; length--) {
      const prefix = message.slice(0, length).trim();
      if (containsFact(report, prefix)) {
        facts.push(prefix);
        break;
      }
    }
  });
  return [...new Set(facts)];
}

function report(path: string, expected: string, command: string, question: string, id: string, pattern: string): Workload {
  const text = readShared('test-reports', ...path.split('/'));
  return {
    id,
    category: 'logs and data',
    pattern,
    question,
    body: freshToolResult(question, { name: 'run_in_terminal', arguments: { command } }, text),
    facts: expectedFailures(expected, text),
    source: `test-reports/${path} as the result of \`${command}\`; facts: every failing test and its message's first line from expected/${expected}`,
  };
}

/** The pytest run in astropy-13236's trajectory that failed two tests (message 41). */
function pytestOutput(): string {
  const content = loadTrajectory('astropy__astropy-13236').messages[41]!.content;
  return /<output>\n([\s\S]*)<\/output>/.exec(content)?.[1] ?? content;
}

/** A pytest run's own verdict: the failing test ids, the error lines, the count line. */
export function pytestVerdict(output: string): string[] {
  const facts: string[] = [];
  for (const match of output.matchAll(/^FAILED (\S+)/gm)) facts.push(match[1]!);
  for (const match of output.matchAll(/^E\s+(\w*(?:Error|Exception): .+)$/gm)) facts.push(match[1]!.trim());
  const counts = /^=+ (\d+ failed.*?) in [\d.]+s =+$/m.exec(output);
  if (counts !== null) facts.push(counts[1]!);
  return [...new Set(facts)];
}

function pytestPasted(): Workload {
  const question = 'Why are these tests failing?';
  const output = pytestOutput().replace(/\n$/, '');
  return {
    id: 'pytest-run-pasted',
    category: 'logs and data',
    pattern: 'a pytest run pasted under a question',
    question,
    body: fencedUnder(question, output),
    facts: pytestVerdict(output),
    source: 'the pytest run of astropy__astropy-13236 (trajectory message 41) in a fenced block; facts: its FAILED ids, E error lines and count line',
  };
}

/**
 * The same pytest command run twice in one session, the second run differing in one test:
 * the flaky one. Planted: in the second run `test_ndarray_mixin` passes (its failure section,
 * FAILED line and count are rewritten to a pass).
 */
function flakyRuns(): Workload {
  const first = pytestOutput();
  const second = first
    .replace(/_{5,} test_ndarray_mixin _{5,}[\s\S]*?(?=={5,} short test summary info)/, '')
    .replace(/^FAILED astropy\/table\/tests\/test_mixin\.py::test_ndarray_mixin .*\n/m, '')
    .replace('2 failed, 185 passed, 6 skipped in 1.94s', '1 failed, 186 passed, 6 skipped in 2.07s');
  const question = 'I ran the mixin tests twice without changing anything. Which test is flaky?';
  const command = 'cd /testbed && pytest astropy/table/tests/test_mixin.py';
  const call = (id: string): unknown => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'run_in_terminal', arguments: JSON.stringify({ command }) } }] });
  return {
    id: 'flaky-test-runs',
    category: 'logs and data',
    pattern: 'two near-identical test runs in one session',
    question,
    body: {
      model: MODEL,
      messages: [
        { role: 'system', content: AGENT_SYSTEM },
        { role: 'user', content: question },
        call('call_1'),
        { role: 'tool', tool_call_id: 'call_1', content: first },
        call('call_2'),
        { role: 'tool', tool_call_id: 'call_2', content: second },
      ],
    },
    facts: ['astropy/table/tests/test_mixin.py::test_ndarray_mixin', 'astropy/table/tests/test_mixin.py::test_skycoord_representation', '2 failed, 185 passed, 6 skipped', '1 failed, 186 passed, 6 skipped'],
    source: 'the pytest run of astropy__astropy-13236 (trajectory message 41) twice as fresh tool results; facts: the flaky test, the steady failure and both count lines',
    planted: 'the second run is the first with test_ndarray_mixin passing (its failure section and FAILED line removed, the count line changed)',
  };
}

export function testRunWorkloads(): Workload[] {
  return [
    report('external/java/pulsar-test-report.xml', 'pulsar-test-results.md', 'cat target/surefire-reports/TEST-pulsar.xml', 'Which tests failed in this CI run, and why?', 'junit-xml-pulsar', 'a 130 KB JUnit report returned by a command'),
    report('external/flutter/provider-test-results.json', 'provider-test-results.md', 'flutter test --machine', 'Which test failed and with what error?', 'dart-json-provider', 'a machine-readable test run (dart JSON lines)'),
    report('golang-json.json', 'golang-json.md', 'go test -json ./...', 'Which tests failed and why?', 'go-test-json', 'go test -json output'),
    report('dotnet-nunit.xml', 'dotnet-nunit.md', 'cat TestResults/results.xml', 'Which tests failed and why?', 'nunit-xml', 'an NUnit report returned by a command'),
    pytestPasted(),
    flakyRuns(),
  ];
}
