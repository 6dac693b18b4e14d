/**
 * Splits a page's Markdown into sections by headings, tables into rows, and finds
 * `[[Page title]]` links. Headings inside fenced code blocks are text, not headings.
 */
import { sectionCountedLazily } from './lazyTokens';
import type { Section, TableRow } from './types';

const FENCE = /^[ \t]*(```|~~~)/;

/** The sections of a page body; text before the first heading is a section under the title. */
export function splitSections(pageId: string, title: string, body: string): Section[] {
  const lines = body.split('\n');
  const raw: { headingPath: string[]; lines: string[] }[] = [];
  const stack: { level: number; text: string }[] = [];
  let current: { headingPath: string[]; lines: string[] } = { headingPath: [title], lines: [] };
  let inFence = false;
  for (const line of lines) {
    if (FENCE.test(line)) inFence = !inFence;
    const heading = inFence ? undefined : parseHeading(line);
    if (heading) {
      if (hasContent(current)) raw.push(current);
      const level = heading.level;
      while (stack.length > 0 && stack[stack.length - 1]!.level >= level) stack.pop();
      stack.push({ level, text: heading.text });
      // A level-one heading that repeats the title adds nothing to the path.
      const path = [title, ...stack.map((entry) => entry.text).filter((text, index) => !(index === 0 && text === title))];
      current = { headingPath: path, lines: [line] };
    } else {
      current.lines.push(line);
    }
  }
  if (hasContent(current)) raw.push(current);
  return raw.map((entry, index) => {
    const id = `${pageId}#${index}`;
    const text = trimBlankLines(entry.lines).join('\n');
    return sectionCountedLazily({ id, pageId, index, headingPath: entry.headingPath, text, rows: tableRows(id, entry.headingPath, text) });
  });
}

/** A heading with nothing under it (a title line before the first subheading) is not a section. */
function hasContent(section: { lines: string[] }): boolean {
  return section.lines.some((text, index) => text.trim().length > 0 && !(index === 0 && parseHeading(text) !== undefined));
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start]!.trim() === '') start++;
  while (end > start && lines[end - 1]!.trim() === '') end--;
  return lines.slice(start, end);
}

const TABLE_LINE = /^\s*\|.*\|\s*$/;
const SEPARATOR = /^\s*\|(\s*:?-{2,}:?\s*\|)+\s*$/;

/** Rows of every table in a section, each with the table's description and header. */
export function tableRows(sectionId: string, headingPath: readonly string[], text: string): TableRow[] {
  const lines = text.split('\n');
  const rows: TableRow[] = [];
  for (let index = 0; index + 1 < lines.length; index++) {
    if (!TABLE_LINE.test(lines[index]!) || !SEPARATOR.test(lines[index + 1]!)) continue;
    const headerCells = cells(lines[index]!);
    const header = `${lines[index]}\n${lines[index + 1]}`;
    const lead = leadSentence(lines, index);
    const description = [headingPath.join(' › '), lead].filter(Boolean).join(': ');
    let rowIndex = index + 2;
    for (; rowIndex < lines.length && TABLE_LINE.test(lines[rowIndex]!); rowIndex++) {
      const values = cells(lines[rowIndex]!);
      const text = values.map((value, column) => `${headerCells[column] ?? `column ${column + 1}`}: ${value}`).join('; ');
      rows.push({ id: `${sectionId}/r${rows.length}`, sectionId, description, header, line: lines[rowIndex]!, text });
    }
    index = rowIndex - 1;
  }
  return rows;
}

function cells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|').map((cell) => cell.trim());
}

/** The paragraph right above a table, which usually says what the table lists. */
function leadSentence(lines: readonly string[], tableStart: number): string {
  const paragraph: string[] = [];
  for (let index = tableStart - 1; index >= 0; index--) {
    const line = lines[index]!.trim();
    if (line === '') {
      if (paragraph.length > 0) break;
      continue;
    }
    if (parseHeading(line) !== undefined || TABLE_LINE.test(line)) break;
    paragraph.unshift(line);
  }
  return paragraph.join(' ');
}

const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * An ATX heading's level and text, as `/^(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$/` reads it (closing
 * hashes and the spaces around them dropped), without its backtracking: on a heading line with a
 * long run of spaces inside, that pattern is cubic (25 s for 4,000 spaces).
 */
export function parseHeading(line: string): { level: number; text: string } | undefined {
  let level = 0;
  while (line[level] === '#') level++;
  if (level < 1 || level > 6) return undefined;
  let textStart = level;
  while (isSpaceOrTab(line[textStart])) textStart++;
  if (textStart === level || LINE_TERMINATOR.test(line.slice(textStart))) return undefined;
  // Nothing after the spaces: the pattern gives back the last space as the text.
  if (textStart === line.length) return textStart - level >= 2 ? { level, text: line[textStart - 1]! } : undefined;
  // The longest tail of spaces, hashes and spaces; the text keeps at least one character.
  let tail = line.length;
  while (tail > textStart && isSpaceOrTab(line[tail - 1])) tail--;
  while (tail > textStart && line[tail - 1] === '#') tail--;
  while (tail > textStart && isSpaceOrTab(line[tail - 1])) tail--;
  return { level, text: line.slice(textStart, Math.max(tail, textStart + 1)) };
}

function isSpaceOrTab(character: string | undefined): boolean {
  return character === ' ' || character === '\t';
}

/** Link targets as written in `[[Page title]]` (or `[[Page title|label]]`), in order, without repeats. */
export function findLinks(body: string): string[] {
  const seen = new Set<string>();
  for (const target of linkTargets(body)) seen.add(target.trim());
  return [...seen];
}

/**
 * The targets `/\[\[([^\]|\n]+?)(?:\|[^\]\n]*)?\]\]/g` captures, found in one pass. That
 * pattern scans to the end of the line from every "[[" without a closing "]]" (quadratic on a
 * long run of "["). A link from "[[" ends at the first "]", "|" or newline after it; when it
 * fails there, every "[[" before that point fails at the same place, so the search resumes
 * after it.
 */
function linkTargets(body: string): string[] {
  const targets: string[] = [];
  const targetEnd = new NextOf(body, /[\]|\n]/g);
  const labelEnd = new NextOf(body, /[\]\n]/g);
  for (let open = body.indexOf('[['); open >= 0;) {
    const stop = targetEnd.from(open + 2);
    let resume = stop + 1;
    if (stop > open + 2) {
      const close = body[stop] === '|' ? labelEnd.from(stop + 1) : stop;
      if (body.startsWith(']]', close)) {
        targets.push(body.slice(open + 2, stop));
        resume = close + 2;
      }
    }
    open = resume >= body.length ? -1 : body.indexOf('[[', resume);
  }
  return targets;
}

/** The next position of any character of a class, for positions asked in increasing order (amortized linear). */
class NextOf {
  private found = -1;

  constructor(private readonly text: string, private readonly pattern: RegExp) {}

  /** The first position at or after `start` holding one of the characters; the text's length when none. */
  from(start: number): number {
    if (start <= this.found) return this.found;
    this.pattern.lastIndex = start;
    const match = this.pattern.exec(this.text);
    this.found = match ? match.index : this.text.length;
    return this.found;
  }
}
