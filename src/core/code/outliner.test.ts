import * as assert from 'node:assert/strict';
import { MemoryBlobStore, Stash, findMarkers } from '../stash';
import { GrammarLoader, nodeModulesAssetLocator } from './grammarLoader';
import { outlineSource } from './outliner';
import { SourceAnalyzer } from './sourceAnalyzer';

const analyzer = new SourceAnalyzer(new GrammarLoader(nodeModulesAssetLocator()));

const CODE = [
  'class Shop:',
  '    """A shop."""',
  '    rate = 2',
  '',
  '    def outer(self):',
  '        def inner(value):',
  '            value += 1',
  '            value *= 2',
  '            value -= 3',
  '            return value',
  '        total = inner(1)',
  '        return total',
  '',
  '    def other(self):',
  '        """Docs stay."""',
  '        a = 1',
  '        b = 2',
  '        c = 3',
  '        d = 4',
  '        return a + b + c + d',
];

async function outline(keep: (name: string) => boolean, numbered = false): Promise<{ text: string; original: string; stash: Stash }> {
  const original = numbered ? CODE.map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n') : CODE.join('\n');
  const analysis = await analyzer.analyze(original, { path: 'shop.py', firstLine: 1 }, { maxErrorShare: 0.2 });
  assert.equal(analysis.status, 'parsed');
  if (analysis.status !== 'parsed') throw new Error('unparsed');
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const result = outlineSource(analysis.source, analysis.symbols, (unit) => keep(unit.qualifiedName), stash, { minBodyLines: 5, kind: 'code_graph' });
  return { text: result.text, original, stash };
}

describe('outlineSource', () => {
  it('elides an outer function with what is nested in it, and keeps class headers, attributes and docstrings', async () => {
    const { text, original, stash } = await outline(() => false);
    assert.deepEqual(findMarkers(text).map((marker) => marker.summary), ['7 lines of outer elided', '5 lines of other elided']);
    for (const kept of ['class Shop:', '    """A shop."""', '    rate = 2', '    def outer(self):', '    def other(self):', '        """Docs stay."""']) assert.ok(text.split('\n').includes(kept), kept);
    assert.ok(text.includes('        [herald: 7 lines of outer elided'), 'the marker takes the body’s indentation');
    assert.equal(await stash.expandText(text), original);
  });

  it('keeps an outer function in full when something nested in it is kept', async () => {
    const { text } = await outline((name) => name === 'Shop.outer.inner');
    assert.ok(text.includes(CODE.slice(4, 12).join('\n')));
    assert.equal(findMarkers(text).length, 1);
  });

  it('keeps line-number prefixes on kept lines and indents the marker past them', async () => {
    const { text, original, stash } = await outline((name) => name === 'Shop.other', true);
    const originalLines = original.split('\n');
    assert.ok(text.includes(originalLines.slice(13, 20).join('\n')));
    assert.ok(text.includes(`${' '.repeat(7)}        [herald: 7 lines of outer elided`));
    assert.equal(await stash.expandText(text), original);
  });
});
