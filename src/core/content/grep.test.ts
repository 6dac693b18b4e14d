import * as assert from 'node:assert/strict';
import { parseRequest } from '../chat/convert';
import { findToolOutputs } from '../chat/toolOutput';
import { itWithData, loadTrajectory, trajectoryNames } from '../../../test/support/sharedData';
import { detectContentFormat } from './detect';
import { cleanGrep, MAX_FINDINGS_PER_FILE } from './grep';

describe('cleanGrep', () => {
  it('buckets hits by file and keeps exact paths and line numbers', () => {
    const text = [
      'src/billing/refund.ts:12:export function refund(order: Order) {',
      'src/billing/refund.ts:40:  return refund(order.parent);',
      'src/api/routes.ts:7:import { refund } from "../billing/refund";',
      'src/api/routes.ts:88:router.post("/refund", (request) => refund(request.body));',
    ].join('\n');
    assert.equal(detectContentFormat(text, { command: 'grep -rn refund src' }), 'grep');
    const result = cleanGrep(text);
    assert.equal(result.text, [
      'src/billing/refund.ts (2 hits)',
      '  12:export function refund(order: Order) {',
      '  40:  return refund(order.parent);',
      'src/api/routes.ts (2 hits)',
      '  7:import { refund } from "../billing/refund";',
      '  88:router.post("/refund", (request) => refund(request.body));',
    ].join('\n'));
  });

  it('folds hits that differ only in bookkeeping, never hits that differ in status code', () => {
    const hit = (line: number, time: string, status: number): string => `logs/access.log:${line}:${time} POST /api/checkout ${status} 12ms`;
    const lines = [...Array.from({ length: 21 }, (_, index) => hit(100 + index, `10:00:${String(index).padStart(2, '0')}`, 500)), hit(200, '10:01:00', 200)];
    const result = cleanGrep(lines.join('\n'));
    assert.equal(result.text, ['logs/access.log (22 hits)', '  100–120 (21 lines):10:00:00 POST /api/checkout 500 12ms [×21]', '  200:10:01:00 POST /api/checkout 200 12ms'].join('\n'));
  });

  it('folds hits of one shape past the first two to their line numbers, unless the question names something that tells them apart', () => {
    const calls = Array.from({ length: 7 }, (_, index) => `tests/test_tags.py:${20 + index * 3}:        output = self.engine.render_to_string('tag0${index}', {'a': ${index}})`);
    const lines = [...calls, 'tests/test_tags.py:90:    def test_other(self):'];
    const result = cleanGrep(lines.join('\n'), { question: 'Which test files call render_to_string?' });
    assert.equal(result.text, [
      'tests/test_tags.py (8 hits)',
      "  20:        output = self.engine.render_to_string('tag00', {'a': 0})",
      "  23:        output = self.engine.render_to_string('tag01', {'a': 1})",
      '  … 5 more hits of the same shape (lines 26,29,32,35,38)',
      '  90:    def test_other(self):',
    ].join('\n'));
    assert.ok(result.removed.some((line) => line.includes('5 hits folded into their shape')));
    // "tag05" is in one hit of seven: the question asks about it, so nothing of that shape folds.
    assert.equal(cleanGrep(lines.join('\n'), { question: 'where is tag05 rendered?' }).text.split('\n').length, 9);
    // Four of a shape are not enough to fold; hits shown with context lines never fold.
    assert.ok(!cleanGrep(lines.slice(3).join('\n')).text.includes('same shape'));
    const withContext = calls.flatMap((hit, index) => [hit, `tests/test_tags.py-${21 + index * 3}-        self.assertEqual(output, '')`]);
    assert.ok(!cleanGrep(withContext.join('\n')).text.includes('same shape'));
  });

  it('caps distinct findings per file after folding', () => {
    const lines = Array.from({ length: MAX_FINDINGS_PER_FILE + 10 }, (_, index) => `a/big.py:${index + 1}:value_${index} = compute_${index}()`);
    const result = cleanGrep(lines.join('\n'));
    assert.ok(result.text.includes(`a/big.py (${MAX_FINDINGS_PER_FILE + 10} hits)`));
    assert.ok(result.text.includes('… 10 more distinct hits (10 matches) in this file'));
  });

  it('never caps away a finding that mentions the question', () => {
    const lines = Array.from({ length: MAX_FINDINGS_PER_FILE + 10 }, (_, index) => `a/big.py:${index + 1}:value_${index} = compute_${index}()`);
    const late = MAX_FINDINGS_PER_FILE + 5;
    const result = cleanGrep(lines.join('\n'), { question: `where is compute_${late} defined?` });
    assert.ok(result.text.includes(`${late + 1}:value_${late} = compute_${late}()`));
    assert.ok(result.text.includes('… 9 more distinct hits (9 matches) in this file'));
  });

  it('leaves output that does not parse as hits alone', () => {
    const text = 'grep: src: Is a directory\nUsage: grep [OPTION]... PATTERNS [FILE]...\nTry more options';
    const result = cleanGrep(text);
    assert.equal(result.changed, false);
    assert.equal(result.text, text);
  });

  it('does not take file names with dashes and digits for context lines', () => {
    const text = ['astropy/table:', '__init__.py', '_np_utils.cpython-39-x86_64-linux-gnu.so', '_np_utils.pyx', 'bst.py'].join('\n');
    assert.equal(cleanGrep(text).changed, false);
  });

  itWithData('keeps every hit\'s path and line number in real grep output from agent trajectories', function () {
    this.timeout(30_000);
    let checked = 0;
    for (const name of trajectoryNames().slice(0, 50)) {
      const request = parseRequest({ model: 'gpt-4o', messages: loadTrajectory(name).messages });
      for (const segment of findToolOutputs(request)) {
        if (!/^grep -\w*r\w* /.test(segment.command ?? '')) continue;
        const result = cleanGrep(segment.text);
        if (!result.changed) continue;
        const buckets = bucketsOf(result.text);
        for (const line of segment.text.split('\n')) {
          const hit = /^([^\s:]+\.\w+):(?:(\d+):)?/.exec(line);
          if (hit === null) continue;
          const numbers = buckets.get(hit[1]!);
          assert.ok(numbers !== undefined, `${name}: file ${hit[1]} kept`);
          if (hit[2] === undefined) continue;
          const lineNumber = Number(hit[2]);
          assert.ok(numbers.some(([first, last]) => first <= lineNumber && lineNumber <= last), `${name}: ${hit[1]}:${hit[2]} kept`);
        }
        checked++;
      }
    }
    assert.ok(checked >= 5, `${checked} outputs checked`);
  });
});

/** Each file bucket's line numbers, as [first, last] ranges (a single line is [n, n]). */
function bucketsOf(text: string): Map<string, [number, number][]> {
  const buckets = new Map<string, [number, number][]>();
  let current: [number, number][] | undefined;
  for (const line of text.split('\n')) {
    const header = /^(\S.*) \(\d+ hits?\)$/.exec(line);
    if (header !== null) {
      current = [];
      buckets.set(header[1]!, current);
      continue;
    }
    const label = /^ {2}([\d,]+|\d+–\d+ \(\d+ lines\))[:-]/.exec(line);
    if (label === null || current === undefined) continue;
    const span = /^(\d+)–(\d+)/.exec(label[1]!);
    if (span !== null) current.push([Number(span[1]), Number(span[2])]);
    else for (const number of label[1]!.split(',')) current.push([Number(number), Number(number)]);
  }
  return buckets;
}
