/**
 * The o200k_base pre-tokenizer, written out as a scanner. BPE runs inside the pieces this
 * splits a text into, so a text's token count is the sum of its pieces' counts. gpt-tokenizer
 * finds the pieces with o200k's regular expression:
 *
 * ```
 * [^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?
 * |[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?:'(?:…))?
 * |\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+     (flags gu)
 * ```
 *
 * which is about two thirds of its counting time on real requests (V8 runs Unicode property
 * classes slowly). This scanner finds the same pieces, the regular expression's alternatives and
 * backtracking worked out per branch below, at a fraction of the cost: a table lookup per ASCII
 * character, the expression's own classes (tested once per code point and remembered) for the
 * rest. `o200kPieces.test.ts` checks it against the expression on every real text and on
 * generated strings of every character class.
 */

/** Character classes of the expression, as bits. */
const UPPER = 1; // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]
const LOWER = 2; // [\p{Ll}\p{Lm}\p{Lo}\p{M}]
const LETTER = 4; // \p{L} (marks are not letters: a mark can open a piece as [^\r\n\p{L}\p{N}])
const NUMBER = 8; // \p{N}
const SPACE = 16; // \s
const NEWLINE = 32; // \r or \n
const KNOWN = 128; // set once a code point is classified

const UPPER_CLASS = /[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]/u;
const LOWER_CLASS = /[\p{Ll}\p{Lm}\p{Lo}\p{M}]/u;
const LETTER_CLASS = /\p{L}/u;
const NUMBER_CLASS = /\p{N}/u;
const SPACE_CLASS = /\s/u;

/** Classes of the Basic Multilingual Plane's code points, filled in as they are met (0: not yet). */
const bmpClasses = new Uint8Array(0x10000);
/** Classes of code points above it (emoji, rarer scripts), as they are met. */
const astralClasses = new Map<number, number>();

function classify(codePoint: number): number {
  const character = String.fromCodePoint(codePoint);
  let classes = KNOWN;
  if (UPPER_CLASS.test(character)) classes |= UPPER;
  if (LOWER_CLASS.test(character)) classes |= LOWER;
  if (LETTER_CLASS.test(character)) classes |= LETTER;
  if (NUMBER_CLASS.test(character)) classes |= NUMBER;
  if (SPACE_CLASS.test(character)) classes |= SPACE;
  if (codePoint === 10 || codePoint === 13) classes |= NEWLINE;
  return classes;
}

for (let code = 0; code < 128; code++) bmpClasses[code] = classify(code);

function classesOf(codePoint: number): number {
  if (codePoint < 0x10000) {
    const known = bmpClasses[codePoint]!;
    if (known !== 0) return known;
    const classes = classify(codePoint);
    bmpClasses[codePoint] = classes;
    return classes;
  }
  let classes = astralClasses.get(codePoint);
  if (classes === undefined) {
    classes = classify(codePoint);
    astralClasses.set(codePoint, classes);
  }
  return classes;
}

/** The code point at `index` as the u-flag expression reads it: a surrogate pair joined, a lone surrogate alone. */
function codePointAt(text: string, index: number, end: number): number {
  const high = text.charCodeAt(index);
  if (high < 0xd800 || high > 0xdbff || index + 1 >= end) return high;
  const low = text.charCodeAt(index + 1);
  return low >= 0xdc00 && low <= 0xdfff ? ((high - 0xd800) << 10) + (low - 0xdc00) + 0x10000 : high;
}

function width(codePoint: number): number {
  return codePoint > 0xffff ? 2 : 1;
}

/** The optional `'s 'd 'm 't 'll 've 're` (either case) at `index`: where the piece ends. */
function contractionEnd(text: string, index: number, end: number): number {
  if (index + 1 >= end || text.charCodeAt(index) !== 39) return index;
  const first = text.charCodeAt(index + 1) | 32;
  if (first === 115 || first === 100 || first === 109 || first === 116) return index + 2;
  if (index + 2 >= end) return index;
  const second = text.charCodeAt(index + 2) | 32;
  return (first === 108 && second === 108) || (first === 118 && second === 101) || (first === 114 && second === 101) ? index + 3 : index;
}

/** The end of the run of code points from `index` that all have one of `classes`. */
function runEnd(text: string, index: number, end: number, classes: number): number {
  let at = index;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code < 128) {
      if ((bmpClasses[code]! & classes) === 0) break;
      at++;
      continue;
    }
    const codePoint = codePointAt(text, at, end);
    if ((classesOf(codePoint) & classes) === 0) break;
    at += width(codePoint);
  }
  return at;
}

