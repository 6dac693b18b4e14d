/** A pytest run pasted without a fence is one span, banner to count line, whatever its paragraphs read as. */
import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest } from '../../../src/core/chat';
import { pastedTestRunSpans } from '../../../src/core/chat/pastedTestRuns';
import { cleanTestOutput } from '../../../src/core/content/testOutput';
import { itWithData, loadTrajectory } from '../../support/sharedData';

/** A pytest run as a console prints it: banner, header paragraphs, progress, one failure quoting its test's source, count line. */
const RUN = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.4, pytest-7.4.0, pluggy-1.3.0',
  '',
  'Running tests with Shopkeep version 2.1.',
  '',
  'Package versions:',
  'Numpy: 1.25.2',
  '',
  'rootdir: /repo',
  'collected 40 items',
  '',
  'tests/test_cart.py .........F..........                                  [ 50%]',
  'tests/test_tax.py ....................                                   [100%]',
  '',
  '=================================== FAILURES ===================================',
  '______________________________ test_cart_total ________________________________',
  '',
  '    def test_cart_total():',
  '        cart = Cart([Item(3), Item(4)])',
  '>       assert cart.total() == 8',
  'E       assert 7 == 8',
  '',
  'tests/test_cart.py:22: AssertionError',
  '=========================== short test summary info ============================',
  'FAILED tests/test_cart.py::test_cart_total - assert 7 == 8',
  '========================= 1 failed, 39 passed in 0.84s =========================',
].join('\n');

function pasted(content: string): { text: string; start: number; end: number }[] {
  return findToolOutputs(parseRequest({ model: 'm', messages: [{ role: 'system', content: 's' }, { role: 'user', content }] })).map((segment) => ({ text: segment.text, start: segment.start, end: segment.end }));
}

describe('a pytest run pasted without a fence', () => {
  it('is found from its banner to its count line, the words around it left to the user', () => {
    const content = `Which tests failed and why? Ignore the passed ones.\n\n${RUN}\n\nThe CI job is red since this morning.`;
    const segments = pasted(content);
    assert.equal(segments.length, 1, JSON.stringify(segments.map((segment) => segment.text.slice(0, 40))));
    assert.equal(segments[0]!.text, RUN);
    assert.equal(content.slice(segments[0]!.end), '\n\nThe CI job is red since this morning.');
  });

  it('takes nothing without the closing count line (a run cut short is read paragraph by paragraph)', () => {
    const cut = RUN.split('\n').slice(0, -1).join('\n');
    assert.deepEqual(pastedTestRunSpans(`Why?\n\n${cut}`), []);
  });

  it('finds two runs one after the other as two spans', () => {
    const text = `First run:\n${RUN}\n\nSecond run:\n${RUN}`;
    const spans = pastedTestRunSpans(text);
    assert.equal(spans.length, 2);
    for (const span of spans) assert.equal(text.slice(span.start, span.end), RUN);
  });
});

/** A unittest run as Django's runner prints it: chatter, progress row, two failures, count and verdict. */
const UNITTEST_RUN = [
  '..EF.s',
  '======================================================================',
  'ERROR: test_refund (shop.tests.RefundTests)',
  '----------------------------------------------------------------------',
  'Traceback (most recent call last):',
  '  File "/repo/shop/tests.py", line 40, in test_refund',
  '    refund(order)',
  'KeyError: \'total\'',
  '',
  '======================================================================',
  'FAIL: test_tax (shop.tests.TaxTests)',
  '----------------------------------------------------------------------',
  'Traceback (most recent call last):',
  '  File "/repo/shop/tests.py", line 55, in test_tax',
  '    self.assertEqual(tax(10), 2)',
  'AssertionError: 1 != 2',
  '',
  '----------------------------------------------------------------------',
  'Ran 6 tests in 0.021s',
  '',
  'FAILED (failures=1, errors=1, skipped=1)',
].join('\n');

