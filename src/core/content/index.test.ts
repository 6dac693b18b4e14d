import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { cleanContent, forgetCleanings, cleanDiff, cleanFileListing, cleanGrep, cleanHtml, cleanJson, cleanLog, cleanStackTrace, cleanTestOutput } from './index';
import { MAX_CLEAN_CHARS } from './limits';
import type { ContentFormat } from './types';

const FORMATS: ContentFormat[] = ['html', 'json', 'test-output', 'log', 'file-listing', 'diff', 'stack-trace', 'grep', 'text'];

describe('cleanContent', () => {
  itWithData('never rewrites prose', () => {
    const folder = sharedPath('prose', 'paul-graham-essays');
    for (const essay of fs.readdirSync(folder).slice(0, 15)) {
      const text = fs.readFileSync(`${folder}/${essay}`, 'utf8');
      const result = cleanContent(text);
      assert.equal(result.format, 'text');
      assert.equal(result.changed, false);
      assert.equal(result.text, text);
      assert.deepEqual(result.removed, []);
    }
  });

  it('never throws, never grows the text, and is deterministic, whatever the input and format', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'binary' }), fc.constantFrom(...FORMATS, undefined), (text, format) => {
        const first = cleanContent(text, { format });
        // Worked out again, not served from what cleanContent remembers (cleanMemo.ts).
        forgetCleanings();
        const second = cleanContent(text, { format });
        assert.deepEqual(second, first);
        assert.ok(first.text.length <= text.length);
        if (!first.changed) assert.equal(first.text, text);
      }),
      { numRuns: 400, seed: 20261129 },
    );
  });

  it('cleans line-shaped random input of every format without throwing, each cleaner called directly', () => {
    const cleaners = [cleanDiff, cleanFileListing, cleanGrep, cleanHtml, cleanJson, cleanLog, cleanStackTrace, cleanTestOutput];
    const line = fc.oneof(
      fc.constantFrom('', '--', '@@ -1,2 +1,2 @@', '+x', '-y', ' z', '<div>', '</p>', '{"a":[1,2', 'ok 1 - x', 'not ok 2', '    at f (node_modules/x.js:1:1)', 'src/a.ts:3:hit', '├── a', 'a/b/c.py', '2026-01-01 10:00:00 ERROR x'),
      fc.string({ maxLength: 60 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 60 }), fc.constantFrom(...FORMATS), (lines, format) => {
        const text = lines.join('\n');
        const result = cleanContent(text, { format });
        assert.ok(result.text.length <= text.length);
        for (const clean of cleaners) {
          const direct = clean(text);
          if (!direct.changed) assert.equal(direct.text, text);
        }
      }),
      { numRuns: 300, seed: 7 },
    );
  });

  it('returns oversized, binary and pathological input unchanged or cleaned, without hanging', () => {
    const huge = 'x'.repeat(MAX_CLEAN_CHARS + 1);
    assert.equal(cleanContent(huge, { format: 'log' }).changed, false);
    const binary = '\u0000\u0001\u0002PNG\u0000\u0000IHDR\u0000'.repeat(1_000);
    assert.equal(cleanContent(binary).changed, false);
    // Inputs built to make careless patterns backtrack: long runs without the expected delimiter.
    const pathological = [
      'a'.repeat(200_000),
      `${'a:'.repeat(50_000)}\n`,
      `${'1'.repeat(100_000)}:\n`.repeat(3),
      `<${'a '.repeat(50_000)}`,
      `&${'#'.repeat(10_000)}`,
      `${'0'.repeat(64)}-`.repeat(5_000),
      `${' at '.repeat(30_000)}\n`,
      `${'<div>'.repeat(20_000)}${'</span>'.repeat(20_000)}`,
      `${'<li>'.repeat(20_000)}`,
      `    at ${'(:'.repeat(2_000)}\n`.repeat(20),
      `${'('.repeat(300)}${'x'.repeat(3_600)}\n`.repeat(20),
      `${'a'.repeat(499)}-1-`.repeat(8).concat('\n').repeat(20),
    ];
    for (const text of pathological) {
      for (const format of FORMATS) {
        const result = cleanContent(text, { format });
        assert.ok(result.text.length <= text.length, format);
      }
      cleanContent(text);
    }
  });

  it('passes the question to the JSON cleaner', () => {
    const rows = Array.from({ length: 60 }, (_, index) => ({ id: index, sku: `sku-${index}`, state: 'shipped' }));
    const result = cleanContent(JSON.stringify(rows), { question: 'where is sku-42?' });
    assert.equal(result.format, 'json');
    assert.ok(result.text.includes('"sku-42"'));
  });
});
