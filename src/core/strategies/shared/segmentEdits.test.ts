import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest, type ChatRequest } from '../../chat';
import { paysForCacheWrite } from '../../pipeline/cacheEconomics';
import { MemoryBlobStore, Stash } from '../../stash';
import { TokenCounter } from '../../tokens';
import { SegmentEdits } from './segmentEdits';

const tokens = new TokenCounter(1000);
const LOG = Array.from({ length: 40 }, (_, index) => `line ${index}: worker ${index % 7} handled request ${1000 + index}`).join('\n');

/** An OpenAI conversation with one tool output in history (message 2) and one fresh (message 4). */
function request(): ChatRequest {
  const call = (id: string) => ({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'run', arguments: '{}' } }] });
  return parseRequest({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: 'check the workers' }, call('a'), { role: 'tool', tool_call_id: 'a', content: LOG }, call('b'), { role: 'tool', tool_call_id: 'b', content: LOG }],
  });
}

/** The first `share` of the output's lines, behind the marker: a rewrite that keeps that share. */
function keepingShare(share: number) {
  const lines = LOG.split('\n');
  const kept = lines.slice(0, Math.round(lines.length * share)).join('\n');
  return (marker: string): string => `${kept}\n${marker}`;
}

function edits(stash: Stash, cachedRewriteMinSavedShare: number): SegmentEdits {
  return new SegmentEdits('test', { stash, tokens, freshStart: 3, cachedRewriteMinSavedShare });
}

function newStash(store = new MemoryBlobStore()): Stash {
  return new Stash({ store, key: new Uint8Array(32) });
}

describe('SegmentEdits and the cache write of a history rewrite', () => {
  it('refuses a history rewrite that removes less than the share, and stashes nothing for it', async () => {
    const [history] = findToolOutputs(request());
    const store = new MemoryBlobStore();
    const stash = newStash(store);
    const collected = edits(stash, 0.4);
    assert.equal(collected.elide({ segment: history!, summary: 'trimmed', render: keepingShare(0.75) }), false);
    assert.equal(collected.count, 0);
    await stash.flush();
    assert.deepEqual(await store.list(), []);
    assert.equal(collected.elide({ segment: history!, summary: 'trimmed', render: keepingShare(0.3) }), true, 'one that removes more than the share is kept');
    assert.equal(collected.count, 1);
  });

  it('lets the same rewrite through for the fresh input (nothing cached yet) and with a lower share', () => {
    const [history, fresh] = findToolOutputs(request());
    assert.equal(fresh!.messageIndex, 4);
    assert.equal(edits(newStash(), 0.4).elide({ segment: fresh!, summary: 'trimmed', render: keepingShare(0.75) }), true);
    assert.equal(edits(newStash(), 0.1).elide({ segment: history!, summary: 'trimmed', render: keepingShare(0.75) }), true);
  });

  it('prices the break-even as the formula says', () => {
    assert.equal(paysForCacheWrite(1000, 600, 0.4), true);
    assert.equal(paysForCacheWrite(1000, 601, 0.4), false);
    assert.equal(paysForCacheWrite(1000, 999, 0), true);
  });
});
