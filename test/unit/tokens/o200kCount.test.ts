import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { countO200k, forgetPieces } from '../../../src/core/tokens/o200kCount';
import { bpeCount } from '../../../src/core/tokens/o200kBpe';
import { longRuns, pieceEnd } from '../../../src/core/tokens/o200kPieces';
import { expressionPieces, oracleTokens, referenceCount } from '../../support/bytePairOracle';
import { realTexts } from '../../support/realTexts';
import { itWithData } from '../../support/sharedData';
import { seededInts } from '../../support/seededInts';

const GPT_TOKENIZER_OPTIONS = { disallowedSpecial: new Set<string>() };

/** o200k_base's count (gpt-tokenizer's, but for U+FEFF, see bytePairOracle.ts). */
const expectedCount = referenceCount;

function scannerPieces(text: string): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; ) {
    const end = pieceEnd(text, start, text.length);
    pieces.push(text.slice(start, end));
    start = end;
  }
  return pieces;
}

/**
 * Characters of every class the expression tells apart: upper and title case, modifier and other
 * letters and marks (in both letter classes), lower case, digits and other numbers, spaces and
 * line breaks of several kinds, symbols, the slash, apostrophes and contraction letters, a
 * surrogate pair letter and number, an emoji, lone surrogates.
 */
const ALPHABET = ['a', 'b', 'Z', 'Q', 'ǅ', 'ʰ', 'ª', '\u0301', 'क', '\u093e', "'", 's', 'S', 't', 'l', 'L', 'v', 'e', 'E', 'r', 'R', 'd', 'm', 'D', ' ', ' ', '\n', '\r', '\t', '\u000b', '\u00a0', '\u3000', '\u2028', '\ufeff', '1', '2', '٣', 'Ⅷ', '²', '/', '.', '-', '_', '(', '"', '<', '|', '😀', '\ud800', '\udc00', '𝐀', '𝐚', '𝟙', 'é', 'ß', 'İ', '中'];

/**
 * Mostly ASCII, as real requests are: letters, digits, every ASCII space and line break, symbols
 * and control characters, with a few characters past 127 (a letter, a mark, a symbol, spaces) where
 * the ASCII ways must hand over to the general one.
 */
const ASCII_ALPHABET = ['a', 'z', 'A', 'Z', 's', "'", '0', '9', ' ', ' ', '\t', '\n', '\r', '\u000b', '\u000c', '/', '.', '-', '_', '(', '"', '#', '\u0000', '\u007f', '→', 'é', '\u0301', '\u00a0', '\u2028'];

/** Deterministic strings of up to 16 characters drawn from the alphabet. */
function* generated(count: number, alphabet = ALPHABET): Generator<string> {
  const next = seededInts(20_251_201);
  for (let index = 0; index < count; index++) {
    let text = '';
    const length = 1 + next(16);
    for (let position = 0; position < length; position++) text += alphabet[next(alphabet.length)];
    yield text;
  }
}