/**
 * `UPPER* LOWER+ contraction?` from `from`, or -1. Greedy UPPER* then LOWER+: when the character
 * after the UPPER run is LOWER, LOWER+ runs on from there. Otherwise the expression backtracks
 * into the UPPER run to the last character that is LOWER as well (Lm, Lo, M are both), which
 * LOWER+ then matches alone (the characters after it in the run are UPPER only).
 */
function casedEnd(text: string, from: number, end: number): number {
  let at = from;
  let afterLastBoth = -1;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code < 128) {
      if ((bmpClasses[code]! & UPPER) === 0) break;
      at++;
      continue;
    }
    const codePoint = codePointAt(text, at, end);
    const classes = classesOf(codePoint);
    if ((classes & UPPER) === 0) break;
    at += width(codePoint);
    if ((classes & LOWER) !== 0) afterLastBoth = at;
  }
  if (at < end) {
    const codePoint = codePointAt(text, at, end);
    if ((classesOf(codePoint) & LOWER) !== 0) return contractionEnd(text, runEnd(text, at + width(codePoint), end, LOWER), end);
  }
  return afterLastBoth >= 0 ? contractionEnd(text, afterLastBoth, end) : -1;
}

/** `UPPER+ LOWER* contraction?` from `from`, or -1 (no backtracking can change its end). */
function capitalEnd(text: string, from: number, end: number): number {
  const upperEnd = runEnd(text, from, end, UPPER);
  if (upperEnd === from) return -1;
  return contractionEnd(text, runEnd(text, upperEnd, end, LOWER), end);
}

/**
 * Where the o200k piece that starts at `start` ends (exclusive). `end` is the text's length.
 * The expression's alternatives in their order, each with the backtracking it would do.
 */
export function pieceEnd(text: string, start: number, end: number): number {
  const first = text.charCodeAt(start);
  if (first < 128) {
    const known = asciiPieceEnd(text, start, end, first);
    if (known >= 0) return known;
  }
  const codePoint = codePointAt(text, start, end);
  const classes = classesOf(codePoint);
  const next = start + width(codePoint);
  // [^\r\n\p{L}\p{N}]? opens the two letter alternatives; tried with it first, then without.
  const opens = (classes & (NEWLINE | LETTER | NUMBER)) === 0 && next < end;
  const cased = (classes & (UPPER | LOWER)) !== 0;
  if (opens || cased) {
    let found = opens ? casedEnd(text, next, end) : -1;
    if (found < 0 && cased) found = casedEnd(text, start, end);
    if (found < 0 && opens) found = capitalEnd(text, next, end);
    if (found < 0 && (classes & UPPER) !== 0) found = capitalEnd(text, start, end);
    if (found >= 0) return found;
  }
  // \p{N}{1,3}
  if ((classes & NUMBER) !== 0) {
    let at = next;
    for (let count = 1; count < 3 && at < end; count++) {
      const following = codePointAt(text, at, end);
      if ((classesOf(following) & NUMBER) === 0) break;
      at += width(following);
    }
    return at;
  }
  // ' ?[^\s\p{L}\p{N}]+[\r\n/]*'
  const symbolStart = codePoint === 32 ? start + 1 : start;
  if (symbolStart < end) {
    const first = codePointAt(text, symbolStart, end);
    if ((classesOf(first) & (SPACE | LETTER | NUMBER)) === 0) {
      let at = symbolStart + width(first);
      while (at < end) {
        const code = text.charCodeAt(at);
        if (code < 128) {
          if ((bmpClasses[code]! & (SPACE | LETTER | NUMBER)) !== 0) break;
          at++;
          continue;
        }
        const following = codePointAt(text, at, end);
        if ((classesOf(following) & (SPACE | LETTER | NUMBER)) !== 0) break;
        at += width(following);
      }
      while (at < end) {
        const code = text.charCodeAt(at);
        if (code !== 10 && code !== 13 && code !== 47) break;
        at++;
      }
      return at;
    }
  }
  // Whitespace (every \s character is one UTF-16 unit). \s*[\r\n]+ ends after the run's last
  // newline; else \s+(?!\S) leaves the run's last space to open the next piece (unless the text
  // ends there or the run is one space), which \s+ then takes alone.
  let at = start;
  let lastNewline = -1;
  while (at < end) {
    const spaceClasses = classesOf(text.charCodeAt(at));
    if ((spaceClasses & SPACE) === 0) break;
    if ((spaceClasses & NEWLINE) !== 0) lastNewline = at;
    at++;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  if (at === start) return next; // unreachable: every code point is in one alternative's class
  return at === end || at - start === 1 ? at : at - 1;
}

/**
 * The end of the piece at `start` for the commonest ASCII shapes, or -1 when the general way
 * must decide: a word of ASCII letters (`[A-Z]*[a-z]*`, either part possibly empty, so
 * `HTTPServer`, `camel`, `HTTP`), optionally opened by one character that is not a letter, digit
 * or line break (` word`, `.name`), and ended by an ASCII character that is not a letter; or up
 * to three ASCII digits ended the same way; or a run of ASCII symbols (after a space, if one
 * opens it) or of ASCII whitespace. The expression's branches give these ends as well: a letter
 * run is `UPPER* LOWER+` or else `UPPER+ LOWER*`, each taking the contraction after it; only a
 * character past 127 (a letter, mark, digit, symbol or space of another script) could lengthen
 * one, and where one comes next the general way decides.
 */
function asciiPieceEnd(text: string, start: number, end: number, first: number): number {
  let at = start;
  if (isAsciiDigit(first)) {
    at++;
    for (let count = 1; count < 3 && at < end; count++) {
      const code = text.charCodeAt(at);
      if (isAsciiDigit(code)) {
        at++;
        continue;
      }
      if (code >= 128) return -1;
      break;
    }
    if (at < end && text.charCodeAt(at) >= 128) return -1;
    return at;
  }
  if (!isAsciiLetter(first)) {
    const second = start + 1 < end ? text.charCodeAt(start + 1) : -1;
    // A character past 127 after it may be a letter it opens, or a space or symbol that lengthens its run.
    if (second >= 128) return -1;
    // An opener must be followed by a letter here; a line break opens nothing.
    if (first === 10 || first === 13 || !isAsciiLetter(second)) {
      if (!isAsciiSpace(first)) return asciiSymbolsEnd(text, start, end);
      return first === 32 && second >= 0 && !isAsciiSpace(second) && !isAsciiDigit(second) ? asciiSymbolsEnd(text, start + 1, end) : asciiSpacesEnd(text, start, end);
    }
    at++;
  }
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code < 65 || code > 90) break;
    at++;
  }
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code < 97 || code > 122) break;
    at++;
  }
  if (at === end) return at;
  const code = text.charCodeAt(at);
  if (code >= 128) return -1;
  return code === 39 ? contractionEnd(text, at, end) : at;
}

