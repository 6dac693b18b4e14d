import * as assert from 'node:assert/strict';
import { itWithData, loadTrajectory } from '../../../test/support/sharedData';
import { foldRepeatedFailures } from './repeatedFailures';
import { cleanTestOutput } from './testOutput';

/** A unittest failure block: the test's own frame, a shared helper frame, then the error. */
function unittestBlock(test: string, line: number, error: string, helper = 'login'): string[] {
  return [
    '======================================================================',
    `ERROR: ${test} (app.tests.AuthTests)`,
    '----------------------------------------------------------------------',
    'Traceback (most recent call last):',
    `  File "/repo/app/tests.py", line ${line}, in ${test}`,
    `    self.${helper}('ana')`,
    `  File "/repo/app/auth.py", line 12, in ${helper}`,
    '    return backend.connect()',
    error,
    '',
  ];
}

const SUMMARY = ['----------------------------------------------------------------------', 'Ran 9 tests in 0.2s', '', 'FAILED (errors=4)'];

describe('foldRepeatedFailures', () => {
  it('folds a unittest failure that repeats an earlier one\'s frames to its header and the frame that differs, keeping an error that differs', () => {
    const refused = 'ConnectionRefusedError: [Errno 111] Connection refused';
    const lines = [
      '.EEEE....',
      ...unittestBlock('test_login', 20, refused),
      ...unittestBlock('test_logout', 31, refused),
      ...unittestBlock('test_expired', 44, 'TimeoutError: timed out'),
      ...unittestBlock('test_admin', 58, refused, 'login_admin'),
      ...SUMMARY,
    ];
    const folded = foldRepeatedFailures(lines);
    assert.equal(folded.folded, 2);
    const text = folded.lines.join('\n');
    // The first of the frames stays whole; the repeat keeps its header and names where it differs.
    assert.ok(text.includes('line 20, in test_login\n'));
    assert.ok(text.includes('ERROR: test_logout (app.tests.AuthTests)\n  [same frames and error as test_login above; its own frame: File "/repo/app/tests.py", line 31, in test_logout]\n'));
    // The same frames with another error: the error stays under the fold.
    assert.ok(text.includes('ERROR: test_expired (app.tests.AuthTests)\n  [same frames as test_login above; its own frame: File "/repo/app/tests.py", line 44, in test_expired]\nTimeoutError: timed out\n'));
    // Another helper frame is another story: its block stays whole.
    assert.equal(text.split(refused).length - 1, 2);
    assert.ok(text.includes("    self.login_admin('ana')"));
    assert.deepEqual(folded.lines.slice(-4), SUMMARY);
    assert.equal(folded.lines.length, lines.length - folded.dropped);
  });

  it('folds pytest failures under FAILURES whose frames match, keeping the E lines of those whose values differ', () => {
    const block = (test: string, value: string): string[] => [
      `_________________________________ ${test} _________________________________`,
      '',
      `    def ${test}():`,
      '>       assert parse("x") == 1',
      `E       assert ${value} == 1`,
      '',
      `tests/test_parse.py:${test.length}: AssertionError`,
    ];
    const lines = ['=================================== FAILURES ===================================', ...block('test_a', '0'), ...block('test_b', '0'), ...block('test_c', '2'), '========================= 3 failed, 9 passed in 0.50s ========================='];
    const folded = foldRepeatedFailures(lines);
    assert.equal(folded.folded, 2);
    const text = folded.lines.join('\n');
    // pytest's location line does not name the test: the fold names no frame of its own.
    assert.ok(text.includes('test_b _________________________________\n  [same frames and error as test_a above]\n'), text);
    assert.ok(text.includes('test_c _________________________________\n  [same frames as test_a above]\nE       assert 2 == 1\n'), text);
    assert.ok(text.endsWith('3 failed, 9 passed in 0.50s ========================='));
    assert.equal(folded.lines.length, lines.length - folded.dropped);
  });

  it('leaves a run whose failures each go through their own frames, or with one failure, as it is', () => {
    const lines = ['.EE', ...unittestBlock('test_one', 5, 'KeyError: 1'), ...unittestBlock('test_two', 9, 'KeyError: 2', 'logout'), ...SUMMARY];
    assert.deepEqual(foldRepeatedFailures(lines), { lines, folded: 0, dropped: 0 });
    const single = ['.E', ...unittestBlock('test_one', 5, 'KeyError: 1'), ...SUMMARY];
    assert.equal(foldRepeatedFailures(single).folded, 0);
  });

  itWithData('in a real Django run, every failing test and each distinct error stays in the digest', () => {
    const content = loadTrajectory('django__django-10973').messages[49]!.content;
    const run = [...content.matchAll(/<(output|output_head|output_tail)>\n?([\s\S]*?)\n?<\/\1>/g)].map((match) => match[2]!).join('\n');
    const failing = [...run.matchAll(/^(?:ERROR|FAIL): (\S+ \(\S+\))$/gm)].map((match) => match[1]!);
    const errors = new Set([...run.matchAll(/^(\w+Error: .*)$/gm)].map((match) => match[1]!));
    assert.ok(failing.length >= 4 && errors.size >= 2, 'the run has repeated failures to fold');
    const digest = cleanTestOutput(run);
    assert.ok(digest.removed.some((line) => /failures that repeat an earlier one/.test(line)), digest.removed.join('; '));
    for (const name of failing) assert.ok(digest.text.includes(name), name);
    for (const error of errors) assert.ok(digest.text.includes(error), error);
    assert.ok(digest.text.length < run.length * 0.6, `${digest.text.length} of ${run.length}`);
  });
});
