/**
 * Tidies prose the way an editor would before sending it: trailing whitespace and runs of
 * spaces collapsed, runs of blank lines folded to one, exact-duplicate paragraphs and
 * sentences dropped (the first kept). Line and list structure stay; code never changes: fenced
 * blocks, indented blocks and inline code spans pass through byte for byte.
 */

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

/** Remembers what was seen across the calls for one text (a part split around pasted output). */
export class ProseTidier {
  private readonly sentences = new Set<string>();
  private readonly paragraphs = new Set<string>();
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
    for (const [index, line] of lines.entries()) {
      if (fence !== undefined) {
        out.push(line);
        if (line.trim().startsWith(fence) && /^ {0,3}[`~]+\s*$/.test(line)) fence = undefined;
        previousBlank = false;
        continue;
      }
      const opening = FENCE.exec(line);
      if (opening) {
        flush();
        fence = opening[1];
        out.push(line);
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
    return out.join('\n');
  }

  private paragraph(lines: readonly string[]): string[] {
    const tidied = lines.map((line) => tidyLine(line));
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
