/**
 * The code-aware tokenizer behind lexical ranking. Text in coding sessions mixes prose,
 * identifiers, paths, numbers and status codes, so one word becomes several search terms:
 *
 * - identifiers keep their whole form and add their parts: `getUserName` → `getusername`,
 *   `get`, `user`, `name`; `MAX_RETRY_COUNT` → `max_retry_count`, `max`, `retry`, `count`;
 * - paths and dotted names keep their whole form and add their pieces and base name:
 *   `src/core/index.ts` → `src/core/index.ts`, `index.ts`, `src`, `core`, `index`, `ts`;
 * - numbers are kept as written (`500`, `3.14`, `0x1f`), so status codes and line numbers match;
 * - prose words are lower-cased, Porter-stemmed and stop words dropped.
 */
import { porterStem } from './porterStemmer';

/** Common English words that carry no topic; dropped from prose, never from identifiers. */
const STOP_WORDS = new Set([
  'a', 'an', 'and', 'are', 'as', 'at', 'be', 'been', 'but', 'by', 'can', 'could', 'did', 'do', 'does', 'for', 'from',
  'had', 'has', 'have', 'he', 'her', 'him', 'his', 'how', 'i', 'if', 'in', 'into', 'is', 'it', 'its', 'me', 'my',
  'no', 'of', 'on', 'or', 'our', 'she', 'should', 'so', 'than', 'that', 'the', 'their', 'them', 'then', 'there',
  'these', 'they', 'this', 'those', 'to', 'too', 'us', 'was', 'we', 'were', 'what', 'when', 'where', 'which', 'while',
  'who', 'whom', 'why', 'will', 'with', 'would', 'you', 'your', 'yours', 'about', 'also', 'any', 'all', 'some', 'such',
  'very', 'just', 'only', 'own', 'same', 'each', 'other', 'more', 'most', 'may', 'might', 'must', 'shall', 'am',
]);

/**
 * A "word" in the broad sense: letters, digits, underscores, and the joiners that make paths,
 * dotted names and versions (`/ . - :` between word characters).
 */
const WORD = /[\p{L}\p{N}_$]+(?:[./\\:-]+[\p{L}\p{N}_$]+)*/gu;
const JOINERS = /[./\\:-]+/;
const WORD_CHARACTER = /^[\p{L}\p{N}_$]$/u;
const JOINER_CHARACTERS = new Set(['.', '/', '\\', ':', '-']);
const NUMBER = /^(?:0x[0-9a-f]+|\d+(?:[.,]\d+)*)$/i;
/** Splits camelCase and PascalCase, keeping acronyms together: `parseHTTPResponse2` → parse, HTTP, Response, 2. */
const CAMEL_PART = /\p{Lu}+(?=\p{Lu}\p{Ll})|\p{Lu}?\p{Ll}+|\p{Lu}+|\p{N}+/gu;

/** Search terms of a text, in order of appearance (duplicates kept, so term frequency counts). */
export function tokenizeForSearch(text: string): string[] {
  const terms: string[] = [];
  forEachSearchWord(text, (word) => {
    const wordTerms = searchTermsOfWord(word);
    for (let index = 0; index < wordTerms.length; index++) terms.push(wordTerms[index]!);
  });
  return terms;
}

/**
 * Visits each word of a text in order (what WORD matches): a text's search terms are its
 * words' terms ({@link searchTermsOfWord}) one after the other, so a caller that meets the same
 * words again can keep what it derived from each.
 */
export function forEachSearchWord(text: string, visit: (word: string) => void): void {
  forEachSearchWordRange(text, (source, start, end) => visit(start === 0 && end === source.length ? source : source.slice(start, end)));
}

/**
 * The same words as {@link forEachSearchWord}, each given as `source.slice(start, end)` without
 * making that string (`source` is the text itself, or for text beyond ASCII the word alone), so
 * a caller that keeps what it derived from each word can look a word up by its characters.
 */
