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

/** `     12\tcode` (cat -n, nl), `    12→code` (editor reads), `12: code`, `12 | code`. */
const NUMBERED = /^( *)(\d{1,7})(\t|→| \| |: )/;
const BLANK_NUMBERED = /^ +$/;

/**
 * Reads `text` as source. `hint` is what the producing command says about the file; without
 * a path the language comes from the content alone.
 */
export function recognizeSource(text: string, hint: ReadHint | undefined): Recognition {
  const lines = text.split('\n');
  const region = codeRegion(lines);
  const regionLines = lines.slice(region.start, region.end);
  const numbering = lineNumbering(regionLines);
  const prefixLengths = numbering?.prefixLengths ?? regionLines.map(() => 0);
  const codeLines = regionLines.map((line, index) => line.slice(prefixLengths[index]));
  const code = codeLines.join('\n');
  if (code.trim().length === 0) return { reason: 'empty' };
  const fromPath = hint ? languageFromPath(hint.path) : undefined;
  const language = fromPath ?? (hint && /\.[A-Za-z0-9]{1,8}$/.test(hint.path) && !/\.(txt|log)$/i.test(hint.path) ? undefined : languageFromContent(code));
  if (!language) return { reason: hint ? 'unknown-language' : 'not-source' };
  const firstLine = hint?.firstLine ?? headerFirstLine(lines.slice(0, region.start));
  const lineNumbers = numbering?.numbers ?? (firstLine === undefined ? undefined : codeLines.map((_, index) => firstLine + index));
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

/** The lines holding code: inside an editor result's fence when there is one, else all of them. */
function codeRegion(lines: readonly string[]): { start: number; end: number } {
  const open = lines.findIndex((line) => /^(```|~~~)[\w+#.-]*\s*$/.test(line));
  if (open >= 0 && open <= 3) {
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
  let climbing = true;
  for (const line of lines) {
    const match = NUMBERED.exec(line);
    if (match) {
      const value = Number(match[2]);
      if (value <= previous) climbing = false;
      previous = value;
      numbered++;
      nonBlank++;
      prefixLengths.push(match[0].length);
      numbers.push(value);
    } else {
      // `nl` without -ba prints blank lines as spaces only.
      if (!BLANK_NUMBERED.test(line) && line.length > 0) nonBlank++;
      prefixLengths.push(BLANK_NUMBERED.test(line) ? line.length : 0);
      numbers.push(previous);
    }
  }
  if (numbered < 3 || !climbing || numbered < nonBlank * 0.95) return undefined;
  return { prefixLengths, numbers };
}

/** `Lines 120 to 240` in an editor result's header. */
function headerFirstLine(header: readonly string[]): number | undefined {
  for (const line of header) {
    const match = /\blines? (\d+)\s*(?:to|-|–)\s*\d+/i.exec(line);
    if (match) return Number(match[1]);
  }
  return undefined;
}
