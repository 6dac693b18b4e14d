import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { expectedWords, keptShare } from '../../../test/support/mainContentWords';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { cleanHtml } from './html';
import { decodeEntities } from './markup';

describe('cleanHtml', () => {
  itWithData('keeps at least 98% of the expected words of every page in the shared set', function () {
    this.timeout(60_000);
    const pages = fs.readdirSync(sharedPath('html')).sort();
    assert.equal(pages.length, 65);
    const failures: string[] = [];
    let sourceChars = 0;
    let cleanedChars = 0;
    for (const page of pages) {
      const source = fs.readFileSync(sharedPath('html', page, 'source.html'), 'utf8');
      const expected = expectedWords(fs.readFileSync(sharedPath('html', page, 'expected.html'), 'utf8'));
      const cleaned = cleanHtml(source);
      const kept = keptShare(expected, cleaned.text);
      if (kept < 0.98) failures.push(`${page}: ${(100 * kept).toFixed(1)}%`);
      sourceChars += source.length;
      cleanedChars += cleaned.text.length;
    }
    assert.deepEqual(failures, []);
    // The pages are mostly markup and scripts: the text is a small part of them.
    assert.ok(cleanedChars < sourceChars * 0.2, `cleaned ${cleanedChars} of ${sourceChars} chars`);
  });

  it('removes scripts, styles, navigation, footers and cookie banners, and keeps the text', () => {
    const html = `<!doctype html><html><head><title>Refunds</title><style>p{color:red}</style><script>var tracking = 1;</script></head>
      <body><nav><a href="/">Home</a> <a href="/about">About us</a></nav>
      <div class="cookie-banner"><p>We use cookies to improve your experience.</p><button>Accept</button></div>
      <main><h1>Refund policy</h1><p>Refunds are issued within <b>14 days</b>.</p>
      <ul><li>Keep the receipt</li><li>Return the item unused</li></ul>
      <table><tr><th>Plan</th><th>Window</th></tr><tr><td>Basic</td><td>14 days</td></tr></table></main>
      <footer>© 2026 Example Inc. All rights reserved.</footer></body></html>`;
    const result = cleanHtml(html);
    assert.equal(result.changed, true);
    assert.equal(result.text, ['Refunds', '', '# Refund policy', '', 'Refunds are issued within 14 days.', '', '- Keep the receipt', '- Return the item unused', '', 'Plan | Window', 'Basic | 14 days'].join('\n'));
    for (const gone of ['tracking', 'color', 'About us', 'cookies', 'Accept', 'rights reserved']) assert.ok(!result.text.includes(gone), gone);
    assert.ok(result.removed.some((line) => line.includes('cookie banner')));
  });

  it('decodes entities and survives malformed markup', () => {
    const result = cleanHtml('<div><p>Fish &amp; chips &lt;3 &#8364;5 &hellip;<p>a < b and c > d<div class="x">unclosed <span>text');
    assert.equal(result.text, 'Fish & chips <3 €5 …\n\na < b and c > d\n\nunclosed text');
  });

  it('decodes every HTML5 named reference, the legacy ones without a semicolon too, and leaves unknown names as written', () => {
    assert.equal(decodeEntities('x &le; y &ne; z &lambda; &notin; &Rarr; &NotEqualTilde; &copy 2024 &nosuchname;'), 'x \u2264 y \u2260 z \u03bb \u2209 \u21a0 \u2242\u0338 \u00a9 2024 &nosuchname;');
    assert.equal(cleanHtml('<p>O(n &log; n) &ge; &sum;&#x2009;a<sub>i</sub></p>').text, 'O(n &log; n) \u2265 \u2211\u2009ai');
  });

  it('drops a short label repeated in a row, never a repeated paragraph', () => {
    const paragraph = 'Lorem ipsum dolor sit amet, consectetur adipisicing elit, sed do eiusmod tempor.';
    const result = cleanHtml(`<div>US &amp; Canada</div><div>US &amp; Canada</div><p>${paragraph}</p><p>${paragraph}</p>`);
    assert.equal(result.text, `US & Canada\n\n${paragraph}\n\n${paragraph}`);
  });

  it('keeps preformatted text as it is', () => {
    const result = cleanHtml('<p>Run:</p><pre>npm  install\n  --save  x</pre><p>done</p>');
    assert.equal(result.text, 'Run:\n\nnpm  install\n  --save  x\n\ndone');
  });

  it('does not drop a page whose wrapper carries a chrome-looking class', () => {
    const result = cleanHtml('<body><div class="nav-open"><p>The whole article lives here, every word of it.</p></div></body>');
    assert.ok(result.text.includes('The whole article lives here'));
  });
});
