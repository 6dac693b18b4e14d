import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { RecentInRange } from './recentInRange';
import { comparableLineCounts } from '../contextDedupe';

/** What a scan back over every earlier item gives: the newest `limit` within [low, high]. */
function scanBack(items: readonly { size: number; id: number }[], low: number, high: number, limit: number): number[] {
  const out: number[] = [];
  for (let index = items.length - 1; index >= 0 && out.length < limit; index--) {
    const item = items[index]!;
    if (item.size >= low && item.size <= high) out.push(item.id);
  }
  return out;
}

describe('RecentInRange', () => {
  it('answers as a scan back over every earlier item would, after every addition', () => {
    fc.assert(fc.property(
      fc.array(fc.integer({ min: 1, max: 60 }), { maxLength: 80 }),
      fc.integer({ min: 0, max: 10 }),
      fc.array(fc.tuple(fc.integer({ min: 0, max: 70 }), fc.integer({ min: 0, max: 70 })), { minLength: 1, maxLength: 6 }),
      (sizes, keep, ranges) => {
        const index = new RecentInRange<number>(sizes, keep);
        const added: { size: number; id: number }[] = [];
        sizes.forEach((size, id) => {
          for (const [a, b] of ranges) {
            const [low, high] = a <= b ? [a, b] : [b, a];
            assert.deepEqual(index.newestWithin(low, high), scanBack(added, low, high, keep));
          }
          index.add(size, id);
          added.push({ size, id });
        });
      },
    ));
  });

  it('refuses a size it was not told about', () => {
    assert.throws(() => new RecentInRange<number>([3], 2).add(4, 0), /Herald: size 4/);
  });
});

describe('comparableLineCounts', () => {
  it('is exactly the counts the pairwise test accepts, rounding included', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 5000 }), fc.double({ min: 0, max: 1, noNaN: true }), (lines, similarity) => {
      const { low, high } = comparableLineCounts(lines, similarity);
      const comparable = (count: number): boolean => !(Math.min(count, lines) < Math.max(count, lines) * similarity);
      assert.ok(comparable(low) && comparable(Math.min(high, lines * 4 + 10)));
      if (low > 0) assert.ok(!comparable(low - 1), `${low - 1} is comparable too`);
      if (high < Number.MAX_SAFE_INTEGER) assert.ok(!comparable(high + 1), `${high + 1} is comparable too`);
    }));
  });
});
