/**
 * XML test reports inside a paste of data. A JUnit report's failure text may hold blank lines,
 * which would end a paragraph of data, and a report pasted beside a log is a document of its own:
 * it is found whole, from its declaration or root element to the root's closing tag, and kept
 * apart from the data around it so each is read as what it is.
 */
import type { BulkSpan } from './pastedBulk';

/** A JUnit-style XML report, from its declaration or root element to the root's closing tag. */
const XML_REPORT = /(?:<\?xml[^>]*>\s*)?<(testsuites|testsuite)\b[\s\S]*?<\/\1>/g;

/**
 * Where the XML test report a paragraph opens ends, when it runs past the paragraph (a failure's
 * text with blank lines in it); undefined otherwise.
 */
export function xmlReportEnd(text: string, paragraph: { readonly start: number; readonly end: number; readonly text: string }, limit: number): number | undefined {
  const opening = /^(?:<\?xml[^>]*>\s*)?<(testsuites|testsuite)\b/.exec(paragraph.text.trimStart());
  if (opening === null) return undefined;
  const closing = text.indexOf(`</${opening[1]}>`, paragraph.start);
  if (closing === -1 || closing + opening[1]!.length + 3 > limit) return undefined;
  const end = closing + opening[1]!.length + 3;
  return end > paragraph.end ? end : undefined;
}

/**
 * A run of data that holds a whole XML test report beside other data (a report pasted with the
 * log of the run): the report is a span of its own, and so is the data on each side of it, so
 * each is read as what it is (a report becomes its failures, a log its events).
 */
export function apartFromReports(text: string, run: BulkSpan): BulkSpan[] {
  const body = text.slice(run.start, run.end);
  if (!body.includes('</testsuite')) return [run];
  const parts: BulkSpan[] = [];
  let cursor = run.start;
  for (const report of body.matchAll(XML_REPORT)) {
    const start = run.start + (report.index ?? 0);
    const end = start + report[0].length;
    if (start > cursor && text.slice(cursor, start).trim() !== '') parts.push(trimmed(text, { start: cursor, end: start }));
    parts.push({ start, end });
    cursor = end;
  }
  if (parts.length === 0) return [run];
  if (cursor < run.end && text.slice(cursor, run.end).trim() !== '') parts.push(trimmed(text, { start: cursor, end: run.end }));
  return parts;
}

/** A span without the blank lines at its ends. */
function trimmed(text: string, span: BulkSpan): BulkSpan {
  let { start, end } = span;
  while (start < end && /\s/.test(text[start]!)) start++;
  while (end > start && /\s/.test(text[end - 1]!)) end--;
  return { start, end };
}
