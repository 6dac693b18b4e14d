import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { diffLines } from './lineDiff';

/** Applies zero-context hunks to `before`, the way `patch` would. */
function applyHunks(before: readonly string[], hunks: string): string[] {
  const out: string[] = [];
  let cursor = 0;
  const lines = hunks.length === 0 ? [] : hunks.split('\n');
  let index = 0;
  while (index < lines.length) {
    const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(lines[index]!);
    assert.ok(header, `a hunk header, got ${lines[index]}`);
    const [, oldStart, oldCount] = header.map(Number) as [number, number, number];
    const firstRemoved = oldCount === 0 ? oldStart : oldStart - 1;
    while (cursor < firstRemoved) out.push(before[cursor++]!);
    index++;
    while (index < lines.length && lines[index]!.startsWith('-')) {
      assert.equal(lines[index]!.slice(1), before[cursor]);
      cursor++;
      index++;
    }
    while (index < lines.length && lines[index]!.startsWith('+')) out.push(lines[index++]!.slice(1));
  }
  while (cursor < before.length) out.push(before[cursor++]!);
  return out;
}

describe('diffLines', () => {
  it('renders a one-line change as a zero-context hunk', () => {
    const diff = diffLines(['a', 'b', 'c'], ['a', 'B', 'c'], 10);
    assert.deepEqual(diff, { changedLines: 2, commonLines: 2, hunks: '@@ -2,1 +2,1 @@\n-b\n+B' });
  });

  it('gives up past the edit bound', () => {
    assert.equal(diffLines(['a', 'b', 'c', 'd'], ['w', 'x', 'y', 'z'], 3), undefined);
  });

  it('its hunks turn the old lines into the new ones (property)', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'd', 'e');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), fc.array(line, { maxLength: 30 }), (before, after) => {
        const diff = diffLines(before, after, 100);
        assert.ok(diff);
        assert.deepEqual(applyHunks(before, diff.hunks), after);
        assert.equal(diff.commonLines + diff.changedLines / 2, (before.length + after.length) / 2);
      }),
      { numRuns: 300, seed: 42 },
    );
  });

  it('gives a diff exactly when the shortest edit script fits the bound, and that script (property)', () => {
    // The shortest script's length from the longest common subsequence, by the textbook table.
    const shortest = (before: readonly string[], after: readonly string[]): number => {
      const table = Array.from({ length: before.length + 1 }, () => new Array<number>(after.length + 1).fill(0));
      for (let i = 1; i <= before.length; i++) {
        for (let j = 1; j <= after.length; j++) table[i]![j] = before[i - 1] === after[j - 1] ? table[i - 1]![j - 1]! + 1 : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
      }
      return before.length + after.length - 2 * table[before.length]![after.length]!;
    };
    const line = fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 24 }), fc.array(line, { maxLength: 24 }), fc.nat({ max: 30 }), (before, after, bound) => {
        const distance = shortest(before, after);
        const diff = diffLines(before, after, bound);
        assert.equal(diff !== undefined, distance <= bound);
        if (diff) assert.equal(diff.changedLines, distance);
      }),
      { numRuns: 2_000, seed: 26 },
    );
  });
});
