/**
 * BERT's WordPiece tokenizer: clean and (optionally) lower-case and strip accents, split on
 * whitespace and punctuation (CJK characters stand alone), then greedy longest-match-first
 * pieces with a continuation prefix (`##`); a word that cannot be pieced becomes [UNK].
 * [CLS] text [SEP], truncated to the model's limit.
 */
import type { TextTokenizer } from './textTokenizer';

export interface WordPieceOptions {
  /** Lower-case and strip accents first (uncased models). Default true. */
  readonly lowercase?: boolean;
  /** Prefix of a piece that continues a word. Default `##`. */
  readonly continuingPrefix?: string;
  /** Longer words become [UNK] without piecing. Default 100. */
  readonly maxCharactersPerWord?: number;
  readonly unknownToken?: string;
  readonly classifierToken?: string;
  readonly separatorToken?: string;
  readonly padToken?: string;
}

export function createWordPieceTokenizer(vocabulary: ReadonlyMap<string, number>, options: WordPieceOptions = {}): TextTokenizer {
  const lowercase = options.lowercase ?? true;
  const prefix = options.continuingPrefix ?? '##';
  const maxCharacters = options.maxCharactersPerWord ?? 100;
  const idOf = (token: string): number => {
    const id = vocabulary.get(token);
    if (id === undefined) throw new Error(`Herald: the WordPiece vocabulary has no "${token}" token`);
    return id;
  };
  const unknownId = idOf(options.unknownToken ?? '[UNK]');
  const classifierId = idOf(options.classifierToken ?? '[CLS]');
  const separatorId = idOf(options.separatorToken ?? '[SEP]');
  const padId = vocabulary.get(options.padToken ?? '[PAD]') ?? 0;

  const pieceWord = (word: string, out: number[]): void => {
    const characters = [...word];
    if (characters.length > maxCharacters) {
      out.push(unknownId);
      return;
    }
    const pieces: number[] = [];
    let start = 0;
    while (start < characters.length) {
      let end = characters.length;
      let found: number | undefined;
      while (start < end) {
        const candidate = (start > 0 ? prefix : '') + characters.slice(start, end).join('');
        const id = vocabulary.get(candidate);
        if (id !== undefined) {
          found = id;
          break;
        }
        end--;
      }
      if (found === undefined) {
        out.push(unknownId);
        return;
      }
      pieces.push(found);
      start = end;
    }
    out.push(...pieces);
  };

  return {
    kind: 'wordpiece',
    padId,
    encode(text: string, maxTokens: number): number[] {
      const ids: number[] = [classifierId];
      const limit = Math.max(2, maxTokens) - 1;
      for (const word of basicTokens(text, lowercase)) {
        if (ids.length >= limit) break;
        pieceWord(word, ids);
      }
      ids.length = Math.min(ids.length, limit);
      ids.push(separatorId);
      return ids;
    },
  };
}

/** BERT's basic tokenization: words and single punctuation or CJK characters. */
export function basicTokens(text: string, lowercase: boolean): string[] {
  let cleaned = '';
  for (const character of text) {
    const code = character.codePointAt(0)!;
    if (code === 0 || code === 0xfffd || (isControl(character) && !/\s/.test(character))) continue;
    cleaned += isCjk(code) ? ` ${character} ` : /\s/.test(character) ? ' ' : character;
  }
  if (lowercase) cleaned = cleaned.toLowerCase().normalize('NFD').replace(/\p{Mn}/gu, '');
  const tokens: string[] = [];
  for (const word of cleaned.split(' ')) {
    if (word.length === 0) continue;
    let current = '';
    for (const character of word) {
      if (isPunctuation(character)) {
        if (current.length > 0) tokens.push(current);
        tokens.push(character);
        current = '';
      } else {
        current += character;
      }
    }
    if (current.length > 0) tokens.push(current);
  }
  return tokens;
}

function isControl(character: string): boolean {
  return /\p{Cc}|\p{Cf}/u.test(character);
}

/** BERT counts every ASCII non-alphanumeric printable character as punctuation, plus Unicode P*. */
function isPunctuation(character: string): boolean {
  const code = character.codePointAt(0)!;
  if ((code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) || (code >= 123 && code <= 126)) return true;
  return /\p{P}/u.test(character);
}

function isCjk(code: number): boolean {
  return (code >= 0x4e00 && code <= 0x9fff) || (code >= 0x3400 && code <= 0x4dbf) || (code >= 0x20000 && code <= 0x2a6df) ||
    (code >= 0x2a700 && code <= 0x2b73f) || (code >= 0x2b740 && code <= 0x2b81f) || (code >= 0x2b820 && code <= 0x2ceaf) ||
    (code >= 0xf900 && code <= 0xfaff) || (code >= 0x2f800 && code <= 0x2fa1f);
}
