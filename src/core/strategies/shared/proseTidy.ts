/**
 * Tidies prose the way an editor would before sending it: trailing whitespace and runs of
 * spaces collapsed, runs of blank lines folded to one, exact-duplicate paragraphs and
 * sentences dropped (the first kept). Line and list structure stay; code never changes: fenced
 * blocks, indented blocks and inline code spans pass through byte for byte (an exact repeat of
 * a whole fenced block is dropped like a repeated paragraph). Data is not prose either: a
 * paragraph that reads as a log, a listing or JSON, table rows and lines laid out in aligned
 * columns keep their spacing.
 */
import { detectContentFormat } from '../../content/detect';

/** The tidied text and what was dropped. */
export interface TidyResult {
  /** The tidied text. */
  readonly text: string;
  /** Sentences dropped because the same sentence came earlier. */
  readonly duplicateSentences: number;
  /** Paragraphs dropped because the same paragraph came earlier. */
  readonly duplicateParagraphs: number;
}

/** Sentences and paragraphs shorter than this many words are never treated as duplicates. */
const MIN_WORDS = 2;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const INDENTED_CODE = /^(?: {4}|\t)/;
/** Lines whose repetition is structure, not wording: table rows, headings, tags, rules. */
const STRUCTURAL = /^\s*(?:\||#|<|---|\*\*\*|===)/;

/** Where a line's columns start: each position right after a run of two spaces or a tab. */
function columnStarts(line: string): Set<number> {
  // A scan, not a pattern: a gap pattern with a lookahead backtracks quadratically on a long run of spaces.
  const starts = new Set<number>();
  let gap = 0;
  let tab = false;
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (character === ' ' || character === '\t') {
      gap++;
      tab ||= character === '\t';
      continue;
    }
    if ((gap >= 2 || tab) && index > gap) starts.add(index);
    gap = 0;
    tab = false;
  }
  return starts;
}

/**
 * Lines laid out in columns (as `ls -l`, `ps` and hand-made tables print them): consecutive lines
 * whose gaps of two spaces or more open a column at the same position. Their spacing is meaning.
 */
function alignedLines(lines: readonly string[]): boolean[] {
  const starts = lines.map(columnStarts);
  const aligned = new Array<boolean>(lines.length).fill(false);
  for (let index = 1; index < lines.length; index++) {
    if ([...starts[index]!].some((column) => starts[index - 1]!.has(column))) aligned[index] = aligned[index - 1] = true;
  }
  return aligned;
}

/** Remembers what was seen across the calls for one text (a part split around pasted output). */
export class ProseTidier {
  private readonly sentences = new Set<string>();
  private readonly paragraphs = new Set<string>();
  private readonly blocks = new Set<string>();
  /** Code blocks dropped because the same block came earlier. */
  duplicateBlocks = 0;
  /** Sentences dropped so far. */
  duplicateSentences = 0;
  /** Paragraphs dropped so far. */
  duplicateParagraphs = 0;

