import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { realTexts } from '../../../test/support/realTexts';
import { bookkeepingKey, bookkeepingKeys } from './bookkeeping';

/** Deterministic generator (mulberry32), so a failing line can be found again. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = Math.imul(state ^ (state >>> 15), 1 | state);
    value = (value + Math.imul(value ^ (value >>> 7), 61 | value)) ^ value;
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces every bookkeeping pattern is built from, and the characters around them that decide a match. */
const PIECES = ['2024-01-05', 'T', ' ', '  ', '\t', '\r', '12:04:55', '.123', ',5', 'Z', '+02:00', 'Jan', 'Mon,', 'Sept', '/Jul/2022', '20240105-', 'abcdef12', '-abcd-', 'deadbeef', '0x1F', '10.0.0.1', ':8080', '5', '42', '123456', 'ms', 's', 'KB', 'MiB', 'id=', 'pid:', 'took=', 'x', 'req', '#', '[12]', '=', ':', '-', '.', '/', 'é', '→', 'worker', 'session', '_', 'abc', '\u00a0', '\v', '   '];

function generatedLine(next: () => number): string {
  let line = '';
  const length = 1 + Math.floor(next() * 14);
  for (let index = 0; index < length; index++) line += PIECES[Math.floor(next() * PIECES.length)];
  return line;
}

describe('bookkeepingKeys', () => {
  it('gives every line the key it has alone, on generated lines of every pattern\'s parts', () => {
    const next = random(29);
    for (let round = 0; round < 600; round++) {
      // Half the rounds without the rarer spaces (no-break, vertical tab): those texts are folded whole.
      const plain = round % 2 === 0;
      const lines = Array.from({ length: 1 + Math.floor(next() * 40) }, () => generatedLine(next)).map((line) => (plain ? line.replace(/[\u00a0\v]/g, ' ') : line));
      assert.deepEqual(bookkeepingKeys(lines), lines.map(bookkeepingKey), JSON.stringify(lines));
    }
  });

  it('keeps a line over the pattern limit, a line without a digit and an empty line as they are alone', () => {
    const lines = ['x'.repeat(4_001) + ' 2024-01-05', 'id=abc  and  more ', '', 'abcdefab-abcd-abcd-abcd-abcdefabcdef', 'took 5\rms'];
    assert.deepEqual(bookkeepingKeys(lines), lines.map(bookkeepingKey));
    assert.equal(bookkeepingKeys(lines)[1], 'id=<id> and more');
  });

  // Format detection counts on this (detect.ts, numberedLines): a file view's lines with distinct numbers have distinct keys.
  it('keeps the number of a file view\'s line (up to four digits before →) at the head of its key, whatever follows', () => {
    const tails = ['ms', 's = 5', ':30:00', '-01-02 10:00', '.5 KB', ' 2024-01-05T10:00:00Z', 'deadbeefcafe1234', '[12]', '99999', 'id=7', ' x', '', '→3'];
    const lines = [];
    for (const number of ['1', '12', '123', '1234', '0', '007']) for (const tail of tails) for (const indent of ['', '     ', '\t']) lines.push(`${indent}${number}→${tail}`);
    const keys = bookkeepingKeys(lines);
    lines.forEach((line, index) => {
      const number = /^\s*(\d+)→/.exec(line)![1]!;
      assert.ok(keys[index]!.startsWith(`${number}→`), `${JSON.stringify(line)} → ${JSON.stringify(keys[index])}`);
      assert.ok(bookkeepingKey(line).startsWith(`${number}→`), JSON.stringify(line));
    });
  });

  itWithData('keeps the number at the head of the key of every file view line in the shared client traffic', () => {
    const lines = realTexts(['clients']).flatMap(({ texts }) => texts.flatMap((text) => text.split('\n').filter((line) => /^[ \t]*\d{1,4}→/.test(line))));
    assert.ok(lines.length > 10_000, `only ${lines.length} numbered lines`);
    const keys = bookkeepingKeys(lines);
    // A line over the pattern limit is its own key, indent and all (and no shorter line's key is that long).
    lines.forEach((line, index) => assert.ok(keys[index]!.replace(/^[ \t]+/, '').startsWith(`${/^[ \t]*(\d+)→/.exec(line)![1]}→`), JSON.stringify(line)));
  });

  itWithData('gives every line of the shared logs the key it has alone', () => {
    for (const system of fs.readdirSync(sharedPath('logs'))) {
      const file = fs.readdirSync(sharedPath('logs', system)).find((name) => name.endsWith('.log'));
      if (!file) continue;
      const lines = fs.readFileSync(sharedPath('logs', system, file), 'utf8').split('\n');
      assert.deepEqual(bookkeepingKeys(lines), lines.map(bookkeepingKey), system);
    }
  });
});