export function forEachSearchWordRange(text: string, visit: (source: string, start: number, end: number) => void): void {
  if (NON_ASCII.test(text)) {
    for (const match of text.matchAll(WORD)) visit(match[0], 0, match[0].length);
    return;
  }
  // ASCII text (most logs and code): the words WORD matches, found without the regular expression.
  const length = text.length;
  let at = 0;
  while (at < length) {
    if (!isAsciiWordCode(text.charCodeAt(at))) {
      at++;
      continue;
    }
    const start = at;
    at = skipWordCodes(text, at + 1);
    // A run of joiners continues the word only when a word character follows it.
    for (;;) {
      let joined = at;
      while (joined < length && isAsciiJoinerCode(text.charCodeAt(joined))) joined++;
      if (joined === at || joined === length || !isAsciiWordCode(text.charCodeAt(joined))) break;
      at = skipWordCodes(text, joined + 1);
    }
    visit(text, start, at);
  }
}

/** The search terms of one word (as {@link forEachSearchWord} gives it), from the memo when the word was seen before. */
export function searchTermsOfWord(word: string): readonly string[] {
  // Numbers and digit compounds are cut from their characters at once, and not remembered: nearly
  // every one is new (timestamps, ids, addresses), and kept they filled the memo by the thousand.
  if (isAsciiDigitCode(word.charCodeAt(0))) {
    const digits: string[] = [];
    if (addDigitCompound(word, digits)) return digits;
  }
  let wordTerms = WORD_CACHE.get(word);
  if (wordTerms === undefined) {
    const fresh: string[] = [];
    addWordGenerally(word, fresh);
    wordTerms = fresh;
    // Logs and code repeat the same words endlessly; a bounded memo makes re-tokenizing them cheap.
    if (WORD_CACHE.size >= WORD_CACHE_LIMIT) WORD_CACHE.clear();
    WORD_CACHE.set(word, wordTerms);
  }
  return wordTerms;
}

const NON_ASCII = /[^\0-\x7f]/;

/** `[\p{L}\p{N}_$]` for an ASCII code unit. */
function isAsciiWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95 || code === 36;
}

function isAsciiDigitCode(code: number): boolean {
  return code >= 48 && code <= 57;
}

/** `[./\\:-]` for a code unit. */
function isAsciiJoinerCode(code: number): boolean {
  return code === 46 || code === 47 || code === 92 || code === 58 || code === 45;
}

/** The index after the run of ASCII word characters starting at `from`. */
function skipWordCodes(text: string, from: number): number {
  let at = from;
  while (at < text.length && isAsciiWordCode(text.charCodeAt(at))) at++;
  return at;
}

const WORD_CACHE = new Map<string, readonly string[]>();
const WORD_CACHE_LIMIT = 50_000;

/**
 * The terms of a word of ASCII digits and joiners (a number, a date, a time, an address, a
 * version: `2015-10-18`, `10.190.173.170:54310`), the ones the general rules give, read from its
 * characters: the whole, the last two pieces when there are more than two, then each piece (a
 * number, kept as written); digits alone and a dotted number (`3.14`, `10.1.2.3`) are one term.
 * Logs are full of such words, nearly every one new. False (nothing added) for any other word.
 */
function addDigitCompound(word: string, terms: string[]): boolean {
  // A word as forEachSearchWord gives it starts and ends with a word character.
  if (!isAsciiDigitCode(word.charCodeAt(0)) || !isAsciiDigitCode(word.charCodeAt(word.length - 1))) return false;
  let joiners = 0;
  let plainNumber = true;
  let previousJoiner = false;
  for (let index = 0; index < word.length; index++) {
    const code = word.charCodeAt(index);
    if (code >= 48 && code <= 57) {
      previousJoiner = false;
      continue;
    }
    if (!isAsciiJoinerCode(code)) return false;
    joiners++;
    // NUMBER's `\d+(?:[.,]\d+)*`: single dots between digits.
    if (code !== 46 || previousJoiner) plainNumber = false;
    previousJoiner = true;
  }
  terms.push(word);
  // Digits alone, or NUMBER's dotted number: the word is its one term.
  if (joiners === 0 || plainNumber) return true;
  // The pieces: the runs of digits (a word starts and ends with one; joiners come in runs between).
  const start = terms.length;
  let pieceStart = -1;
  let penultimate = -1;
  let last = -1;
  for (let index = 0; index <= word.length; index++) {
    const digit = index < word.length && word.charCodeAt(index) >= 48 && word.charCodeAt(index) <= 57;
    if (digit && pieceStart < 0) pieceStart = index;
    if (!digit && pieceStart >= 0) {
      terms.push(word.slice(pieceStart, index));
      penultimate = last;
      last = pieceStart;
      pieceStart = -1;
    }
  }
  // More than two pieces: the last two with their joiners come before the pieces.
  if (terms.length - start > 2) terms.splice(start, 0, word.slice(penultimate));
  return true;
}

