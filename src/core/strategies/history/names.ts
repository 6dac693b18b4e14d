/**
 * The names a sentence carries: paths, identifiers, inline code and numbers. history_trim
 * drops a sentence only when every name in it is still visible elsewhere (earlier in the
 * request or in what it keeps of the message), so no path or identifier the agent named
 * disappears from view.
 */

/** A run of word characters joined by the separators paths and qualified names use. */
const COMPOUND = /[A-Za-z0-9_$]+(?:(?:::|[./:\\-])[A-Za-z0-9_$]+)*/g;
const INLINE_CODE = /`([^`\n]+)`/g;
/** Plain words that look like names only because of a dot or a hyphen in prose. */
const NOT_NAMES = new Set(['e.g', 'i.e', 'etc', 'vs']);

/**
 * Every name a reader could look for in a text, and its parts: `a/b/c.py` gives `a/b/c.py`,
 * `b/c.py`, `c.py`, `a/b`, `a`, `b`, `c`, `py`, … so a later mention of any piece is found.
 */
export function visibleNames(text: string): Set<string> {
  const names = new Set<string>();
  forEachCompound(text, (start, end, pieces) => {
    const token = text.slice(start, end);
    if (pieces) addWithPieces(names, token);
    else names.add(token);
  });
  return names;
}

/**
 * Visits what COMPOUND matches in `text`, in order, found by hand (no match object per token:
 * this runs over every message history_trim reads): a run of word characters, then as long as
 * a separator is followed by one, the separator and the next run (`::` tried before a single
 * `:`). `pieces` says whether the token has a separator. A visit that returns false ends it.
 */
function forEachCompound(text: string, visit: (start: number, end: number, pieces: boolean) => boolean | void): void {
  const end = text.length;
  let at = 0;
  while (at < end) {
    if (!isWordCode(text.charCodeAt(at))) {
      at++;
      continue;
    }
    const start = at;
    let pieces = false;
    at = wordRunEnd(text, at + 1);
    for (;;) {
      const code = text.charCodeAt(at);
      let width = 0;
      if (code === COLON && text.charCodeAt(at + 1) === COLON && isWordCode(text.charCodeAt(at + 2))) width = 2;
      else if ((code === DOT || code === SLASH || code === COLON || code === BACKSLASH || code === HYPHEN) && isWordCode(text.charCodeAt(at + 1))) width = 1;
      if (width === 0) break;
      pieces = true;
      at = wordRunEnd(text, at + width + 1);
    }
    if (visit(start, at, pieces) === false) return;
  }
}

/** [A-Za-z0-9_$] (NaN, past the end, is not). */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
}

function wordRunEnd(text: string, from: number): number {
  let at = from;
  while (at < text.length && isWordCode(text.charCodeAt(at))) at++;
  return at;
}

/** The names a prose sentence mentions that a reader would miss if it went: identifiers, paths, code, numbers. */
export function mentionedNames(sentence: string): string[] {
  const names: string[] = [];
  forEachMentionedName(sentence, (name) => {
    names.push(name);
    return true;
  });
  return names;
}

/**
 * Visits the names {@link mentionedNames} gives, in its order, each once, until `visit` returns
 * false: a caller that needs only the first few does not read the rest of a long text.
 */
export function forEachMentionedName(sentence: string, visit: (name: string) => boolean): void {
  const names = new Set<string>();
  let going = true;
  const offer = (name: string): void => {
    if (names.has(name)) return;
    names.add(name);
    going = visit(name);
  };
  // Inside inline code every token of two characters or more is a name (`cursor.fetchone()`).
  for (const code of sentence.matchAll(INLINE_CODE)) {
    for (const match of (code[1] ?? '').matchAll(COMPOUND)) {
      if (match[0].length >= 2) offer(match[0]);
      if (!going) return;
    }
  }
  const prose = sentence.includes('`') ? sentence.replace(INLINE_CODE, ' ') : sentence;
  forEachCompound(prose, (start, end, pieces) => {
    if (!going) return false;
    // A word of letters alone (most of prose) is a name only as a call or in camelCase: read
    // from its characters, with no string made for it unless it is one.
    if (!pieces && lettersOnly(prose, start, end)) {
      if (prose.charCodeAt(end) !== OPEN_PAREN && !hasLowerUpper(prose, start, end)) return true;
      const token = prose.slice(start, end);
      if (!isNotName(token)) offer(token);
      return going;
    }
    const token = prose.slice(start, end);
    if (looksLikeName(token, prose[end])) offer(token);
    return going;
  });
}

/** Whether text[start, end) is ASCII letters only. */
function lettersOnly(text: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = text.charCodeAt(at) | 32;
    if (code < 97 || code > 122) return false;
  }
  return true;
}

