/** The page-term word split gives the runs the Unicode pattern it replaced gives. */
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { letterRuns } from '../../../src/core/knowledge/page';

const nonEmpty = (pieces: readonly string[]): string[] => pieces.filter((piece) => piece.length > 0);

describe('knowledge: letter runs of a page', () => {
  it('splits like /[^\\p{L}\\p{N}]+/u on mixed ASCII and other scripts', () => {
    const piece = fc.constantFrom('refund', 'ÉCOUTE', 'naïve', 'straße', 'İstanbul', '日本語', 'Ωmega', '𝒜stral', '😀', '١٢٣', '²', 'a\u0301', '—', '“', '’s', ' ', '  ', '\n', '-', '_', '.', ',', '42', 'x1', '\u00a0', '\u2028', '\ud800', 'ǅ');
    fc.assert(fc.property(fc.array(piece, { maxLength: 20 }), (pieces) => {
      const lower = pieces.join('').toLowerCase();
      assert.deepEqual(nonEmpty(letterRuns(lower)), nonEmpty(lower.split(/[^\p{L}\p{N}]+/u)));
    }), { numRuns: 2000, seed: 5 });
  });

  it('keeps ASCII text in one plain split', () => {
    assert.deepEqual(letterRuns('the refund window, 30 days.'), ['the', 'refund', 'window', '30', 'days', '']);
  });
});
