import * as assert from 'node:assert/strict';
import { shareSettles } from './lineShare';
import { seededInts } from '../../../test/support/seededInts';

describe('shareSettles', () => {
  it('answers as counting every line would, for thresholds met "at least" and "more than"', () => {
    const next = seededInts(11);
    for (let trial = 0; trial < 2_000; trial++) {
      const lines = Array.from({ length: 1 + next(30) }, () => (next(3) === 0 ? 'x' : 'y'));
      const share = lines.filter((line) => line === 'x').length / lines.length;
      const threshold = next(11) / 10;
      assert.equal(shareSettles(lines, (line) => line === 'x', (count) => count / lines.length >= threshold), share >= threshold, `${lines.join('')} ≥ ${threshold}`);
      assert.equal(shareSettles(lines, (line) => line === 'x', (count) => count / lines.length > threshold), share > threshold, `${lines.join('')} > ${threshold}`);
    }
  });

  it('stops reading once the answer is settled either way', () => {
    let read = 0;
    const passes = (line: string): boolean => {
      read++;
      return line === 'x';
    };
    assert.equal(shareSettles(['x', 'x', 'y', 'y', 'y', 'y'], passes, (count) => count / 6 >= 0.3), true);
    assert.equal(read, 2);
    read = 0;
    assert.equal(shareSettles(['y', 'y', 'y', 'x', 'x', 'x'], passes, (count) => count / 6 >= 0.6), false);
    assert.equal(read, 3);
  });
});
