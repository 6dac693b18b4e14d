import { strict as assert } from 'node:assert';
import { alignSites, formatMarker, guessSites, MemoryBlobStore, shiftSites, Stash, type ElisionLookup } from '../../../src/core/stash';

function newStash(): Stash {
  return new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(7) });
}

function lookupOf(stash: Stash): ElisionLookup {
  return (handle) => stash.issuedEntry(handle);
}

const LOG = Array.from({ length: 40 }, (_, index) => `line ${index} of the build log`).join('\n');
const TRACE = Array.from({ length: 25 }, (_, index) => `  at frame${index} (src/app.ts:${index + 1})`).join('\n');

describe('elision sites', () => {
  it('tells a new elision from a verbatim copy of its replacement standing in the same text', async () => {
    const stash = newStash();
    const log = stash.elide({ original: LOG, summary: '40 lines elided', kind: 'test', render: (marker) => `build output:\n${marker}` });
    // The text already quotes the replacement (the model pasted it back) before the strategy elides the log.
    const before = `earlier I saw ${log.replacement} and now:\n${LOG}\ndone`;
    const after = `earlier I saw ${log.replacement} and now:\n${log.replacement}\ndone`;
    const sites = alignSites(before, [], after, lookupOf(stash));
    assert.deepEqual(sites, [{ handle: log.handle, start: after.lastIndexOf(log.replacement), length: log.replacement.length }]);
    assert.equal(await stash.expandAt(after, sites!), before);
    // By text alone the quote is taken for the real one too.
    assert.notEqual(await stash.expandText(after), before);
  });

  it('places several elisions in one text and carries the sites of an earlier strategy along', async () => {
    const stash = newStash();
    const log = stash.elide({ original: LOG, summary: '40 lines elided', kind: 'first' });
    const trace = stash.elide({ original: TRACE, summary: '25 lines elided', kind: 'second', render: (marker) => `${marker}\n  (trace)` });
    const original = `a\n${LOG}\nb\n${TRACE}\nc`;
    const first = `a\n${log.replacement}\nb\n${TRACE}\nc`;
    const firstSites = alignSites(original, [], first, lookupOf(stash))!;
    assert.equal(firstSites.length, 1);
    const second = `a\n${log.replacement}\nb\n${trace.replacement}\nc`;
    const secondSites = alignSites(first, firstSites, second, lookupOf(stash))!;
    assert.deepEqual(secondSites.map((site) => [site.handle, site.start]), [[log.handle, 2], [trace.handle, second.indexOf(trace.replacement)]]);
    assert.equal(await stash.expandAt(second, secondSites), original);
  });

  it('makes the sites inside a newly elided span nested sites of it, and expands them inside the original', async () => {
    const stash = newStash();
    const inner = stash.elide({ original: LOG, summary: '40 lines elided', kind: 'inner' });
    const withInner = `header\n${inner.replacement}\nquoted: ${inner.replacement}\nfooter`;
    const innerSites = [{ handle: inner.handle, start: 'header\n'.length, length: inner.replacement.length }];
    const outer = stash.elide({ original: withInner, summary: 'whole output elided', kind: 'outer' });
    const after = `before ${outer.replacement} after`;
    const sites = alignSites(`before ${withInner} after`, shiftSites(innerSites, 'before '.length), after, lookupOf(stash))!;
    assert.deepEqual(sites, [{ handle: outer.handle, start: 'before '.length, length: outer.replacement.length, nested: innerSites }]);
    // Only the nested site expands inside the original: the quote in it stays a quote.
    const expected = `before header\n${LOG}\nquoted: ${inner.replacement}\nfooter after`;
    assert.equal(await stash.expandAt(after, sites), expected);
    assert.notEqual(await stash.expandText(after), expected, 'text alone expands the nested quote too');
  });

  it('gives no sites when the rewrite is not made of known replacements or cuts a site in half', () => {
    const stash = newStash();
    const log = stash.elide({ original: LOG, summary: '40 lines elided', kind: 'test' });
    assert.equal(alignSites(`x ${LOG} y`, [], `x ${log.replacement} z`, lookupOf(stash)), undefined, 'a change after the elision');
    assert.equal(alignSites(`x ${LOG} y`, [], `w ${log.replacement} y`, lookupOf(stash)), undefined, 'a change before the elision');
    assert.equal(alignSites('x y', [], 'x  y', lookupOf(stash)), undefined, 'an edit with no marker at all');
    const forged = formatMarker('40 lines elided', 'hr_abcdefghijklmnop');
    assert.equal(alignSites(`x ${LOG} y`, [], `x ${forged} y`, lookupOf(stash)), undefined, 'a marker of a handle the stash never issued');
    // The strategy elided a span that starts inside an earlier replacement.
    const half = stash.elide({ original: `${log.replacement.slice(5)} tail`, summary: 'half', kind: 'test' });
    const before = `x ${log.replacement} tail`;
    assert.equal(alignSites(before, [{ handle: log.handle, start: 2, length: log.replacement.length }], `x ${log.replacement.slice(0, 5)}${half.replacement}`, lookupOf(stash)), undefined);
  });

  it('guesses by text alone what expandText would expand, nested originals included', async () => {
    const stash = newStash();
    const inner = stash.elide({ original: LOG, summary: '40 lines elided', kind: 'inner' });
    const outer = stash.elide({ original: `see ${inner.replacement}`, summary: 'outer', kind: 'outer' });
    const text = `${outer.replacement} and ${inner.replacement} and ${formatMarker('9 lines', 'hr_abcdefghijklmnop')}`;
    const sites = guessSites(text, lookupOf(stash));
    assert.deepEqual(sites.map((site) => [site.handle, site.nested?.length ?? 0]), [[outer.handle, 1], [inner.handle, 0]]);
    assert.equal(await stash.expandAt(text, sites), await stash.expandText(text));
  });

  it('expandAt leaves a site alone when another text stands there, past the end, or when its handle is unknown', async () => {
    const problems: string[] = [];
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(7), onProblem: (code) => problems.push(code) });
    const log = stash.elide({ original: LOG, summary: '40 lines elided', kind: 'test' });
    const text = `a ${log.replacement} b`;
    assert.equal(await stash.expandAt(text, [{ handle: log.handle, start: 0, length: log.replacement.length }]), text, 'a site pointing at other text');
    assert.equal(await stash.expandAt(text, [{ handle: 'hr_abcdefghijklmnop', start: 2, length: log.replacement.length }]), text, 'an unknown handle');
    assert.equal(await stash.expandAt(text, [{ handle: log.handle, start: 2, length: log.replacement.length + 50 }]), text, 'past the end');
    assert.deepEqual(problems, ['elision-site-mismatch', 'elision-site-mismatch']);
    assert.equal(await stash.expandAt(text, []), text);
  });
});
