import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseRequest } from '../chat/convert';
import { findToolOutputs } from '../chat/toolOutput';
import { itWithData, loadTrajectory, sharedPath, trajectoryNames } from '../../../test/support/sharedData';
import { detectContentFormat } from './detect';
import { cleanTestOutput } from './testOutput';

const squash = (text: string): string => text.replace(/\s+/g, ' ');

/** What an expected summary lists: failed tests with their first message line, and the counts. */
function expectations(markdown: string): { failures: { name: string; message?: string }[]; counts?: [string, string, string] } {
  const lines = markdown.split('\n');
  const failures: { name: string; message?: string }[] = [];
  lines.forEach((line, index) => {
    const failed = /^\s*❌ (.+)$/.exec(line);
    if (failed === null) return;
    const next = lines[index + 1] ?? '';
    failures.push({ name: failed[1]!.trim(), message: next.startsWith('\t') && next.trim() !== '' ? next.trim() : undefined });
  });
  const counts = /with \*\*(\d+)\*\* passed, \*\*(\d+)\*\* failed and \*\*(\d+)\*\* skipped/.exec(markdown);
  return { failures, counts: counts === null ? undefined : [counts[1]!, counts[2]!, counts[3]!] };
}

describe('cleanTestOutput', () => {
  itWithData('keeps every failure, its message and the counts that expected/*.md lists', function () {
    this.timeout(30_000);
    const folder = sharedPath('test-reports');
    let checkedReports = 0;
    let checkedFailures = 0;
    for (const file of fs.readdirSync(`${folder}/expected`).sort()) {
      const markdown = fs.readFileSync(`${folder}/expected/${file}`, 'utf8');
      const source = /## [^\n]*?>fixtures\/([^<]+)<\/a>/.exec(markdown)?.[1];
      // A few expected summaries describe reports that are not in the shared set (.trx files).
      if (source === undefined || !fs.existsSync(`${folder}/${source}`)) continue;
      const text = fs.readFileSync(`${folder}/${source}`, 'utf8');
      assert.equal(detectContentFormat(text, { path: source }), 'test-output', `${source} detected`);
      const result = cleanTestOutput(text);
      const output = squash(result.text);
      const expected = expectations(markdown);
      for (const failure of expected.failures) {
        assert.ok(output.includes(squash(failure.name)), `${file}: failure "${failure.name}" kept`);
        if (failure.message !== undefined) assert.ok(output.includes(squash(failure.message)), `${file}: message "${failure.message}" kept`);
        checkedFailures++;
      }
      if (expected.counts !== undefined) {
        const [passed, failed, skipped] = expected.counts;
        assert.match(result.text.split('\n').pop()!, new RegExp(`\\b${passed} passed, ${failed} failed, ${skipped} skipped\\b`), `${file}: counts`);
      }
      assert.ok(result.text.length <= text.length, `${file}: not longer`);
      checkedReports++;
    }
    assert.ok(checkedReports >= 24, `${checkedReports} reports checked`);
    assert.ok(checkedFailures >= 30, `${checkedFailures} failures checked`);
  });

  itWithData('keeps the failures and the summary of real pytest runs from agent trajectories, and drops the rest', function () {
    this.timeout(30_000);
    let checked = 0;
    let before = 0;
    let after = 0;
    for (const name of trajectoryNames().filter((instance) => instance.startsWith('astropy'))) {
      const request = parseRequest({ model: 'gpt-4o', messages: loadTrajectory(name).messages });
      for (const segment of findToolOutputs(request)) {
        if (!/\bpytest\b/.test(segment.command ?? '') || !/^=+ .*\d+ (?:passed|failed).* =+$/m.test(segment.text)) continue;
        const result = cleanTestOutput(segment.text);
        const keep = segment.text.split('\n').filter((line) => /^(?:FAILED|ERROR) |^E {3}|^=+ .*\d+ (?:passed|failed)|^[\w/.-]+\.py:\d+: \w*(?:Error|Exception)\b/.test(line));
        for (const line of keep) assert.ok(result.text.includes(line), `${name}: "${line}" kept`);
        assert.ok(!/PASSED$/m.test(result.text), 'no passing test lines');
        before += segment.text.length;
        after += result.text.length;
        checked++;
      }
    }
    assert.ok(checked >= 5, `${checked} runs checked`);
    assert.ok(after < before * 0.8, `${after} of ${before} chars`);
  });

  itWithData('compacts a pytest run cut in two whose tail starts inside a traceback, keeping every E line, location and summary', function () {
    this.timeout(30_000);
    let checked = 0;
    let before = 0;
    let after = 0;
    for (const name of trajectoryNames()) {
      const request = parseRequest({ model: 'gpt-4o', messages: loadTrajectory(name).messages });
      for (const segment of findToolOutputs(request)) {
        const firstRule = segment.text.search(/^=+ .* =+$/m);
        const opening = firstRule < 0 ? segment.text : segment.text.slice(0, firstRule);
        // A tail: no session banner, and the text opens inside a failure (E lines before any section rule).
        if (!/\bpytest\b/.test(segment.command ?? '') || /test session starts/.test(segment.text) || !/^E\s/m.test(opening)) continue;
        const result = cleanTestOutput(segment.text);
        const keep = segment.text.split('\n').filter((line) => /^(?:FAILED|ERROR) |^E {3}|^=+ .*\d+ (?:passed|failed)|^[\w/.-]+\.py:\d+: \w*(?:Error|Exception|Warning)\b/.test(line));
        for (const line of keep) assert.ok(result.text.includes(line), `${name}: "${line}" kept`);
        before += segment.text.length;
        after += result.text.length;
        checked++;
      }
    }
    assert.ok(checked >= 2, `${checked} tails checked`);
    assert.ok(after < before * 0.8, `${after} of ${before} chars`);
  });

  it('drops passing tests and progress from console output of several runners', () => {
    const runs: { name: string; text: string; kept: string[]; dropped: string[] }[] = [
      {
        name: 'jest',
        text: [
          'PASS src/cart.test.ts',
          '  ✓ adds an item (3 ms)',
          'FAIL src/refund.test.ts',
          '  refunds',
          '    ✓ refunds in full (2 ms)',
          '    ✕ rounds to cents (5 ms)',
          '',
          '  ● refunds › rounds to cents',
          '',
          '    expect(received).toBe(expected)',
          '    Expected: 1000',
          '    Received: 999',
          '',
          '      at Object.<anonymous> (src/refund.test.ts:88:21)',
          '',
          'Tests:       1 failed, 2 passed, 3 total',
        ].join('\n'),
        kept: ['FAIL src/refund.test.ts', '✕ rounds to cents', '● refunds › rounds to cents', 'Received: 999', 'src/refund.test.ts:88:21', 'Tests:       1 failed, 2 passed, 3 total'],
        dropped: ['PASS src/cart.test.ts', 'adds an item', 'refunds in full'],
      },
      {
        name: 'go test',
        text: ['=== RUN   TestAdd', '--- PASS: TestAdd (0.00s)', '=== RUN   TestDivide', '    calc_test.go:19: expected 2, got 3', '--- FAIL: TestDivide (0.00s)', 'FAIL', 'FAIL\texample.com/calc\t0.004s'].join('\n'),
        kept: ['calc_test.go:19: expected 2, got 3', '--- FAIL: TestDivide (0.00s)', 'FAIL\texample.com/calc\t0.004s'],
        dropped: ['--- PASS: TestAdd', '=== RUN'],
      },
      {
        name: 'cargo test',
        text: ['running 3 tests', 'test math::adds ... ok', 'test math::halves ... FAILED', 'test math::skips ... ignored', '', 'failures:', '', "---- math::halves stdout ----", "thread 'math::halves' panicked at src/lib.rs:12:9:", 'assertion `left == right` failed', '', 'test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.00s'].join('\n'),
        kept: ['test math::halves ... FAILED', "panicked at src/lib.rs:12:9", 'test result: FAILED. 1 passed; 1 failed'],
        dropped: ['test math::adds ... ok'],
      },
      {
        name: 'TAP',
        text: ['TAP version 13', 'ok 1 - parses', 'not ok 2 - formats dates', '  ---', '  message: expected "2026-01-02"', '  at: test/dates.js:14:3', '  ...', 'ok 3 - trims', '1..3', '# pass 2', '# fail 1'].join('\n'),
        kept: ['not ok 2 - formats dates', 'expected "2026-01-02"', 'test/dates.js:14:3', '# fail 1', '1..3'],
        dropped: ['ok 1 - parses', 'ok 3 - trims'],
      },
      {
        name: 'mocha',
        text: ['  Stash', '    ✔ stores an original', '    ✔ retrieves by handle', '    1) expands markers', '', '  2 passing (12ms)', '  1 failing', '', '  1) Stash', '       expands markers:', '     AssertionError: expected "a" to equal "b"', '      at Context.<anonymous> (src/stash.test.ts:40:12)'].join('\n'),
        kept: ['1) expands markers', '2 passing (12ms)', '1 failing', 'AssertionError: expected "a" to equal "b"', 'src/stash.test.ts:40:12'],
        dropped: ['stores an original', 'retrieves by handle'],
      },
      {
        name: 'pytest -v',
        text: ['============================= test session starts ==============================', 'platform linux -- Python 3.11.8, pytest-8.1.1', 'plugins: cov-4.1.0', 'collected 3 items', '', 'tests/test_auth.py::test_login PASSED                                    [ 33%]', 'tests/test_auth.py::test_lockout FAILED                                  [ 66%]', 'tests/test_auth.py::test_logout PASSED                                   [100%]', '', '=================================== FAILURES ===================================', '_________________________________ test_lockout _________________________________', '', '    def test_lockout():', '        user = make_user()', '>       assert user.locked is True', 'E       assert False is True', '', 'tests/test_auth.py:42: AssertionError', '=========================== short test summary info ============================', 'FAILED tests/test_auth.py::test_lockout - assert False is True', '========================= 1 failed, 2 passed in 0.12s =========================='].join('\n'),
        kept: ['collected 3 items', 'test_lockout FAILED', '>       assert user.locked is True', 'E       assert False is True', 'tests/test_auth.py:42: AssertionError', 'FAILED tests/test_auth.py::test_lockout - assert False is True', '1 failed, 2 passed in 0.12s'],
        dropped: ['test_login PASSED', 'plugins: cov', 'user = make_user()'],
      },
    ];
    runs.push({
      name: 'vitest',
      text: [' ✓ src/cart.test.ts (3 tests) 4ms', ' ❯ src/refund.test.ts (2 tests | 1 failed) 7ms', '   ✓ refunds in full', '   × rounds to cents', '', '⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯', '', ' FAIL  src/refund.test.ts > rounds to cents', 'AssertionError: expected 999 to be 1000', ' ❯ src/refund.test.ts:9:20', '', ' Test Files  1 failed | 1 passed (2)', '      Tests  1 failed | 4 passed (5)'].join('\n'),
      kept: ['× rounds to cents', 'FAIL  src/refund.test.ts > rounds to cents', 'AssertionError: expected 999 to be 1000', 'src/refund.test.ts:9:20', 'Test Files  1 failed | 1 passed (2)', 'Tests  1 failed | 4 passed (5)'],
      dropped: ['src/cart.test.ts (3 tests)', 'refunds in full'],
    });
    for (const run of runs) {
      assert.equal(detectContentFormat(run.text), 'test-output', `${run.name} detected`);
      const result = cleanTestOutput(run.text);
      for (const line of run.kept) assert.ok(result.text.includes(line), `${run.name}: "${line}" kept`);
      for (const line of run.dropped) assert.ok(!result.text.includes(line), `${run.name}: "${line}" dropped`);
    }
  });

  it('reads a jest --json report', () => {
    const report = {
      numTotalTests: 3,
      testResults: [{
        name: '/repo/src/refund.test.ts',
        status: 'failed',
        assertionResults: [
          { fullName: 'refunds in full', status: 'passed', failureMessages: [] },
          { fullName: 'refunds rounds to cents', status: 'failed', failureMessages: ['Error: expect(received).toBe(expected)\n    at Object.<anonymous> (/repo/src/refund.test.ts:9:20)'], location: { line: 7, column: 3 } },
          { fullName: 'refunds later', status: 'pending', failureMessages: [] },
        ],
      }],
    };
    const text = JSON.stringify(report, null, 2);
    assert.equal(detectContentFormat(text), 'test-output');
    const result = cleanTestOutput(text);
    assert.equal(result.text, [
      'FAILED /repo/src/refund.test.ts › refunds rounds to cents (/repo/src/refund.test.ts:7)',
      '    Error: expect(received).toBe(expected)',
      '        at Object.<anonymous> (/repo/src/refund.test.ts:9:20)',
      'jest: 3 tests: 1 passed, 1 failed, 1 skipped',
    ].join('\n'));
  });

  it('reads a .NET TRX report', () => {
    const trx = [
      '<?xml version="1.0" encoding="utf-8"?>',
      '<TestRun id="1" xmlns="http://microsoft.com/schemas/VisualStudio/TeamTest/2010">',
      '  <Results>',
      '    <UnitTestResult testId="a" testName="Passing_Test" outcome="Passed" duration="00:00:00.001" />',
      '    <UnitTestResult testId="b" testName="Failing_Test" outcome="Failed" duration="00:00:00.003">',
      '      <Output><ErrorInfo><Message>Assert.Equal() Failure&#xD;&#xA;Expected: 2&#xD;&#xA;Actual:   1</Message>',
      '        <StackTrace>   at Calculator.Tests.Failing_Test() in C:\\src\\CalculatorTests.cs:line 22</StackTrace></ErrorInfo></Output>',
      '    </UnitTestResult>',
      '    <UnitTestResult testId="c" testName="Skipped_Test" outcome="NotExecuted" />',
      '  </Results>',
      '</TestRun>',
    ].join('\n');
    assert.equal(detectContentFormat(trx, { path: 'results.trx' }), 'test-output');
    const result = cleanTestOutput(trx);
    for (const kept of ['FAILED Failing_Test', 'Assert.Equal() Failure', 'Expected: 2', 'CalculatorTests.cs:line 22', 'trx: 3 tests: 1 passed, 1 failed, 1 skipped']) assert.ok(result.text.includes(kept), kept);
    assert.ok(!result.text.includes('Passing_Test'));
  });

  it('keeps passing tests the question asks about', () => {
    const text = ['  ✓ adds an item (3 ms)', '  ✓ refunds in full (2 ms)', '  ✕ rounds to cents (5 ms)', 'Tests: 1 failed, 2 passed, 3 total'].join('\n');
    const result = cleanTestOutput(text, { question: 'does the refunds test still pass?' });
    assert.ok(result.text.includes('refunds in full'));
    assert.ok(!result.text.includes('adds an item'));
  });

  it('keeps what a terminal shows of a progress bar and strips colour codes', () => {
    const result = cleanTestOutput('\u001b[32mbuilding\u001b[0m\n 10%\r 55%\r100% done\nTests: 1 failed, 1 total\n');
    assert.equal(result.text, 'building\n100% done\nTests: 1 failed, 1 total\n');
  });
});
