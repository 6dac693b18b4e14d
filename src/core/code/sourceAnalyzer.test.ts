import * as assert from 'node:assert/strict';
import { GrammarLoader, nodeModulesAssetLocator } from './grammarLoader';
import { openingBlocks, SourceAnalyzer } from './sourceAnalyzer';

const analyzer = new SourceAnalyzer(new GrammarLoader(nodeModulesAssetLocator()));
const options = { maxErrorShare: 0.2 };

const METHODS = [
  '        value = compute(self.items)',
  '        return value',
  '',
  '    def second(self):',
  '        total = 0',
  '        for item in self.items:',
  '            total += item',
  '        return total',
  '',
  'def third(x):',
  '    return x * 2',
];

describe('SourceAnalyzer', () => {
  it('parses a range read that starts inside a method, on the rows of the read', async () => {
    const analysis = await analyzer.analyze(METHODS.join('\n'), { path: 'a.py', firstLine: 120 }, options);
    assert.equal(analysis.status, 'parsed');
    if (analysis.status !== 'parsed') return;
    assert.deepEqual(analysis.symbols.units.map((unit) => [unit.name, unit.startRow, unit.endRow, unit.bodyRows?.first, unit.bodyRows?.last]), [
      ['second', 3, 7, 4, 7],
      ['third', 9, 10, 10, 10],
    ]);
    assert.equal(analysis.source.lineNumbers?.[3], 123);
  });

  it('remembers an analysis per text and hint, and drops the least recently used texts past its bound', async () => {
    const small = new SourceAnalyzer(new GrammarLoader(nodeModulesAssetLocator()), 3);
    const texts = ['def a():\n    return 1', 'def b():\n    return 2', 'def c():\n    return 3'];
    const first = await small.analyze(texts[0]!, { path: 'a.py' }, options);
    assert.equal(await small.analyze(texts[0]!, { path: 'a.py' }, options), first, 'the same text and hint: the same analysis');
    const otherHint = await small.analyze(texts[0]!, { path: 'a.py', firstLine: 7 }, options);
    assert.notEqual(otherHint, first, 'another hint is another analysis');
    assert.equal(otherHint.status === 'parsed' && otherHint.source.lineNumbers?.[0], 7);
    await small.analyze(texts[1]!, { path: 'b.py' }, options);
    // Three analyses kept; a fourth drops the least recently used text (the first, with both its analyses).
    await small.analyze(texts[2]!, { path: 'c.py' }, options);
    assert.notEqual(await small.analyze(texts[0]!, { path: 'a.py' }, options), first, 'dropped, so analysed again');
  });

  it('opens one block per indentation level above the first line', () => {
    assert.equal(openingBlocks(METHODS.join('\n')), 'if True:\n    if True:\n');
    assert.equal(openingBlocks('def f():\n    pass'), '');
  });

  it('parses an output tail that starts inside a docstring from its first definition on', async () => {
    const tail = ['    the rest of a docstring, with "quotes', '    and more words', '    """', '    return 1', '', 'def later(a, b):', '    c = a + b', '    return c'].join('\n');
    const analysis = await analyzer.analyze(tail, { path: 'a.py' }, options);
    assert.equal(analysis.status, 'parsed');
    if (analysis.status !== 'parsed') return;
    assert.deepEqual(analysis.symbols.units.map((unit) => [unit.name, unit.startRow]), [['later', 5]]);
  });

  it('reports code that does not parse, with the share of lines in error', async () => {
    const broken = Array.from({ length: 30 }, () => 'let = = ;; ))) {{ fn').join('\n');
    const analysis = await analyzer.analyze(broken, { path: 'a.rs', firstLine: 1 }, options);
    assert.equal(analysis.status, 'parse-failed');
    if (analysis.status === 'parse-failed') assert.match(analysis.reason, /^\d+% of the rust lines did not parse$/);
  });

  it('remembers an analysis per text', async () => {
    const one = await analyzer.analyze(METHODS.join('\n'), { path: 'b.py', firstLine: 1 }, options);
    const two = await analyzer.analyze(METHODS.join('\n'), { path: 'b.py', firstLine: 1 }, options);
    assert.equal(one, two);
  });

  it('names plain output as not source and an unknown extension as an unknown language', async () => {
    assert.equal((await analyzer.analyze('total 12\n-rw-r--r-- 1 root root 0 a', undefined, options)).status, 'not-source');
    assert.equal((await analyzer.analyze('local x = 1\nreturn x', { path: 'a.lua', firstLine: 1 }, options)).status, 'unknown-language');
  });
});
