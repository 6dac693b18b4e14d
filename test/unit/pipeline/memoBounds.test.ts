import { strict as assert } from 'node:assert';
import type { ChatMessage } from '../../../src/core/chat';
import { MessageMemo } from '../../../src/core/pipeline';
import { digestOf, sha256 } from '../../../src/core/pipeline/hash';
import { chainHashes } from '../../../src/core/pipeline/messageMemo';

function message(text: string): ChatMessage {
  return { role: 'tool', parts: [{ type: 'text', text }], contentShape: 'string' };
}

describe('MessageMemo bounds', () => {
  it('holds a 10,500-message history decided under two keys a message (the entry count alone once dropped the oldest)', () => {
    const memo = new MessageMemo();
    for (let index = 0; index < 10_500; index++) memo.decide(`chain-${index}`, message(`output ${index}`), undefined, undefined, [], `own-${index}`);
    assert.equal(memo.size, 21_000);
    assert.ok(memo.has('chain-0') && memo.has('chain-10499'));
  });

  it('is bounded by bytes: the oldest go first, the newest stays however large, and replacing an entry counts it once', () => {
    const memo = new MessageMemo(1_000, undefined, 10_000);
    for (let index = 0; index < 10; index++) memo.set(`k${index}`, message('x'.repeat(1_500)));
    assert.ok(memo.bytes <= 10_000, `${memo.bytes} bytes`);
    assert.ok(!memo.has('k0') && memo.has('k9'));
    const kept = memo.size;
    assert.ok(kept >= 5 && kept < 10, `${kept} kept`);
    const before = memo.bytes;
    memo.set('k9', message('x'.repeat(1_500)));
    assert.equal(memo.bytes, before);
    memo.set('huge', message('y'.repeat(50_000)));
    assert.equal(memo.size, 1);
    assert.ok(memo.has('huge'));
    memo.set('small', message('z'));
    assert.deepEqual([memo.has('huge'), memo.has('small')], [false, true]);
  });

  it('keeps its bound and every entry, hints included, through JSON', () => {
    const memo = new MessageMemo();
    const hinted: ChatMessage = { role: 'user', parts: [{ type: 'text', text: 'hello', extra: { cache_control: { type: 'ephemeral' } } }], contentShape: 'parts' };
    memo.decide('a', hinted, undefined);
    memo.set('b', message('world'));
    const restored = MessageMemo.fromJSON(JSON.parse(JSON.stringify(memo)));
    assert.deepEqual(restored.toJSON(), memo.toJSON());
    assert.equal(restored.bytes, memo.bytes);
  });

  it('chains the same hashes past its 20,000 remembered links as it first did, each link the SHA-256 of the one before and the message digest', () => {
    const messages = Array.from({ length: 25_000 }, (_, index) => message(`output ${index % 24_000}`));
    const expected: string[] = [];
    let previous = 'config';
    for (const each of messages) expected.push((previous = sha256(`${previous}\u0000${digestOf(each)}`)));
    assert.deepEqual(chainHashes('config', messages), expected);
    // Again, as the next turn re-sends the history: from the remembered links and new ones alike.
    assert.deepEqual(chainHashes('config', messages), expected);
    assert.deepEqual(chainHashes('config', messages.slice(0, 100)), expected.slice(0, 100));
  });
});
