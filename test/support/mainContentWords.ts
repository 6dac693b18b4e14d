/**
 * The main-content measure of ../shared/data/html: the words a reader sees in each page's
 * `expected.html` (readability's own expected output), counted by a route independent of the
 * cleaner, and how many of them a cleaned text still has.
 */
import { decodeEntities } from '../../src/core/content/markup';

/** Inline elements render without a break, so their tags join the words around them. */
const INLINE = /^(?:a|span|b|i|em|strong|small|sup|sub|abbr|cite|code|mark|q|s|u|time|font|label|bdi|bdo|data|dfn|kbd|samp|var|del|ins|wbr|nobr|tt|big)$/i;

/** Word counts of the visible text of `html`. */
export function expectedWords(html: string): Map<string, number> {
  const withoutCode = html.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<!--[\s\S]*?-->/gi, ' ');
  const text = decodeEntities(withoutCode.replace(/<\/?([A-Za-z][A-Za-z0-9]*)[^>]*>/g, (_tag, name: string) => (INLINE.test(name) ? '' : ' ')));
  return words(text);
}

/** Word counts of plain text: runs of letters and digits, lower-cased. */
export function words(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  return counts;
}

/** Share of the expected words (with their counts) that `text` still has. */
export function keptShare(expected: ReadonlyMap<string, number>, text: string): number {
  const got = words(text);
  let total = 0;
  let kept = 0;
  for (const [word, count] of expected) {
    total += count;
    kept += Math.min(count, got.get(word) ?? 0);
  }
  return total === 0 ? 1 : kept / total;
}
