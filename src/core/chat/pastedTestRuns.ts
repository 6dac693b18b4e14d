/**
 * A test run pasted without a fence: pytest's console output, from its `test session starts`
 * banner to its closing count line (`=== 4 failed, 170 passed in 3.21s ===`). Its header
 * paragraphs (platform, plugins, package versions) and the test sources quoted in its failures
 * read as prose paragraph by paragraph; the banners say where the run begins and ends.
 */
import type { BulkSpan } from './pastedBulk';

const SESSION_START = /^=+ test session starts =+[ \t]*$/gm;
/** pytest's closing line: counts of outcomes and the time taken, between rules of `=`. */
const SESSION_END = /^=+ (?:[^=\n]*\b(?:passed|failed|errors?|skipped|xfailed|xpassed|deselected|warnings?|no tests ran)\b[^=\n]*) in [\d.]+\s?s(?:econds)?\b[^=\n]*=+[ \t]*$/m;

/** Spans of pytest runs pasted in `text`, each from its opening banner to its closing count line. */
export function pastedTestRunSpans(text: string): BulkSpan[] {
  const spans: BulkSpan[] = [];
  let from = 0;
  for (const start of text.matchAll(SESSION_START)) {
    const index = start.index ?? 0;
    if (index < from) continue;
    const rest = text.slice(index);
    const end = SESSION_END.exec(rest);
    if (end === null) continue;
    const stop = index + (end.index ?? 0) + end[0].length;
    spans.push({ start: index, end: stop });
    from = stop;
  }
  return spans;
}
