import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import type { ChatMessage } from '../../chat/types';
import { includesName, nameGrams, NameIndex } from './nameSearch';

function message(text: string): ChatMessage {
  return { role: 'tool', parts: [{ type: 'text', text }] } as unknown as ChatMessage;
}

describe('edit_mask name search', () => {
  it('answers what text.includes answers, for names inside blocks, across their edges and longer than the overlap', () => {
    const index = new NameIndex();
    // A small alphabet, so names occur often and trigrams collide; texts of several blocks.
    const text = fc.array(fc.constantFrom('ab', 'c', 'd_e', '.', 'x', ' ', '\n', 'é'), { minLength: 0, maxLength: 5_000 }).map((pieces) => pieces.join(''));
    fc.assert(fc.property(text, fc.nat(), fc.integer({ min: 1, max: 150 }), fc.string({ maxLength: 8 }), (body, at, length, other) => {
      const entry = index.indexOf(message(body));
      const start = body.length === 0 ? 0 : at % body.length;
      const inside = body.slice(start, start + length);
      for (const name of [inside, other, `${inside}z`, 'zz']) {
        if (name.length === 0) continue;
        assert.equal(includesName(entry, name, nameGrams(name)), body.includes(name), JSON.stringify({ name, start }));
      }
    }), { numRuns: 300, seed: 26 });
  });

  it('finds a name that starts in one block and ends in the next, and one far into a long text', () => {
    const body = `${'x'.repeat(2_040)}needle_in_between${'y'.repeat(9_000)}far_needle`;
    const entry = new NameIndex().indexOf(message(body));
    for (const name of ['needle_in_between', 'far_needle', 'x'.repeat(70)]) assert.ok(includesName(entry, name, nameGrams(name)), name);
    assert.ok(!includesName(entry, 'needle_missing', nameGrams('needle_missing')));
  });
});
