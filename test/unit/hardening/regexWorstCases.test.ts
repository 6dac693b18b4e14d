/**
 * Regular expressions the hardening bench found backtracking super-linearly on adversarial
 * lines. Each test runs the worst input the bench found at a size where a super-linear
 * pattern takes minutes and a linear one milliseconds, so the mocha timeout is the guard
 * (the figures themselves are in test/bench/hardening.bench.ts). Fixed ones run; the ones in
 * code other engineers own are skipped with the bug written down.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { extractMentions } from '../../../src/core/code/mentions';
import { withoutBanners } from '../../../src/core/content/testReports';
import { cleanHtml } from '../../../src/core/content/html';
import { splitSentences } from '../../../src/core/strategies/history/sentences';
import { splitUnits } from '../../../src/core/strategies/history/textUnits';
import { termsIn } from '../../../src/core/strategies/shared/terms';
import { compressDescription } from '../../../src/core/strategies/tools/descriptionText';
import { wordsOf } from '../../../src/core/strategies/tools/topicWords';

/** Big enough that quadratic backtracking takes minutes; linear work takes milliseconds. */
const LARGE = 256 * 1024;

describe('hardening: regular expressions on adversarial lines', function () {
  this.timeout(5_000);

  describe('Flutter banner lines (src/core/content/testReports.ts, fixed)', () => {
    // The pattern it replaces: cubic on a long line of spaces.
    const reference = (message: string): string => message.replace(/^[═╡╞ ]*[A-Z ]{6,}[═╡╞ ]*$/gm, '');

    it('empties exactly the lines the old pattern emptied', () => {
      const piece = fc.constantFrom('═', '╡', '╞', ' ', 'A', 'Z', 'x', '1', '\n', '\r', '\u2028', 'EXCEPTION CAUGHT');
      fc.assert(fc.property(fc.array(piece, { maxLength: 24 }).map((pieces) => pieces.join('')), (message) => {
        assert.equal(withoutBanners(message), reference(message));
      }), { numRuns: 3000, seed: 11 });
      assert.equal(withoutBanners('══╡ EXCEPTION CAUGHT BY FLUTTER TEST FRAMEWORK ╞═══\nExpected: 1\n════'), '\nExpected: 1\n════');
    });

    it('handles a 256 KB line of spaces and one of box characters', () => {
      assert.equal(withoutBanners(' '.repeat(LARGE)), '');
      assert.equal(withoutBanners(`${'═'.repeat(LARGE)}x`), `${'═'.repeat(LARGE)}x`);
    });
  });

  describe('patterns fixed after the bench found them quadratic (each on its worst 256 KB input)', () => {
    it('html: a line with a long run of spaces', () => {
      assert.ok(cleanHtml(`<p>a${' '.repeat(LARGE)}\u0001</p>`).text.includes('a'));
    });
    it('history sentences: a long run of letters and dots', () => {
      assert.equal(splitSentences(`${'a'.repeat(LARGE)}\u0001`).join(''), `${'a'.repeat(LARGE)}\u0001`);
    });
    it('history text units: a long run of backticks, and a long line of spaces', () => {
      assert.ok(splitUnits(`prose ${'`'.repeat(LARGE)}bash\n${' '.repeat(LARGE)}\n`).length > 0);
    });
    it('tool descriptions: a long run of spaces and tabs, and of capitals', () => {
      assert.ok(compressDescription(`Reads a file.${' \t'.repeat(LARGE / 2)}\u0001`).startsWith('Reads a file.'));
      assert.deepEqual(wordsOf(`${'A'.repeat(LARGE)}1`), [`${'a'.repeat(LARGE)}1`]);
      assert.deepEqual(wordsOf('parseHTTPServerURL'), ['parse', 'http', 'server', 'url']);
    });
  });

  // BUG (src/core/code/mentions.ts:29 PATH_LINE, owned by the code engineer): the file:line
  // pattern /((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z][\w]{0,7}):(\d+)(?::\d+)?/g nests [\w.-]+ inside
  // a starred group, so a long run of "-" (or word characters) with no ".ext:N" after it is
  // rescanned from every start position: extractMentions takes 2.6 s on a 16 KB line of
  // dashes and hours on a 1 MB one, synchronously (the strategy time limit cannot interrupt
  // it). A fix: find ":digits" first and match the path backwards from there, or cap the runs.
  it.skip('extractMentions on a 256 KB line of dashes', () => {
    assert.equal(extractMentions('-'.repeat(LARGE)).locations.length, 0);
  });

  // BUG (code other engineers own; found by the hardening bench, each over 1 s on a 1 MB
  // line): the pattern as it stands in the file, on the input that stalls it. Whether a 1 MB
  // line reaches it depends on the caller; each is quadratic where it is reached.
  const OTHERS: [string, RegExp, string][] = [
    ['src/core/content/html.ts:154 is fixed; src/core/strategies/shared/proseTidy.ts:48 and :126', /\s+$/, `${' '.repeat(LARGE)}x`],
    ['src/core/knowledge/checks.ts:102', /(?<=[.!?;])\s+|\s+-\s+|^\s*[-*]\s+/m, `${' '.repeat(LARGE)}x`],
    ['src/core/knowledge/markdown.ts:10', /\[\[([^\]|\n]+?)(?:\|[^\]\n]*)?\]\]/g, '['.repeat(LARGE)],
    ['src/core/knowledge/names.ts:51', /\([^)]*\)/g, '('.repeat(LARGE)],
    ['src/core/relevance/searchTokenizer.ts:30', /[\p{L}\p{N}_$]+[./\\:-]+[\p{L}\p{N}_$]+$/u, `${'a'.repeat(LARGE)}\u0001`],
  ];
  for (const [where, pattern, input] of OTHERS) {
    it.skip(`${where}: ${String(pattern).slice(0, 40)} on its worst 256 KB input`, () => {
      const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
      assert.ok([...input.matchAll(global)].length >= 0);
    });
  }

  // BUG (src/core/strategies/shared/terms.ts:43 `normalize`): /[./-]+$/ is tried at every
  // position of a run of "/", "." or "-" inside a term, and the term pattern lets such runs
  // through: termsIn takes 1.7 s on a 32 KB run of slashes (quadratic; half an hour at 1 MB).
  // Trim trailing punctuation with a loop from the end instead.
  it.skip('termsIn on a 256 KB run of slashes', () => {
    assert.ok(termsIn(`a${'/'.repeat(LARGE)}x`).size <= 2);
  });
});
