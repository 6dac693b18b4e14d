/** Folder tag overlap: only pairs sharing a tag are visited, and the mean is what every pair gives. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { meanTagOverlap } from '../../../src/core/knowledge/folders';
import type { Page } from '../../../src/core/knowledge/types';

/** The mean over every distinct pair, as the library computed it before: the reference. */
function everyPair(pages: readonly Page[]): number {
  let sum = 0;
  let pairs = 0;
  for (let left = 0; left < pages.length; left++) {
    for (let right = left + 1; right < pages.length; right++) {
      const a = new Set(pages[left]!.meta.tags);
      const b = pages[right]!.meta.tags;
      const shared = b.filter((tag) => a.has(tag)).length;
      const union = a.size + b.length - shared;
      sum += union === 0 ? 0 : shared / union;
      pairs++;
    }
  }
  return pairs === 0 ? 0 : sum / pairs;
}

const withTags = (tags: readonly string[]): Page => ({ meta: { tags } }) as unknown as Page;

describe('knowledge: folder tag overlap', () => {
  it('equals the mean over every pair to the last bit, repeated and missing tags included', () => {
    const tags = fc.array(fc.constantFrom('pricing', 'email', 'sales', 'voice', 'deal desk', 'a', 'b'), { maxLength: 5 });
    fc.assert(fc.property(fc.array(tags, { maxLength: 40 }), (lists) => {
      const pages = lists.map(withTags);
      assert.equal(meanTagOverlap(pages), everyPair(pages));
    }), { numRuns: 500, seed: 3 });
  });

  it('is 0 for fewer than two pages or no tags, 1 when every page has the same tags', () => {
    assert.equal(meanTagOverlap([]), 0);
    assert.equal(meanTagOverlap([withTags(['a'])]), 0);
    assert.equal(meanTagOverlap([withTags([]), withTags([])]), 0);
    assert.equal(meanTagOverlap([withTags(['a', 'b']), withTags(['b', 'a']), withTags(['a', 'b'])]), 1);
  });

  it('matches every pair on a folder of 1,500 pages', () => {
    const pages = Array.from({ length: 1500 }, (_, index) => withTags([`t${index % 17}`, `u${(index * 7) % 101}`, ...(index % 5 === 0 ? ['common'] : [])]));
    assert.equal(meanTagOverlap(pages), everyPair(pages));
  });
});
