/**
 * Recognises source code in a tool output: strips line-number prefixes (`cat -n`, `nl`,
 * editor `  12→` reads), finds the code inside an editor result's fence, and names the
 * language from the path first and the content second. The raw lines are kept so an outline
 * can give back every kept line byte for byte, prefixes included.
 */
import { languageFromContent, languageFromPath } from './languageDetection';
import type { LanguageSpec } from './languages';
import type { ReadHint } from './readCommands';

export interface RecognizedSource {
  readonly language: LanguageSpec;
  /** The file's path when the command or tool call named it. */
  readonly path?: string;
  /** The segment's text split on newlines, exactly. */
  readonly lines: readonly string[];
  /** Index in `lines` of the first code line (after an editor's header line or fence). */
  readonly codeStart: number;
  /** Length of each code line's line-number prefix (0 when unnumbered). */
  readonly prefixLengths: readonly number[];
  /** The code that is parsed: code lines without their prefixes, joined with newlines. */
  readonly code: string;
  /** 1-based file line number of each code line, when known. */
  readonly lineNumbers?: readonly number[];
}

export type Recognition = { readonly source: RecognizedSource } | { readonly reason: string };


/**
 * Reads `text` as source. `hint` is what the producing command says about the file; without
 * a path the language comes from the content alone.
 */
export function recognizeSource(text: string, hint: ReadHint | undefined): Recognition {
  const lines = text.split('\n');
  const region = codeRegion(lines);
  const regionLines = lines.slice(region.start, region.end);
  const numbering = lineNumbering(regionLines);
  const prefixLengths = numbering?.prefixLengths ?? new Array<number>(regionLines.length).fill(0);
  // Unnumbered lines are the code as they stand: the text's own characters from the region's first line to its last.
  const code = numbering ? regionLines.map((line, index) => line.slice(prefixLengths[index])).join('\n') : regionText(text, lines, region);
  if (code.trim().length === 0) return { reason: 'empty' };
  const fromPath = hint ? languageFromPath(hint.path) : undefined;
  const language = fromPath ?? (hint && /\.[A-Za-z0-9]{1,8}$/.test(hint.path) && !/\.(txt|log)$/i.test(hint.path) ? undefined : languageFromContent(code));
  if (!language) return { reason: hint ? 'unknown-language' : 'not-source' };
  const firstLine = hint?.firstLine ?? headerFirstLine(lines.slice(0, region.start));
  const lineNumbers = numbering?.numbers ?? (firstLine === undefined ? undefined : regionLines.map((_, index) => firstLine + index));
  return {
    source: {
      language,
      path: hint?.path,
      lines,
      codeStart: region.start,
      prefixLengths,
      code,
      lineNumbers,
    },
  };
}

/** `lines[region.start, region.end)` joined with newlines, cut from `text` (whose split they are). */
export function regionText(text: string, lines: readonly string[], region: { start: number; end: number }): string {
  if (region.end <= region.start) return '';
  let from = 0;
  for (let index = 0; index < region.start; index++) from += lines[index]!.length + 1;
  let to = from - 1;
  for (let index = region.start; index < region.end; index++) to += lines[index]!.length + 1;
  return text.slice(from, to);
}

const FENCE = /^(```|~~~)[\w+#.-]*\s*$/;

/** The lines holding code: inside an editor result's fence when there is one, else all of them. */
function codeRegion(lines: readonly string[]): { start: number; end: number } {
  // Only a fence among the first four lines opens a region (the first fence anywhere counted only there).
  let open = -1;
  for (let index = 0; index < Math.min(4, lines.length); index++) {
    if (FENCE.test(lines[index]!)) {
      open = index;
      break;
    }
  }
  if (open >= 0) {
    const fence = lines[open]!.slice(0, 3);
    // The fence must wrap the whole result (a fence inside a file's docstring does not count).
    for (let close = lines.length - 1; close > open && close >= lines.length - 4; close--) {
      if (lines[close]!.trimEnd() === fence) return { start: open + 1, end: close };
    }
  }
  // A trailing newline leaves an empty last line that is not code.
  const end = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  return { start: 0, end };
}

/** Line-number prefixes when nearly every line has one and the numbers climb. */
function lineNumbering(lines: readonly string[]): { prefixLengths: number[]; numbers: number[] } | undefined {
  const prefixLengths: number[] = [];
  const numbers: number[] = [];
  let numbered = 0;
  let nonBlank = 0;
  let previous = -1;
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const prefix = numberedPrefix(line);
    if (prefix !== undefined) {
      const value = prefix.value;
      // Numbers that stop climbing are no numbering.
      if (value <= previous) return undefined;
      previous = value;
      numbered++;
      nonBlank++;
      prefixLengths.push(prefix.length);
      numbers.push(value);
    } else {
      // `nl` without -ba prints blank lines as spaces only.
      const blank = isSpaces(line);
      if (!blank && line.length > 0) nonBlank++;
      prefixLengths.push(blank ? line.length : 0);
      numbers.push(previous);
      // Even if every line left were numbered, too few would be (a margin of one line keeps rounding out of it).
      const left = lines.length - index - 1;
      if (numbered + left + 1 < (nonBlank + left) * 0.95) return undefined;
    }
  }
  if (numbered < 3 || numbered < nonBlank * 0.95) return undefined;
  return { prefixLengths, numbers };
}

/**
 * The line-number prefix at the start of `line`: `     12\tcode` (cat -n, nl), `    12→code`
 * (editor reads), `12: code`, `12 | code`, what `/^( *)(\d{1,7})(\t|→| \| |: )/` matches, read
 * without a regular expression (a match array a line was most of what recognizing a file
 * allocated): the prefix's length and its number, or undefined.
 */
export function numberedPrefix(line: string): { length: number; value: number } | undefined {
  let at = 0;
  while (at < line.length && line.charCodeAt(at) === 32) at++;
  const digitsStart = at;
  let value = 0;
  while (at < line.length) {
    const code = line.charCodeAt(at);
    if (code < 48 || code > 57) break;
    value = value * 10 + (code - 48);
    at++;
  }
  const digits = at - digitsStart;
  // `\d{1,7}` then a separator: an eighth digit where the separator must be is no match.
  if (digits === 0 || digits > 7 || at >= line.length) return undefined;
  const code = line.charCodeAt(at);
  if (code === 9 || code === 0x2192) return { length: at + 1, value };
  if (code === 58 && line.charCodeAt(at + 1) === 32) return { length: at + 2, value };
  if (code === 32 && line.charCodeAt(at + 1) === 124 && line.charCodeAt(at + 2) === 32) return { length: at + 3, value };
  return undefined;
}

/** `/^ +$/`: one space or more and nothing else. */
function isSpaces(line: string): boolean {
  if (line.length === 0) return false;
  for (let index = 0; index < line.length; index++) if (line.charCodeAt(index) !== 32) return false;
  return true;
}

/** `Lines 120 to 240` in an editor result's header. */
function headerFirstLine(header: readonly string[]): number | undefined {
  for (const line of header) {
    const match = /\blines? (\d+)\s*(?:to|-|–)\s*\d+/i.exec(line);
    if (match) return Number(match[1]);
  }
  return undefined;
}
