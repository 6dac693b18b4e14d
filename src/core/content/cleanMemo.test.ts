import * as assert from 'node:assert/strict';
import { cleanContent, cleaningsRemembered, forgetCleanings } from './index';
import { cleanedOnce } from './cleanMemo';
import type { CleanResult } from './types';

/** A log of `lines` lines that the log cleaner folds (one event repeated with changing numbers). */
function repeatedLog(lines: number, tag: string): string {
  return Array.from({ length: lines }, (_, line) => `2026-03-01T10:${String(line % 60).padStart(2, '0')}:00Z INFO worker-${line % 3} job ${line} took ${(line * 37) % 900} ms ${tag}`).join('\n');
}

const JSON_ROWS = JSON.stringify(Array.from({ length: 80 }, (_, index) => ({ id: index, name: `item ${index}`, colour: index % 7 === 0 ? 'red' : 'blue', notes: 'x'.repeat(40) })), null, 2);

describe('cleanMemo: each text cleaned once per format and question', () => {
  beforeEach(() => forgetCleanings());

  it('works a cleaning out once and serves the same result again, whatever hint settled the format', () => {
    const log = repeatedLog(300, 'a');
    const first = cleanContent(log, { format: 'log' });
    assert.equal(first.changed, true);
    assert.deepEqual(cleaningsRemembered(), { texts: 1, computed: 1 });
    // The same text found to be a log through its command: no second cleaning.
    const again = cleanContent(log, { command: 'cat app.log', question: 'why did it fail' });
    assert.deepEqual(again, first);
    assert.deepEqual(cleaningsRemembered(), { texts: 1, computed: 1 });
    // Another text is another cleaning.
    cleanContent(repeatedLog(300, 'b'), { format: 'log' });
    assert.deepEqual(cleaningsRemembered(), { texts: 2, computed: 2 });
  });

  it('keeps apart the questions of the cleaners that read one (JSON rows kept for their question)', () => {
    const red = cleanContent(JSON_ROWS, { format: 'json', question: 'which items are red' });
    const none = cleanContent(JSON_ROWS, { format: 'json' });
    assert.notEqual(red.text, none.text);
    assert.equal(cleaningsRemembered().computed, 2);
    assert.deepEqual(cleanContent(JSON_ROWS, { format: 'json', question: 'which items are red' }), red);
    assert.deepEqual(cleanContent(JSON_ROWS, { format: 'json' }), none);
    assert.equal(cleaningsRemembered().computed, 2);
    assert.deepEqual(cleaningsRemembered(), { texts: 1, computed: 2 });
  });

  it('does not remember a JSON cleaning that ranks rows with a scorer (a function is no key)', () => {
    let calls = 0;
    const clean = (): CleanResult => {
      calls++;
      return { text: 'kept', format: 'json', changed: true, removed: [] };
    };
    const rankRows = (): number[] => [];
    cleanedOnce(JSON_ROWS, 'json', { rankRows }, clean);
    cleanedOnce(JSON_ROWS, 'json', { rankRows }, clean);
    assert.equal(calls, 2);
    cleanedOnce(JSON_ROWS, 'json', {}, clean);
    cleanedOnce(JSON_ROWS, 'json', {}, clean);
    assert.equal(calls, 3);
  });

  it('does not remember prose, which comes back as it came (it would push out the logs worth keeping)', () => {
    const prose = 'The refund window is thirty days from delivery, and the customer keeps the receipt. '.repeat(20);
    const result = cleanContent(prose);
    assert.equal(result.format, 'text');
    assert.equal(result.text, prose);
    assert.deepEqual(cleaningsRemembered(), { texts: 0, computed: 0 });
  });

  it('gives each caller its own list of what was removed', () => {
    const log = repeatedLog(300, 'c');
    const first = cleanContent(log, { format: 'log' });
    assert.ok(first.removed.length > 0);
    const before = [...first.removed];
    first.removed.push('changed by a caller');
    assert.deepEqual(cleanContent(log, { format: 'log' }).removed, before);
  });

  it('remembers nothing of a cleaning that threw, and the next call tries again', () => {
    let calls = 0;
    const failing = (): CleanResult => {
      calls++;
      throw new Error('cleaner bug');
    };
    assert.throws(() => cleanedOnce('some text', 'log', {}, failing), /cleaner bug/);
    assert.throws(() => cleanedOnce('some text', 'log', {}, failing), /cleaner bug/);
    assert.equal(calls, 2);
    assert.deepEqual(cleaningsRemembered(), { texts: 0, computed: 0 });
  });
});
