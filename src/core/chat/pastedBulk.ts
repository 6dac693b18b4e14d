/**
 * Bulk a person pasted into their message without a fence: a log, a listing, JSON, grep hits, a
 * test run, or a list of items (retrieved chunks, search results, candidates), around the words
 * they wrote. Found by shape, paragraph by paragraph, so the question above or below the paste
 * is never part of it. Everything here is a pure function of the message's text.
 */
import { detectContentFormat } from '../content/detect';
import { dataLineKind, dataLineShare } from '../content/dataLines';
import { apartFromReports, xmlReportEnd } from './pastedReports';
import { fencePath, headerLinePath } from './fileHeaders';
import { pastedFile } from './pastedFiles';

/** A span of pasted bulk inside a text. */
export interface BulkSpan {
  readonly start: number;
  readonly end: number;
}

/**
 * Pasted bulk shorter than this (lines, characters) is left to read as it is: below about 100
 * tokens no cut pays for its marker and the retrieve round it risks, even under a chat's short
 * prompt (priced in `strategies/shared/pastePays.ts`; each cut is priced again with its request).
 */
const MIN_LINES = 8;
const MIN_CHARS = 400;
/**
 * A run read as data by the content detector alone (a diff, a listing, a page), not line by line,
 * is taken from the sizes that held before pastes were split by unit: such runs are mostly what a
 * task quotes, and their cleaners keep each part whole.
 */
const MIN_FORMAT_LINES = 20;
const MIN_FORMAT_CHARS = 1_500;
/** A list of pasted items is looked for from this size (its items are ranked whole). */
const MIN_LIST_CHARS = 1_500;
/** A block whose lines are this share data of any kind (log lines, samples, spans, hits…) is data, mixed or not. */
const DATA_LINE_SHARE = 0.6;
/** A list of pasted items needs at least this many of them. */
const MIN_ITEMS = 5;