describe('a unittest run pasted without a fence', () => {
  it('is found from its progress row to its verdict, the words before and after it left to the user', () => {
    const content = `Which tests fail?\n\n${UNITTEST_RUN}\n\nIt passed yesterday.`;
    const spans = pastedTestRunSpans(content);
    assert.equal(spans.length, 1);
    assert.equal(content.slice(spans[0]!.start, spans[0]!.end), UNITTEST_RUN);
    const segments = pasted(content);
    assert.ok(segments.some((segment) => segment.text === UNITTEST_RUN), JSON.stringify(segments.map((segment) => segment.text.slice(0, 40))));
  });

  it('takes the runner\'s chatter right above and below it (Django\'s test database lines) as part of the run', () => {
    const above = 'Creating test database for alias \'default\'...\nCloning test database for alias \'default\'...\nSystem check identified no issues (0 silenced).';
    const below = 'Destroying test database for alias \'default\'...\nDestroying test database for alias \'default\'...';
    const run = `${above}\n${UNITTEST_RUN}\n${below}`;
    const content = `Which tests fail?\nI ran them twice.\n${run}\nIt passed yesterday.`;
    const spans = pastedTestRunSpans(content);
    assert.deepEqual(spans.map((span) => content.slice(span.start, span.end)), [run]);
    // A line of the user's own right above the run stays theirs, even one that names the chatter.
    const own = `Which tests fail? The Creating test database for alias step is slow.\n${UNITTEST_RUN}`;
    assert.deepEqual(pastedTestRunSpans(own).map((span) => own.slice(span.start, span.end)), [UNITTEST_RUN]);
  });

  itWithData('a real Django run pasted under a question: one span with its chatter, the unittest frames collapsed, every failing test and error kept', () => {
    const content = loadTrajectory('django__django-11138').messages[165]!.content;
    const run = [...content.matchAll(/<(output|output_head|output_tail)>\n?([\s\S]*?)\n?<\/\1>/g)].map((match) => match[2]!).join('\n').replace(/\n+$/, '');
    const question = 'Which tests fail, and why?';
    const text = `${question}\n\n${run}`;
    const spans = pastedTestRunSpans(text);
    assert.equal(spans.length, 1);
    assert.equal(text.slice(spans[0]!.start, spans[0]!.end), run, 'the span runs from the first chatter line to the last');
    assert.ok(/^Creating test database/.test(run) && /Destroying test database for alias '\w+'\.\.\.$/.test(run), 'the run opens and closes with chatter');
    const digest = cleanTestOutput(run, { question });
    assert.ok(digest.text.includes('… 2 library frames (unittest)'), digest.removed.join('; '));
    assert.ok(!/Creating test database|Destroying test database/.test(digest.text));
    for (const [, failing] of run.matchAll(/^(?:ERROR|FAIL): (\S+ \(\S+\))$/gm)) assert.ok(digest.text.includes(failing!), failing);
    for (const [, error] of run.matchAll(/^((?:\w+\.)*\w+Error: .*)$/gm)) assert.ok(digest.text.includes(error!), error);
    assert.ok(digest.text.length < run.length * 0.8, `${digest.text.length} of ${run.length}`);
  });

  it('starts at the first failure\'s rule when no progress row is pasted, and a passing run from its progress row', () => {
    const noRow = UNITTEST_RUN.split('\n').slice(1).join('\n');
    assert.deepEqual(pastedTestRunSpans(`Why?\n\n${noRow}`).map((span) => `Why?\n\n${noRow}`.slice(span.start, span.end)), [noRow]);
    const passing = '......\n----------------------------------------------------------------------\nRan 6 tests in 0.010s\n\nOK';
    assert.deepEqual(pastedTestRunSpans(`All good?\n${passing}`).map((span) => `All good?\n${passing}`.slice(span.start, span.end)), [passing]);
  });

  it('takes nothing without the verdict, nor a count line with no run above it', () => {
    assert.deepEqual(pastedTestRunSpans(`Why?\n\n${UNITTEST_RUN.split('\n').slice(0, -2).join('\n')}`), []);
    assert.deepEqual(pastedTestRunSpans('The log said\nRan 6 tests in 0.021s\n\nOK\nand then nothing.'), []);
  });
});

/** A jest console run: passing suites around one failure with its code frame, the summary lines at the end. */
const JEST_RUN = [
  ' PASS  src/cart.test.ts',
  ...Array.from({ length: 10 }, (_, index) => `  ✓ cart case ${index} adds up (${index + 1} ms)`),
  ' FAIL  src/invoice.test.ts',
  '  invoices',
  '    ✓ totals an invoice (4 ms)',
  '    ✕ applies the discount once (7 ms)',
  '',
  '  ● invoices › applies the discount once',
  '',
  '    expect(received).toEqual(expected) // deep equality',
  '',
  '    Expected: 90',
  '    Received: 81',
  '',
  '    > 41 |   expect(invoice.total).toEqual(90);',
  '         |                         ^',
  '',
  '      at Object.<anonymous> (src/invoice.test.ts:41:25)',
  '',
  ' PASS  src/tax.test.ts',
  ...Array.from({ length: 10 }, (_, index) => `  ✓ tax case ${index} rounds (${index + 1} ms)`),
  '',
  'Test Suites: 1 failed, 2 passed, 3 total',
  'Tests:       1 failed, 21 passed, 22 total',
  'Snapshots:   0 total',
  'Time:        2.314 s',
  'Ran all test suites.',
].join('\n');

describe('a jest run pasted without a fence', () => {
  it('is one span from its first suite line to its summary, the failure\'s frame and blank lines inside, the words around it left to the user', () => {
    const content = `Which test fails and why?\n\n${JEST_RUN}\n\nThanks!`;
    const segments = findToolOutputs(parseRequest({ model: 'm', messages: [{ role: 'system', content: 's' }, { role: 'user', content }] }));
    assert.equal(segments.length, 1);
    assert.equal(segments[0]!.text, JEST_RUN);
  });

  it('takes nothing without the summary, nor a summary with no suite line above it', () => {
    assert.deepEqual(pastedTestRunSpans(JEST_RUN.split('\n').slice(0, -5).join('\n')), []);
    assert.deepEqual(pastedTestRunSpans('Tests:       1 failed, 21 passed, 22 total'), []);
  });
});

