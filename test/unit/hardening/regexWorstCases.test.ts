/**
 * Regular expressions the hardening bench found backtracking super-linearly on adversarial
 * lines. Each test runs the worst input the bench found at a size where a super-linear
 * pattern takes minutes and a linear one milliseconds, so the mocha timeout is the guard
 * (the figures themselves are in test/bench/hardening.bench.ts). A pattern replaced by a scan is
 * also checked against the pattern it replaces on many small generated inputs.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { extractMentions } from '../../../src/core/code/mentions';
import { splitStatements } from '../../../src/core/knowledge/checks';
import { findLinks, parseHeading, splitSections } from '../../../src/core/knowledge/markdown';
import { titleName } from '../../../src/core/knowledge/names';
import { lastTwoPieces, tokenizeForSearch } from '../../../src/core/relevance/searchTokenizer';
import { tidyProse } from '../../../src/core/strategies/shared/proseTidy';
import { withoutBanners } from '../../../src/core/content/testReports';
import { cleanHtml } from '../../../src/core/content/html';
import { splitSentences } from '../../../src/core/strategies/history/sentences';
import { splitUnits } from '../../../src/core/strategies/history/textUnits';
import { termsIn } from '../../../src/core/strategies/shared/terms';
import { compressDescription } from '../../../src/core/strategies/toolDescriptions/descriptionText';
import { wordsOf } from '../../../src/core/strategies/toolDescriptions/topicWords';

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

  /** Strings of pieces drawn from `pieces`, short enough for the reference patterns. */
  const textOf = (pieces: readonly string[], maxLength = 30): fc.Arbitrary<string> => fc.array(fc.constantFrom(...pieces), { maxLength }).map((chosen) => chosen.join(''));

  describe('patterns rewritten as one-pass scans after the bench found them quadratic (each against the pattern it replaces, then on its worst 256 KB input)', () => {
    it('extractMentions path:line (src/core/code/mentions.ts)', () => {
      const reference = /((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z][\w]{0,7}):(\d+)(?::\d+)?/g;
      // No quote, "sed", "+++" or "@@": the locations found are the path:line ones only.
      const pieces = ['a', 'Z', '_', '1', '42', '.', '.py', '.t', '.abcdefghi', '-', '/', '//', ':', ':7', ' ', '\n', '(', 'é', 'src/', 'b.py:3', 'x.ts:4:5'];
      fc.assert(fc.property(textOf(pieces), (text) => {
        const expected = [...text.matchAll(reference)].map((match) => ({ path: match[1]!, first: Number(match[2]), last: Number(match[2]) }));
        assert.deepEqual(extractMentions(text).locations, expected);
      }), { numRuns: 4000, seed: 21 });
      assert.deepEqual(extractMentions('at src/app.ts:17:5 and /x//lib/util.py:3, not a.py:x').locations, [
        { path: 'src/app.ts', first: 17, last: 17 },
        { path: 'lib/util.py', first: 3, last: 3 },
      ]);
      assert.equal(extractMentions('-'.repeat(LARGE)).locations.length, 0);
      assert.equal(extractMentions(`${'a'.repeat(LARGE)}:1 ${'a/'.repeat(LARGE / 2)}`).locations.length, 0);
      assert.deepEqual(extractMentions(`${'-'.repeat(LARGE)}.py:9`).locations.map((range) => range.path.length), [LARGE + 3]);
    });

    it('statements split (src/core/knowledge/checks.ts)', () => {
      const reference = /(?<=[.!?;])\s+|\s+-\s+|^\s*[-*]\s+/m;
      const pieces = ['a', 'b c', '.', '!', '?', ';', ' ', '\t', '\n', '\r', '\u2028', '\u00a0', '-', '*', '1.'];
      fc.assert(fc.property(textOf(pieces), (prose) => {
        assert.deepEqual(splitStatements(prose), prose.split(reference));
      }), { numRuns: 4000, seed: 22 });
      assert.deepEqual(splitStatements('- Refunds take 5 days. Credits - never expire; ok'), ['', 'Refunds take 5 days.', 'Credits', 'never expire;', 'ok']);
      assert.deepEqual(splitStatements(`${' '.repeat(LARGE)}x`), [`${' '.repeat(LARGE)}x`]);
      assert.equal(splitStatements(`${'\r'.repeat(LARGE)}x`).length, 1);
    });

    it('[[links]] (src/core/knowledge/markdown.ts)', () => {
      const reference = /\[\[([^\]|\n]+?)(?:\|[^\]\n]*)?\]\]/g;
      const pieces = ['[', '[[', ']', ']]', '|', '\n', 'a', ' b', 'Page'];
      fc.assert(fc.property(textOf(pieces), (body) => {
        assert.deepEqual(findLinks(body), [...new Set([...body.matchAll(reference)].map((match) => match[1]!.trim()))]);
      }), { numRuns: 4000, seed: 23 });
      assert.deepEqual(findLinks('[['.repeat(LARGE / 2)), []);
      assert.deepEqual(findLinks(`${'[[a|'.repeat(LARGE / 4)}\n[[Plans]]`), ['Plans']);
    });

    it('headings (src/core/knowledge/markdown.ts; cubic, found after the bench: its inputs start with the character they repeat)', () => {
      const reference = /^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/;
      const pieces = ['#', '##', ' ', '\t', 'a', 'C#', '\r', '\u2028', '#######', 'x y'];
      fc.assert(fc.property(textOf(pieces, 16), (line) => {
        const match = reference.exec(line);
        assert.deepEqual(parseHeading(line), match ? { level: match[1]!.length, text: match[2]! } : undefined);
      }), { numRuns: 6000, seed: 27 });
      assert.deepEqual(parseHeading(`# a${' '.repeat(LARGE)}x ##`), { level: 1, text: `a${' '.repeat(LARGE)}x` });
      assert.equal(splitSections('page', 'Page', `# a${' \t'.repeat(LARGE / 2)}b\ntext`).length, 1);
    });

    it('title names (src/core/knowledge/names.ts)', () => {
      // The rest of titleName as it stands, with the pattern it replaced; the pieces cannot spell a type word.
      const reference = (title: string): string => {
        const head = title.replace(/\([^)]*\)/g, ' ').split(/[:,—–|]| - /).map((part) => part.trim()).filter((part) => part.length > 0);
        return (head[0] ?? title).replace(/\s+/g, ' ').trim();
      };
      const pieces = ['(', ')', 'Dana', ' ', ',', ':', 'x', '\n'];
      fc.assert(fc.property(textOf(pieces), (title) => {
        assert.equal(titleName(title), reference(title));
      }), { numRuns: 4000, seed: 24 });
      assert.equal(titleName('Dana, the CFO (persona)'), 'Dana');
      assert.equal(titleName(`Dana${'('.repeat(LARGE)}`), `Dana${'('.repeat(LARGE)}`);
    });

    it('last two pieces of a compound (src/core/relevance/searchTokenizer.ts)', () => {
      const reference = /[\p{L}\p{N}_$]+[./\\:-]+[\p{L}\p{N}_$]+$/u;
      const pieces = ['a', 'é', '9', '_', '$', '.', '/', '\\', ':', '-', ' ', 'i\u0307', '\u{1d400}', '\ud800', '\udc00', '\u{1f600}', 'Z', '#'];
      fc.assert(fc.property(textOf(pieces), (text) => {
        assert.equal(lastTwoPieces(text), reference.exec(text)?.[0]);
      }), { numRuns: 4000, seed: 25 });
      assert.equal(lastTwoPieces('src/core/index.ts'), 'index.ts');
      assert.equal(lastTwoPieces(`${'a'.repeat(LARGE)}\u0001`), undefined);
      assert.equal(lastTwoPieces(`${'a'.repeat(LARGE)}.b`), `${'a'.repeat(LARGE)}.b`);
      assert.ok(tokenizeForSearch(`${'a'.repeat(LARGE)}.b.c`).includes('b.c'));
    });

    it('trailing space in prose tidying (src/core/strategies/shared/proseTidy.ts)', () => {
      const line = `${' '.repeat(LARGE)}x`;
      assert.equal(tidyProse(`\`\`\`text\n${line}\n\`\`\`  \nafter   words  `).text, `\`\`\`text\n${line}\n\`\`\`  \nafter words`);
      assert.equal(tidyProse(`a${line}`).text, 'a x');
    });

    it('terms (src/core/strategies/shared/terms.ts)', () => {
      const reference = (text: string): Set<string> => new Set([...text.matchAll(/[A-Za-z_][\w./-]*[\w]|\d{3,}/g)]
        .map((match) => match[0].toLowerCase().replace(/[./-]+$/, ''))
        .filter((term) => term.length >= 4 || /^\d+$/.test(term)));
      // The pieces cannot spell a common word, which termsIn leaves out.
      const pieces = ['a', 'Q', 'z9', '_', '.', '/', '-', '123', ' ', 'x.', '-/'];
      fc.assert(fc.property(textOf(pieces), (text) => {
        assert.deepEqual(termsIn(text), reference(text));
      }), { numRuns: 4000, seed: 26 });
      assert.ok(termsIn(`a${'/'.repeat(LARGE)}x`).size <= 2);
      assert.ok(termsIn(`${'-'.repeat(LARGE)}`).size === 0);
    });
  });
});
