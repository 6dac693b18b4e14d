/**
 * Terminal output hard-wrapped at the terminal's width, joined back into the lines the program
 * printed. A terminal tool that reads its screen buffer row by row (VS Code's `run_in_terminal`
 * did, each row trimmed at its end) returns a long line as several rows of exactly the
 * terminal's width (one less when the wrap fell on a space it trimmed); a digest of those rows
 * would cut a failure message in the middle.
 *
 * The width is read from the text: several rows of one length, none longer, not drawn banners,
 * each followed by a row that does not start the way it did (a continuation starts mid-line).
 * Rows of exactly that width are joined to the row after them. Text whose rows are mostly that
 * width (fixed-width records) is left as it is. Only tool output is read this way.
 */
import { MAX_PATTERN_LINE_CHARS } from './limits';
import { checkDeadline } from '../pipeline/deadline';

/** Terminals narrower than this are not recognised (too many short lines would look wrapped). */
const MIN_WIDTH = 40;
/** Rows at the width needed before a text counts as wrapped. */
const MIN_FULL_ROWS = 3;
/** When more than this share of the rows are exactly at the width, it is data laid out at that width. */
const MAX_FULL_SHARE = 0.6;

/** The width the text was hard-wrapped at, or undefined when it does not look wrapped. */
export function wrapWidth(text: string): number | undefined {
  // Rows are read in place (no array of them, no string per row): this runs on every tool
  // output context_compression cleans, and only the rows at the widest length are looked at.
  let rows = 0;
  let widest = 0;
  for (let start = 0; start <= text.length; ) {
    checkDeadline();
    const end = rowEnd(text, start);
    const length = end - start;
    if (length > 0) {
      rows++;
      if (length > widest) widest = length;
    }
    start = end + 1;
  }
  if (widest < MIN_WIDTH || widest > MAX_PATTERN_LINE_CHARS) return undefined;
  // Banners drawn across the whole width (pytest's `==== FAILURES ====`) are as wide as the
  // terminal without being wrapped; so are fixed-width records.
  let full = 0;
  let alike = 0;
  for (let start = 0; start <= text.length; ) {
    checkDeadline();
    const end = rowEnd(text, start);
    // A wrapped row always continues on the next one: a full row before an empty one (or none) is no evidence.
    if (end - start === widest && end < text.length) {
      const nextEnd = rowEnd(text, end + 1);
      const line = text.slice(start, end);
      if (nextEnd > end + 1 && !BANNER.test(line)) {
        full++;
        // A continuation starts mid-line; a next row that starts the way this one did is a line of its own.
        if (startShape(text.slice(end + 1, nextEnd)) === startShape(line)) alike++;
      }
    }
    start = end + 1;
  }
  if (full < MIN_FULL_ROWS || full > rows * MAX_FULL_SHARE) return undefined;
  return alike * 2 < full ? widest : undefined;
}

/** Where the row that starts at `start` ends: the next newline, or the end of the text. */
function rowEnd(text: string, start: number): number {
  const end = text.indexOf('\n', start);
  return end < 0 ? text.length : end;
}

/** A line drawn as a rule or banner: it starts and ends with a run of the same drawing character. */
const BANNER = /^([=_\-#*~.+])\1{2}.*([=_\-#*~.+])\2{2}$/;

/** The shape of a line's first characters: digits as 9, letters as a, the rest as they are. */
function startShape(line: string): string {
  return line.slice(0, 6).replace(/\d/g, '9').replace(/\p{L}/gu, 'a');
}

/** The text with its wrapped rows joined, and the width it was wrapped at (undefined: left as it was). */
export function unwrapTerminal(text: string): { text: string; width?: number; joined: number } {
  const width = wrapWidth(text);
  if (width === undefined) return { text, joined: 0 };
  const lines = text.split('\n');
  const out: string[] = [];
  let joined = 0;
  for (let index = 0; index < lines.length; index++) {
    checkDeadline();
    let line = lines[index]!;
    // A row filled to the width continues on the next row, unless that row is empty (the line was
    // exactly as wide). A row one short of it lost the space the wrap fell on (the terminal trims
    // each row's end): it continues, after that space, when the next row does not start with one.
    for (let row = lines[index]!.length; index + 1 < lines.length && lines[index + 1]!.length > 0; ) {
      const next = lines[index + 1]!;
      if (row === width) line += next;
      else if (row === width - 1 && !/^\s/.test(next)) line += ` ${next}`;
      else break;
      index++;
      joined++;
      row = next.length;
    }
    out.push(line);
  }
  return joined === 0 ? { text, joined: 0 } : { text: out.join('\n'), width, joined };
}
