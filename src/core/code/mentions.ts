/**
 * What a piece of conversation points at in code: names that look like code, file line
 * ranges (stack-trace frames, `path:line`, diff hunks, `sed -i` addresses), and code it
 * quotes (lines copied from a file, `sed` substitution patterns). The working set starts here.
 */

export interface LineRange {
  readonly path: string;
  readonly first: number;
  readonly last: number;
}

export interface Mentions {
  /** Names in code-like form: with `_`, digits or inner capitals, or written as code (`f(`, `.f`, backticks). */
  readonly identifiers: ReadonlySet<string>;
  readonly locations: readonly LineRange[];
  /** Trimmed lines long enough to identify a place in a file. */
  readonly quotedLines: ReadonlySet<string>;
  /** Code fragments searched for inside lines (unescaped `sed` patterns). */
  readonly fragments: readonly string[];
}

/** A quoted line shorter than this is too common to point anywhere. */
export const MIN_QUOTED_LINE = 16;
const MIN_FRAGMENT = 10;

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const FRAME = /File "([^"\n]+)", line (\d+)/g;
const DIFF_FILE = /^\+\+\+ (?:b\/)?(\S+)/;
const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;
const SED_EDIT = /\bsed\s+-i\S*\s+(?:-e\s+)?(['"])(\d+)(?:,(\d+))?[acdis][\s\S]*?\1\s+([^\s;&|]+)/g;
const SED_SUBSTITUTE = /\bs([/|#,])((?:\\.|(?!\1)[^\\\n])+)\1/g;

export function extractMentions(text: string): Mentions {
  return { identifiers: identifiersIn(text), locations: locationsIn(text), quotedLines: quotedLinesIn(text), fragments: fragmentsIn(text) };
}

/** Merges the mentions of several texts. */
export function mergeMentions(all: readonly Mentions[]): Mentions {
  return {
    identifiers: new Set(all.flatMap((mentions) => [...mentions.identifiers])),
    locations: all.flatMap((mentions) => mentions.locations),
    quotedLines: new Set(all.flatMap((mentions) => [...mentions.quotedLines])),
    fragments: all.flatMap((mentions) => mentions.fragments),
  };
}

function identifiersIn(text: string): Set<string> {
  const found = new Set<string>();
  for (const match of text.matchAll(IDENTIFIER)) {
    const word = match[0];
    if (word.length < 3) continue;
    const start = match.index ?? 0;
    const before = text[start - 1] ?? '';
    const after = text[start + word.length] ?? '';
    // A plain lower-case word is an English word unless it is written as code.
    const codeShaped = /[_$\d]/.test(word) || /[a-z][A-Z]/.test(word) || /^[A-Z][a-z]+[A-Z]/.test(word);
    const writtenAsCode = after === '(' || before === '.' || before === '`' || after === '`' || /\b(def|function|func|fn|class|sub|method) $/.test(text.slice(Math.max(0, start - 9), start));
    if (codeShaped || writtenAsCode || /^[A-Z]/.test(word)) found.add(word);
  }
  return found;
}

function locationsIn(text: string): LineRange[] {
  const ranges: LineRange[] = [];
  for (const match of text.matchAll(FRAME)) ranges.push({ path: match[1]!, first: Number(match[2]), last: Number(match[2]) });
  for (const [path, line] of pathLines(text)) ranges.push({ path, first: line, last: line });
  for (const match of text.matchAll(SED_EDIT)) {
    const first = Number(match[2]);
    ranges.push({ path: match[4]!, first, last: match[3] === undefined ? first : Number(match[3]) });
  }
  let diffPath: string | undefined;
  for (const line of text.split('\n')) {
    const file = DIFF_FILE.exec(line);
    if (file) {
      diffPath = file[1];
      continue;
    }
    const hunk = HUNK.exec(line);
    if (hunk && diffPath) {
      const oldStart = Number(hunk[1]);
      const newStart = Number(hunk[3]);
      ranges.push({ path: diffPath, first: oldStart, last: oldStart + Math.max(0, Number(hunk[2] ?? 1) - 1) });
      ranges.push({ path: diffPath, first: newStart, last: newStart + Math.max(0, Number(hunk[4] ?? 1) - 1) });
    }
  }
  return ranges;
}

/** A colon followed by a digit: where a `path:line` mention ends its path. */
const LINE_COLON = /:(?=\d)/g;
const PATH_CHARACTER = /[\w./-]/;
const LINE_NUMBER = /(\d+)(?::\d+)?/y;
const EXTENSION = /^[A-Za-z]\w{0,7}$/;

/**
 * The `path:line` mentions `/((?:[\w.-]+\/)*[\w.-]+\.[A-Za-z][\w]{0,7}):(\d+)(?::\d+)?/g` finds,
 * in one pass. That pattern nests `[\w.-]+` in a starred group and rescans a long run of path
 * characters from every position in it (seconds on a 16 KB line of dashes, synchronously).
 * Its path holds no colon, so a match ends at a ":digit" and its path is the run of path
 * characters before it, from the first position the pattern accepts.
 */
function pathLines(text: string): [string, number][] {
  const found: [string, number][] = [];
  // Where the previous match ended: the pattern resumes there.
  let resume = 0;
  LINE_COLON.lastIndex = 0;
  for (let colon = LINE_COLON.exec(text); colon; colon = LINE_COLON.exec(text)) {
    const end = colon.index;
    let start = end;
    while (start > resume && PATH_CHARACTER.test(text[start - 1]!)) start--;
    // The path neither starts with "/" nor holds "//", so it starts after the last of them.
    let lastSlash = -1;
    for (let at = start; at < end; at++) {
      if (text[at] !== '/') continue;
      if (at === start || text[at - 1] === '/') start = at + 1;
      lastSlash = at;
    }
    if (start >= end || !isFileName(text.slice(Math.max(start, lastSlash + 1), end))) continue;
    LINE_NUMBER.lastIndex = end + 1;
    const line = LINE_NUMBER.exec(text)!;
    found.push([text.slice(start, end), Number(line[1])]);
    resume = LINE_NUMBER.lastIndex;
    LINE_COLON.lastIndex = resume;
  }
  return found;
}

/** A last path segment the pattern accepts: a name, a dot, a letter and up to seven word characters. */
function isFileName(segment: string): boolean {
  const dot = segment.lastIndexOf('.');
  return dot >= 1 && EXTENSION.test(segment.slice(dot + 1));
}

function quotedLinesIn(text: string): Set<string> {
  const lines = new Set<string>();
  for (const line of text.split('\n')) {
    // Diff lines and grep hits carry a marker or a prefix before the code.
    const code = line.replace(/^[+-](?![+-])/, '').replace(/^(?:[\w./-]+:)?\d+[:-]/, '').trim();
    if (code.length >= MIN_QUOTED_LINE && /[A-Za-z]/.test(code)) lines.add(code);
  }
  return lines;
}

function fragmentsIn(text: string): string[] {
  const fragments: string[] = [];
  for (const match of text.matchAll(SED_SUBSTITUTE)) {
    const pattern = match[2]!;
    // A pattern with unescaped operators matches text that is not written in it.
    if (/(^|[^\\])[*+?[\]{}]/.test(pattern)) continue;
    const fragment = pattern.replace(/\\(.)/g, '$1').replace(/^\^|\$$/g, '').trim();
    if (fragment.length >= MIN_FRAGMENT) fragments.push(fragment);
  }
  return fragments;
}