describe('o200k counting', () => {
  it('splits a text into the same pieces as o200k\'s regular expression, on strings of every character class', () => {
    let compared = 0;
    for (const text of generated(40_000)) {
      assert.deepEqual(scannerPieces(text), expressionPieces(text), JSON.stringify(text));
      compared++;
    }
    assert.equal(compared, 40_000);
  });

  it('splits mostly-ASCII strings as the expression does where the ASCII ways and the general one meet', () => {
    for (const text of generated(40_000, ASCII_ALPHABET)) assert.deepEqual(scannerPieces(text), expressionPieces(text), JSON.stringify(text));
    for (const text of generated(5_000, ASCII_ALPHABET)) assert.equal(countO200k(text), expectedCount(text), JSON.stringify(text));
  });

  it('counts what gpt-tokenizer counts, special-token strings as text', () => {
    for (const text of ['', 'hello', "We're here, aren't we? I'LL see.", '  indented\n\n\tcode();  \n', 'naïve café, 中文字符, emoji 😀👍🏽, math 𝐀𝐛𝐜 ²³', 'before <|endoftext|> after', '12345678 1.5e10 0x1F', '\r\n\r\n  \u00a0\u3000x']) {
      assert.equal(countO200k(text), expectedCount(text), JSON.stringify(text));
    }
    for (const text of generated(5_000)) assert.equal(countO200k(text), expectedCount(text), JSON.stringify(text));
  });

  it('merges each piece to as many tokens as the plain merge, and as gpt-tokenizer but for the byte-order mark', () => {
    // Pieces of the generated strings (lone surrogates, emoji, marks, CJK: byte tokens that are not
    // UTF-8), then pieces longer than the table keeps, a long run of spaces and of one symbol.
    const pieces = [...generated(3_000)].flatMap(scannerPieces);
    pieces.push('x'.repeat(300), `${'identifier_'.repeat(20)}end`, ' '.repeat(300), '-'.repeat(200), '中文字符'.repeat(20), '😀'.repeat(30), '\ud800'.repeat(20));
    let merged = 0;
    let marks = 0;
    for (const piece of pieces) {
      const expected = oracleTokens(piece).length;
      assert.equal(bpeCount(piece, 0, piece.length), expected, JSON.stringify(piece));
      if (piece.includes('\ufeff')) marks++;
      else assert.equal(expected, countTokens(piece, GPT_TOKENIZER_OPTIONS), JSON.stringify(piece));
      if (expected > 1) merged++;
    }
    assert.ok(merged > 1_000, `only ${merged} pieces of more than one token`);
    assert.ok(marks > 50, `only ${marks} pieces with a byte-order mark`);
    // The mark alone is one token (gpt-tokenizer makes it two), and it merges into the tokens that start with it.
    assert.deepEqual(oracleTokens('\ufeff'), [5574]);
    assert.equal(bpeCount('\ufeff', 0, 1), 1);
    assert.equal(countTokens('\ufeff', GPT_TOKENIZER_OPTIONS), 2);
    assert.equal(bpeCount('\ufeffusing', 0, 6), 1);
    // Strings longer than the scanned merge takes (a heap merges them), of every class, as one span.
    const next = seededInts(26_2);
    for (let round = 0; round < 20; round++) {
      let text = '';
      const length = 100 + next(120);
      for (let position = 0; position < length; position++) text += ALPHABET[next(ALPHABET.length)];
      assert.equal(bpeCount(text, 0, text.length), oracleTokens(text).length, JSON.stringify(text));
    }
    // Long runs too, against gpt-tokenizer (the plain merge is quadratic in copies).
    for (const piece of [' '.repeat(2_000), '\n'.repeat(3_000), `${' '.repeat(1_500)}\t${' '.repeat(700)}`, '-'.repeat(700), '中文字符'.repeat(40)]) assert.equal(bpeCount(piece, 0, piece.length), countTokens(piece, GPT_TOKENIZER_OPTIONS));
    // Inside a longer text, from the piece's own bounds.
    assert.equal(bpeCount('say unbelievably naïve', 3, 16), countTokens(' unbelievably', GPT_TOKENIZER_OPTIONS));
    assert.equal(bpeCount('a', 0, 0), 0);
  });

  it('counts the same after its piece tables are emptied, in the middle of a text set as at its start', () => {
    // Short ASCII pieces (the packed table), longer and non-ASCII ones (the string table).
    const texts = ['short ascii words and 1234 numbers', 'naïve café identifiers_longer_than_seven chars', ...generated(500)];
    const expected = texts.map(expectedCount);
    forgetPieces();
    assert.deepEqual(texts.map(countO200k), expected);
    forgetPieces();
    assert.deepEqual(texts.map((text, index) => {
      if (index === 250) forgetPieces();
      return countO200k(text);
    }), expected);
  });

  itWithData('counts what gpt-tokenizer counts on real texts of every kind in the shared data', function () {
    this.timeout(60_000);
    // A spread sample (every source, about 300,000 characters each); the bench checks every text.
    let compared = 0;
    for (const { folder, texts } of realTexts(['clients', 'trajectories', 'logs', 'test-reports', 'json', 'transcripts'])) {
      const total = texts.reduce((sum, text) => sum + text.length, 0);
      const stride = Math.max(1, Math.floor(total / 300_000));
      let taken = 0;
      for (let index = 0; index < texts.length; index += stride) {
        const text = texts[index]!.slice(0, 64 * 1024);
        assert.equal(countO200k(text), expectedCount(text), `${folder} text ${index}: ${JSON.stringify(text.slice(0, 80))}`);
        taken++;
      }
      assert.ok(taken > 0, folder);
      compared += taken;
    }
    assert.ok(compared > 50, `only ${compared} texts`);
  });

  it('finds the unbroken runs /\\S{1024,}/g finds, reading only around every 1024th character', () => {
    const texts = ['x'.repeat(1023), 'x'.repeat(1024), `a ${'y'.repeat(2_000)}\n${'z'.repeat(1_500)}\u00a0${'w'.repeat(1_100)}`, `${'😀'.repeat(600)} ${'\ud800'.repeat(1_024)}`, ' '.repeat(3_000), `${'q'.repeat(1_024)}\u3000`];
    for (const text of texts) {
      const expected = [...text.matchAll(/\S{1024,}/g)].map((match) => [match.index, match.index + match[0].length]);
      assert.deepEqual(longRuns(text, 1024), expected);
    }
    // Runs of every length around the stride, at every offset, between every kind of space.
    const run = fc.tuple(fc.integer({ min: 0, max: 2_600 }), fc.constantFrom('x', 'é', '\ud800', '😀'));
    const space = fc.constantFrom(' ', '\n', '\t', '\u00a0', '\u3000', '\u2028', '  ');
    fc.assert(fc.property(fc.array(fc.tuple(run, space), { maxLength: 8 }), fc.constantFrom(1, 3, 512, 1024), (parts, length) => {
      const text = parts.map(([[size, unit], gap]) => unit.repeat(Math.ceil(size / unit.length)) + gap).join('');
      const expected = [...text.matchAll(new RegExp(`\\S{${length},}`, 'g'))].map((match) => [match.index, match.index + match[0].length]);
      assert.deepEqual(longRuns(text, length), expected);
    }), { numRuns: 500, seed: 26 });
  });
});