/**
 * ` ?[^\s\p{L}\p{N}]+[\r\n/]*` for ASCII symbols from `from` (after the space, if any): the
 * two letter alternatives need a letter after the opener, which the caller has ruled out. -1
 * when a character past 127 meets the run (it could be a symbol that lengthens it).
 */
function asciiSymbolsEnd(text: string, from: number, end: number): number {
  let at = from;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code >= 128) return -1;
    if (isAsciiLetter(code) || isAsciiDigit(code) || isAsciiSpace(code)) break;
    at++;
  }
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code !== 10 && code !== 13 && code !== 47) break;
    at++;
  }
  return at;
}

/**
 * A run of ASCII whitespace from `start`, as the general way below ends it (`\s*[\r\n]+`, else
 * `\s+(?!\S)`, else `\s+`). -1 when a character past 127 meets the run (it could be a space).
 */
function asciiSpacesEnd(text: string, start: number, end: number): number {
  let at = start;
  let lastNewline = -1;
  while (at < end) {
    const code = text.charCodeAt(at);
    if (code >= 128) return -1;
    if (!isAsciiSpace(code)) break;
    if (code === 10 || code === 13) lastNewline = at;
    at++;
  }
  if (lastNewline >= 0) return lastNewline + 1;
  return at === end || at - start === 1 ? at : at - 1;
}

/** JavaScript's `\s` below 128: tab, line feed, vertical tab, form feed, carriage return, space. */
function isAsciiSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function isAsciiDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isAsciiLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/**
 * The maximal runs of at least `length` UTF-16 units none of which is JavaScript's `\s` (what
 * `/\S{length,}/g` matches), as [start, end) pairs. Such a run holds a multiple of `length`, so
 * only the characters at those positions are looked at, and from each that is not a space the
 * run around it is walked (a word or so in ordinary text): a small share of the text is read.
 */
export function longRuns(text: string, length: number): [number, number][] {
  const runs: [number, number][] = [];
  const stride = Math.max(1, Math.floor(length));
  let anchor = 0;
  while (anchor < text.length) {
    if (isSpaceUnit(text, anchor)) {
      anchor += stride;
      continue;
    }
    let start = anchor;
    while (start > 0 && !isSpaceUnit(text, start - 1)) start--;
    let end = anchor + 1;
    while (end < text.length && !isSpaceUnit(text, end)) end++;
    if (end - start >= length) runs.push([start, end]);
    // The next anchor past this run (a run holds no space, so none in it starts another).
    anchor = end - (end % stride) + stride;
  }
  return runs;
}

/** Whether the UTF-16 unit at `index` is `\s` (a lone surrogate half is not). */
function isSpaceUnit(text: string, index: number): boolean {
  return (classesOf(text.charCodeAt(index)) & SPACE) !== 0;
}
