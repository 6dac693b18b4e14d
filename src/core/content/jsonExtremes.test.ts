import * as assert from 'node:assert/strict';
import { cleanJson } from './json';
import { asksForExtreme, extremeRows } from './jsonExtremes';

/** Bytes per minute of 30 programs, each a short time series; one program peaks well inside the spread (no outlier). */
function series(): { metric: string; program: string; pointlist: [number, number][] }[] {
  return Array.from({ length: 30 }, (_, program) => ({
    metric: 'proxy.bytes_received',
    program: `app-${program}.exe`,
    pointlist: Array.from({ length: 3 }, (__, minute): [number, number] => [1_469_540_000 + minute * 60 + program, 1000 + ((program * 37 + minute * 11) % 400) + (program === 17 && minute === 1 ? 420 : 0)]),
  }));
}

describe('a question asking for an extreme keeps the rows holding it', () => {
  it('reads superlatives, not every question', () => {
    assert.equal(asksForExtreme('Which program received the most bytes in a single minute?'), true);
    assert.equal(asksForExtreme('When did latency peak?'), true);
    assert.equal(asksForExtreme('Which orders failed?'), false);
    assert.equal(asksForExtreme(undefined), false);
  });

  it('finds the largest and smallest value of every number path, tuples by position', () => {
    const rows = series();
    const kept = extremeRows(rows);
    assert.ok(kept.has(17), 'the row whose pointlist holds the largest value');
    const values = rows.map((row) => Math.min(...row.pointlist.map((point) => point[1])));
    assert.ok(kept.has(values.indexOf(Math.min(...values))), 'and the one holding the smallest');
    assert.ok(kept.size <= 8, `a handful of rows, not the array (${kept.size})`);
  });

  it('keeps the peak row of a summarised array for a question that asks for it, and only then', () => {
    const text = JSON.stringify({ status: 'ok', series: series() }, null, 2);
    const peak = '"app-17.exe"';
    const asked = cleanJson(text, { question: 'Which program received the most bytes in one minute?' });
    assert.ok(asked.text.includes(peak), 'the peak program stays');
    const other = cleanJson(text, { question: 'Which programs were seen?' });
    assert.ok(!other.text.includes(peak), 'without a superlative the row is summarised away (the rule is what keeps it)');
    assert.ok(asked.text.length < text.length / 2, 'the array is still summarised');
  });
});