interface Paragraph {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/** Blank-line separated paragraphs, with their spans. */
function paragraphs(text: string, from: number, to: number): Paragraph[] {
  const found: Paragraph[] = [];
  const pattern = /\n[ \t]*\n/g;
  pattern.lastIndex = from;
  let start = from;
  for (let match = pattern.exec(text); match !== null && match.index < to; match = pattern.exec(text)) {
    if (match.index > start) found.push({ start, end: match.index, text: text.slice(start, match.index) });
    start = match.index + match[0].length;
  }
  if (start < to) found.push({ start, end: to, text: text.slice(start, to) });
  return found;
}

/**
 * The header of one item in a pasted list: `[3]`, `#3  id=… sim=…` (a hash-numbered line only
 * with a `field=value` on it: "#1 fix the login" is the user's own list), `### Candidate 3`,
 * `Document 3:`, `<doc id=3>`, `Source 3`. A Markdown heading counts only with a number in it:
 * the user's own sectioned text is theirs, not a list of pasted items.
 */
const ITEM_HEADER = /^(?:\[\d{1,4}\]|#\d{1,4}[ \t][^\n]{0,200}?\b\w+=\S|#{1,4} [^\n]{0,80}?\d|(?:Document|Doc|Chunk|Passage|Source|Result|Candidate|Snippet)\s*#?\d{1,4}\b|<(?:doc|document|chunk|passage)\b)/i;

/**
 * A paragraph that opens with the user's own words: a line that reads as a sentence (ends in
 * `?` or `:`, or says "Question:"), with what follows it on the next lines.
 */
function ownLead(paragraph: Paragraph): number {
  const firstBreak = paragraph.text.indexOf('\n');
  if (firstBreak === -1) return 0;
  const first = paragraph.text.slice(0, firstBreak).trim();
  return /[?:]$/.test(first) && /\s\S+\s/.test(first) && !/^\S+:\d/.test(first) ? firstBreak + 1 : 0;
}

function isData(text: string): boolean {
  return detectContentFormat(text) !== 'text' || dataLineShare(text.split('\n')) >= DATA_LINE_SHARE;
}

/**
 * A line the user typed: three words or more ending as a sentence does, and no line of data (a
 * Herald marker closing a cut paste is the paste's: it is found again the same way).
 */
function isSentence(line: string): boolean {
  const trimmed = line.trim();
  return /[?.!:]$/.test(trimmed) && /^\S+(?:\s+\S+){2,}/.test(trimmed) && !trimmed.includes('[herald: ') && dataLineKind(line) === undefined;
}

/**
 * A run of data without the lines of prose at its ends: a question typed on the line right after
 * a paste (or right above it) is the user's, never part of the paste.
 */
function trimProse(text: string, span: BulkSpan): BulkSpan {
  const body = text.slice(span.start, span.end);
  const lines = body.split('\n');
  let first = 0;
  let last = lines.length - 1;
  while (first < last && isSentence(lines[first]!)) first++;
  while (last > first && isSentence(lines[last]!)) last--;
  const start = span.start + lines.slice(0, first).reduce((sum, line) => sum + line.length + 1, 0);
  const end = start + lines.slice(first, last + 1).join('\n').length;
  return { start, end };
}

function lineCount(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}

/**
 * Runs of pasted bulk in a text, outside the spans already taken (fenced blocks, tagged output):
 * consecutive paragraphs that each read as data (by the content detector, or line by line: a paste
 * may mix logs, samples and spans), from 8 lines and 400 characters, less the lines of prose at
 * its ends (a run the detector alone reads as data, from 20 lines and 1,500 characters).
 */
export function pastedBulkSpans(text: string, taken: readonly BulkSpan[] = []): BulkSpan[] {
  if (text.length < MIN_CHARS) return [];
  const spans: BulkSpan[] = [];
  const free: BulkSpan[] = [];
  let cursor = 0;
  for (const span of [...taken].sort((a, b) => a.start - b.start)) {
    if (span.start > cursor) free.push({ start: cursor, end: span.start });
    cursor = Math.max(cursor, span.end);
  }
  if (cursor < text.length) free.push({ start: cursor, end: text.length });
  for (const region of free) spans.push(...dataRuns(text, region));
  return spans;
}

/** The span of a pasted list of items (retrieved chunks, search results, candidates), when the text holds one. */
export function itemListSpan(text: string): BulkSpan | undefined {
  return text.length < MIN_LIST_CHARS ? undefined : itemList(text, { start: 0, end: text.length })?.span;
}

function dataRuns(text: string, region: BulkSpan): BulkSpan[] {
  const spans: BulkSpan[] = [];
  let run: BulkSpan | undefined;
  const keep = (candidate: BulkSpan): void => {
    const body = text.slice(candidate.start, candidate.end);
    const lines = lineCount(body);
    const byLines = body.length >= MIN_CHARS && lines >= MIN_LINES && dataLineShare(body.split('\n')) >= DATA_LINE_SHARE;
    if (byLines || (body.length >= MIN_FORMAT_CHARS && lines >= MIN_FORMAT_LINES && isData(body))) spans.push(candidate);
  };
  const close = (): void => {
    if (run !== undefined) for (const part of apartFromReports(text, trimProse(text, run))) keep(part);
    run = undefined;
  };
  let reportEnd = -1;
  for (const found of paragraphs(text, region.start, region.end)) {
    // Inside an XML report the blank lines of a failure's text do not end the paste.
    if (found.start < reportEnd) {
      if (run !== undefined) run = { start: run.start, end: Math.max(run.end, found.end) };
      continue;
    }
    const reportClose = xmlReportEnd(text, found, region.end);
    const paragraph = reportClose === undefined ? found : { start: found.start, end: reportClose, text: text.slice(found.start, reportClose) };
    if (reportClose !== undefined) reportEnd = reportClose;
    const lead = ownLead(paragraph);
    const body = paragraph.text.slice(lead);
    if (lineCount(body) >= 3 && isData(body)) {
      if (run !== undefined && lead === 0) run = { start: run.start, end: paragraph.end };
      else {
        close();
        run = { start: paragraph.start + lead, end: paragraph.end };
      }
    } else close();
  }
  close();
  return spans;
}

/** Header kind of a line (`next`: the line under it): `file` (a file's name above its contents, `fileHeaders.ts`), or its shape with digits dropped (`[#]`, `### c`, `document #`). */
function headerKind(line: string, next?: string): string | undefined {
  if (headerLinePath(line, next) !== undefined) return 'file';
  const match = ITEM_HEADER.exec(line);
  return match === null ? undefined : match[0].replace(/\d+/g, '#').toLowerCase();
}

/** One item header of a region: where its line starts and its kind. */
interface HeaderStart {
  readonly index: number;
  readonly kind: string;
}

/**
 * Every item header between `from` and `to`: header lines outside fences, and fences that name
 * the file they hold (```` ```python src/app.py ````, a first line `# src/app.py`), unless the
 * line above already named it.
 */
function headerStarts(text: string, from: number, to: number): HeaderStart[] {
  const starts: HeaderStart[] = [];
  const lines = text.slice(from, to).split('\n');
  let inFence = false;
  let afterFileHeader = false;
  let offset = from;
  lines.forEach((line, index) => {
    if (/^(```|~~~)/.test(line)) {
      if (!inFence && !afterFileHeader && fencePath(line, lines[index + 1]) !== undefined) starts.push({ index: offset, kind: 'file' });
      inFence = !inFence;
      afterFileHeader = false;
    } else if (!inFence) {
      const kind = headerKind(line, lines[index + 1]);
      if (kind !== undefined) starts.push({ index: offset, kind });
      if (line.trim() !== '') afterFileHeader = kind === 'file';
    }
    offset += line.length + 1;
  });
  return starts;
}

/** Items a list needs: two files pasted one after the other are already a multi-file paste. */
function minimumItems(kind: string): number {
  return kind === 'file' ? 2 : MIN_ITEMS;
}

/**
 * A pasted list of items, when the region holds one: the span from its first item header to the
 * end of its last item (the paragraph that follows the last item without a header of its own is
 * the user's again when it reads as a question).
 */
function itemList(text: string, region: BulkSpan): { span: BulkSpan; items: readonly HeaderStart[] } | undefined {
  const starts = headerStarts(text, region.start, region.end);
  const counts = new Map<string, number>();
  for (const start of starts) counts.set(start.kind, (counts.get(start.kind) ?? 0) + 1);
  const [kind, count] = [...counts].sort((a, b) => b[1] - a[1])[0] ?? ['', 0];
  if (count < minimumItems(kind)) return undefined;
  const items = starts.filter((start) => start.kind === kind);
  const first = items[0]!.index;
  const last = items[items.length - 1]!.index;
  // The last item runs to the region's end, less what the user wrote after it: everything after
  // a last file's closing fence, or a closing paragraph of their own (a question, or a few lines
  // that read as sentences: "Thanks, this is urgent.").
  let end = kind === 'file' ? fileFenceEnd(text, last, region.end) ?? region.end : region.end;
  const tail = paragraphs(text, last, end);
  const closing = tail[tail.length - 1];
  if (tail.length > 1 && closing !== undefined && isUsersClosing(closing.text)) end = tail[tail.length - 2]!.end;
  if (end - first < MIN_LIST_CHARS) return undefined;
  return { span: { start: first, end }, items };
}

/** A closing paragraph that is the user's own words: up to five lines, a question or every line a sentence. */
function isUsersClosing(paragraph: string): boolean {
  if (lineCount(paragraph) > 5) return false;
  return /\?\s*$/.test(paragraph) || paragraph.split('\n').every((line) => isSentence(line));
}

/** Where a last pasted file's closing fence line ends, when something follows it before `to`; else undefined. */
function fileFenceEnd(text: string, from: number, to: number): number | undefined {
  const fenceEnd = pastedFile(text.slice(from, to))?.fenceEnd;
  if (fenceEnd === undefined) return undefined;
  return text.slice(from + fenceEnd, to).trim() === '' ? undefined : from + fenceEnd;
}

/**
 * Where each item of a pasted list starts (offsets into `text`), when `text` is one; else
 * undefined. The relevance filter ranks such bulk item by item rather than line by line.
 */
export function itemStarts(text: string): number[] | undefined {
  const list = itemList(text, { start: 0, end: text.length });
  return list === undefined || list.span.start !== 0 ? undefined : list.items.map((item) => item.index);
}