/** Whether a lower-case letter is followed by an upper-case one in text[start, end) (what /[a-z][A-Z]/ finds). */
function hasLowerUpper(text: string, start: number, end: number): boolean {
  for (let at = start + 1; at < end; at++) {
    const code = text.charCodeAt(at);
    const previous = text.charCodeAt(at - 1);
    if (code >= 65 && code <= 90 && previous >= 97 && previous <= 122) return true;
  }
  return false;
}

/**
 * Identifier-like in prose: snake_case, camelCase, dotted or slashed, a call, or a number of two
 * digits or more. Read from the token's characters (what /^\d+$/, /^\d/, /[a-z][A-Z]/,
 * /^[A-Z]{2,}\d/ and /[A-Za-z0-9]\.[A-Za-z_]/ find): this runs on most words of a written file
 * edit_mask reads, where five expressions a word were a good part of its cost.
 */
function looksLikeName(token: string, after: string | undefined): boolean {
  if (isNotName(token)) return false;
  const first = token.charCodeAt(0);
  if (isDigit(first)) {
    // All digits: a number of two or more; a digit and then something else: a name.
    for (let at = 1; at < token.length; at++) if (!isDigit(token.charCodeAt(at))) return true;
    return token.length >= 2;
  }
  if (after === '(') return true;
  if (token.includes('_') || token.includes('::') || token.includes('/') || token.includes('\\')) return true;
  if (hasLowerUpper(token, 0, token.length) || capitalsThenDigit(token)) return true;
  // Dotted words: module.attr, file.py; but not a hyphenated English word ("built-in").
  return hasDottedWord(token);
}

/** One of the plain words NOT_NAMES holds, in any case (none is longer than three characters). */
function isNotName(token: string): boolean {
  return token.length <= 3 && NOT_NAMES.has(token.toLowerCase());
}

/** [0-9] (what \d is without the u flag). */
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isUpper(code: number): boolean {
  return code >= 65 && code <= 90;
}

/** Two or more capitals from the start, then a digit (/^[A-Z]{2,}\d/). */
function capitalsThenDigit(token: string): boolean {
  let at = 0;
  while (at < token.length && isUpper(token.charCodeAt(at))) at++;
  return at >= 2 && isDigit(token.charCodeAt(at));
}

/** A letter or digit, a dot, then a letter or underscore (/[A-Za-z0-9]\.[A-Za-z_]/). */
function hasDottedWord(token: string): boolean {
  for (let dot = token.indexOf('.', 1); dot !== -1; dot = token.indexOf('.', dot + 1)) {
    const before = token.charCodeAt(dot - 1);
    const after = token.charCodeAt(dot + 1);
    const beforeOk = isDigit(before) || isUpper(before) || (before >= 97 && before <= 122);
    const afterOk = isUpper(after) || (after >= 97 && after <= 122) || after === 95;
    if (beforeOk && afterOk) return true;
  }
  return false;
}

/** Most pieces of one token whose runs are names (a very long dotted chain stays cheap). */
const MAX_PIECES = 12;
/** Where each piece starts and ends (scratch, reused: this runs on every compound token). */
const PIECE_STARTS = new Int32Array(MAX_PIECES + 1);
const PIECE_ENDS = new Int32Array(MAX_PIECES + 1);

function addWithPieces(names: Set<string>, token: string): void {
  // A token already in the set came with its pieces: added with them, or as a run of pieces of a
  // longer token, whose runs include every run of its own. Its pieces are there, in their order.
  if (names.has(token)) return;
  names.add(token);
  // Where the pieces start and end, found by hand: the separators are `::` or one of `./:\-`,
  // read left to right (what /::|[./:\\-]/g finds), with no expression or match objects per
  // token (this runs on every word of every message history_trim and edit_mask read).
  const starts = PIECE_STARTS;
  const ends = PIECE_ENDS;
  starts[0] = 0;
  let separators = 0;
  for (let index = 0; index < token.length && separators < MAX_PIECES; index++) {
    const code = token.charCodeAt(index);
    if (code === COLON && token.charCodeAt(index + 1) === COLON) {
      ends[separators] = index;
      starts[++separators] = index + 2;
      index++;
    } else if (code === DOT || code === SLASH || code === COLON || code === BACKSLASH || code === HYPHEN) {
      ends[separators] = index;
      starts[++separators] = index + 1;
    }
  }
  if (separators === 0) return;
  if (separators < MAX_PIECES) ends[separators] = token.length;
  // Every contiguous run of the first pieces.
  const limit = Math.min(separators + 1, MAX_PIECES);
  for (let first = 0; first < limit; first++) {
    for (let final = first; final < limit; final++) {
      names.add(token.slice(starts[first]!, ends[final]!));
    }
  }
}

const COLON = 0x3a;
const DOT = 0x2e;
const SLASH = 0x2f;
const BACKSLASH = 0x5c;
const HYPHEN = 0x2d;
const OPEN_PAREN = 0x28;
