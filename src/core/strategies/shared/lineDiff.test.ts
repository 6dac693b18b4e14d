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
});