  /** Tidies one stretch of prose, remembering its sentences for the stretches after it. */
  tidy(text: string): string {
    const lines = text.split('\n');
    const out: string[] = [];
    let fence: string | undefined;
    let paragraph: string[] = [];
    let previousBlank = false;
    const flush = (): void => {
      if (paragraph.length > 0) out.push(...this.paragraph(paragraph));
      paragraph = [];
    };
    let block: string[] = [];
    for (const [index, line] of lines.entries()) {
      if (fence !== undefined) {
        block.push(line);
        if (line.trim().startsWith(fence) && /^ {0,3}[`~]+\s*$/.test(line)) {
          fence = undefined;
          // Code passes through byte for byte; only an exact repeat of a whole block is dropped.
          const key = block.join('\n');
          if (this.blocks.has(key) && wordCount(key) >= MIN_WORDS) this.duplicateBlocks++;
          else {
            this.blocks.add(key);
            out.push(...block);
          }
          block = [];
        }
        previousBlank = false;
        continue;
      }
      const opening = FENCE.exec(line);
      if (opening) {
        flush();
        fence = opening[1];
        block = [line];
        previousBlank = false;
        continue;
      }
      if (line.trim().length === 0) {
        flush();
        // Runs of blank lines fold to one; the text's last line (after a final newline) stays as it is.
        if (index === lines.length - 1) out.push('');
        else if (!previousBlank) out.push('');
        previousBlank = true;
        continue;
      }
      if (INDENTED_CODE.test(line) && (previousBlank || out.length === 0 || INDENTED_CODE.test(lines[index - 1] ?? ''))) {
        flush();
        out.push(line);
        previousBlank = false;
        continue;
      }
      paragraph.push(line);
      previousBlank = false;
    }
    flush();
    // A fence left open runs to the end of the text, as Markdown reads it.
    out.push(...block);
    return out.join('\n');
  }

  private paragraph(lines: readonly string[]): string[] {
    // Data is not prose: a paragraph that reads as a log, a listing or JSON stays byte for byte.
    if (lines.length >= 3 && detectContentFormat(lines.join('\n')) !== 'text') return [...lines];
    const aligned = alignedLines(lines);
    const tidied = lines.map((line, index) => (aligned[index] || STRUCTURAL.test(line) ? line.trimEnd() : tidyLine(line)));
    const key = tidied.join('\n');
    // A paragraph with a heading, a tag or a table row is structure: its repeats may matter (a closing tag).
    if (wordCount(key) >= MIN_WORDS && !tidied.some((line) => STRUCTURAL.test(line))) {
      if (this.paragraphs.has(key)) {
        this.duplicateParagraphs++;
        return [];
      }
      this.paragraphs.add(key);
    }
    const kept: string[] = [];
    for (const line of tidied) {
      if (STRUCTURAL.test(line)) {
        kept.push(line);
        continue;
      }
      const sentences = splitSentences(line);
      const survivors = sentences.filter((sentence) => {
        const probe = sentence.trim();
        if (wordCount(probe) < MIN_WORDS) return true;
        if (this.sentences.has(probe)) {
          this.duplicateSentences++;
          return false;
        }
        this.sentences.add(probe);
        return true;
      });
      if (survivors.length === sentences.length) kept.push(line);
      else if (survivors.length > 0) kept.push(leadingSpace(line) + survivors.map((sentence) => sentence.trim()).join(' '));
    }
    return kept;
  }
}

/** One-shot tidy of a whole text. */
export function tidyProse(text: string): TidyResult {
  const tidier = new ProseTidier();
  const out = tidier.tidy(text);
  return { text: out, duplicateSentences: tidier.duplicateSentences, duplicateParagraphs: tidier.duplicateParagraphs };
}

/** Trailing whitespace removed, inner runs of spaces and tabs collapsed, inline code untouched. */
function tidyLine(line: string): string {
  const indent = leadingSpace(line);
  // trimEnd, not /\s+$/: the pattern is quadratic on a long run of spaces inside a line.
  const body = line.slice(indent.length).trimEnd();
  let out = '';
  let index = 0;
  while (index < body.length) {
    const tick = body.indexOf('`', index);
    const prose = tick === -1 ? body.slice(index) : body.slice(index, tick);
    out += prose.replace(/[ \t]{2,}/g, ' ');
    if (tick === -1) break;
    const run = /^`+/.exec(body.slice(tick))![0];
    const close = body.indexOf(run, tick + run.length);
    if (close === -1) {
      out += body.slice(tick);
      break;
    }
    out += body.slice(tick, close + run.length);
    index = close + run.length;
  }
  return indent + out;
}

/** Sentences of a line, split after `.`, `!` or `?` followed by a space, never inside inline code. */
function splitSentences(line: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  let inCode = false;
  for (let index = 0; index < line.length; index++) {
    const character = line[index]!;
    if (character === '`') inCode = !inCode;
    if (inCode) continue;
    if ((character === '.' || character === '!' || character === '?') && line[index + 1] === ' ') {
      sentences.push(line.slice(start, index + 1));
      start = index + 1;
    }
  }
  if (start < line.length) sentences.push(line.slice(start));
  return sentences;
}

function leadingSpace(line: string): string {
  return /^[ \t]*/.exec(line)![0];
}

function wordCount(text: string): number {
  return (text.match(/[A-Za-z]{2,}/g) ?? []).length;
}