/** The terms of one word by the general rules (numbers, compounds, identifiers, prose). */
export function addWordGenerally(word: string, terms: string[]): void {
  const lower = word.toLowerCase();
  if (NUMBER.test(lower)) {
    terms.push(lower);
    return;
  }
  if (JOINERS.test(word)) {
    const pieces = word.split(JOINERS).filter((piece) => piece.length > 0);
    // A compound (path, dotted name, version, key:value): the whole, its last two pieces, then each piece.
    terms.push(lower);
    if (pieces.length > 2) {
      const tail = lastTwoPieces(lower);
      if (tail !== undefined) terms.push(tail);
    }
    for (const piece of pieces) addIdentifier(piece, terms, false);
    return;
  }
  addIdentifier(word, terms, true);
}

/**
 * The last two pieces of a compound with the joiners between them (`src/core/index.ts` →
 * `index.ts`): what `/[\p{L}\p{N}_$]+[./\\:-]+[\p{L}\p{N}_$]+$/u` matches in `text`, found by
 * walking back from the end (the pattern, tried from every position, is quadratic on a long
 * first piece). Undefined when the text does not end that way.
 */
export function lastTwoPieces(text: string): string | undefined {
  let start = text.length;
  /** Moves `start` back over the code points `accept` takes; how many code units it passed. */
  const skipBack = (accept: (from: number, to: number) => boolean): number => {
    const runEnd = start;
    while (start > 0) {
      const previous = codePointStart(text, start);
      if (!accept(previous, start)) break;
      start = previous;
    }
    return runEnd - start;
  };
  const isWordCharacter = (from: number, to: number): boolean => {
    const code = text.charCodeAt(from);
    // ASCII without a regular expression: this walks every character of a long first piece.
    if (to - from === 1 && code < 128) return (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 36;
    return WORD_CHARACTER.test(text.slice(from, to));
  };
  const isJoiner = (from: number, to: number): boolean => to - from === 1 && JOINER_CHARACTERS.has(text[from]!);
  if (skipBack(isWordCharacter) === 0 || skipBack(isJoiner) === 0 || skipBack(isWordCharacter) === 0) return undefined;
  return text.slice(start);
}

/** Where the code point that ends at `end` starts (a surrogate pair counts as one, as the `u` flag reads it). */
function codePointStart(text: string, end: number): number {
  const low = text.charCodeAt(end - 1);
  if (end >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(end - 2);
    if (high >= 0xd800 && high <= 0xdbff) return end - 2;
  }
  return end - 1;
}

/** One identifier or prose word; `standalone` words may be stop words, parts of a compound are kept. */
function addIdentifier(word: string, terms: string[], standalone: boolean): void {
  const lower = word.toLowerCase();
  if (NUMBER.test(lower)) {
    terms.push(lower);
    return;
  }
  const snakeParts = word.split(/[_$]+/).filter((part) => part.length > 0);
  const parts: string[] = [];
  for (const snakePart of snakeParts) {
    const camelParts = snakePart.match(CAMEL_PART) ?? [snakePart];
    parts.push(...camelParts);
  }
  if (parts.length <= 1) {
    addProse(lower, terms, standalone);
    return;
  }
  // A compound identifier: the whole (never stemmed: it names one thing), then each part as prose.
  terms.push(lower);
  for (const part of parts) addProse(part.toLowerCase(), terms, false);
}

function addProse(word: string, terms: string[], dropStopWords: boolean): void {
  if (word.length === 0) return;
  if (NUMBER.test(word)) {
    terms.push(word);
    return;
  }
  if (dropStopWords && STOP_WORDS.has(word)) return;
  if (word.length === 1) return;
  terms.push(/^[a-z]+$/.test(word) ? porterStem(word) : word);
}
