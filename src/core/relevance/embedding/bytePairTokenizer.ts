/**
 * Byte-level BPE (GPT-2, RoBERTa and their descendants): split text with the GPT-2 pattern,
 * map each piece's UTF-8 bytes to printable characters, merge adjacent symbols by merge rank
 * until no ranked pair is left, and look the symbols up in the vocabulary. Wrapped in the
 * model's begin and end tokens when it has them (`<s>` … `</s>`).
 */
import type { TextTokenizer } from './textTokenizer';

export interface BytePairOptions {
  /** Put a space before the text, as RoBERTa's `add_prefix_space` does. Default false. */
  readonly addPrefixSpace?: boolean;
  /** Tokens wrapped around the text; default `<s>` and `</s>` when the vocabulary has them. */
  readonly beginToken?: string;
  readonly endToken?: string;
  readonly padToken?: string;
  readonly unknownToken?: string;
}

const GPT2_PATTERN = /'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+/gu;

export function createBytePairTokenizer(vocabulary: ReadonlyMap<string, number>, merges: readonly string[], options: BytePairOptions = {}): TextTokenizer {
  const ranks = new Map<string, number>();
  merges.forEach((merge, rank) => ranks.set(merge, rank));
  const byteToCharacter = bytesToUnicode();
  const beginId = vocabulary.get(options.beginToken ?? '<s>');
  const endId = vocabulary.get(options.endToken ?? '</s>');
  const unknownId = options.unknownToken ? vocabulary.get(options.unknownToken) : undefined;
  const padId = vocabulary.get(options.padToken ?? '<pad>') ?? 0;
  const cache = new Map<string, number[]>();
  const encoder = new TextEncoder();

  const encodePiece = (piece: string): number[] => {
    const cached = cache.get(piece);
    if (cached) return cached;
    let symbols = [...encoder.encode(piece)].map((byte) => byteToCharacter[byte]!);
    while (symbols.length > 1) {
      let bestRank = Infinity;
      let bestIndex = -1;
      for (let index = 0; index < symbols.length - 1; index++) {
        const rank = ranks.get(`${symbols[index]} ${symbols[index + 1]}`);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          bestIndex = index;
        }
      }
      if (bestIndex < 0) break;
      const first = symbols[bestIndex]!;
      const second = symbols[bestIndex + 1]!;
      // Merge every occurrence of the best pair in one pass, left to right, as the reference does.
      const merged: string[] = [];
      for (let index = 0; index < symbols.length; index++) {
        if (index < symbols.length - 1 && symbols[index] === first && symbols[index + 1] === second) {
          merged.push(first + second);
          index++;
        } else {
          merged.push(symbols[index]!);
        }
      }
      symbols = merged;
    }
    const ids: number[] = [];
    for (const symbol of symbols) {
      const id = vocabulary.get(symbol);
      if (id !== undefined) ids.push(id);
      else if (unknownId !== undefined) ids.push(unknownId);
    }
    if (cache.size > 20_000) cache.clear();
    cache.set(piece, ids);
    return ids;
  };

  return {
    kind: 'bpe',
    padId,
    encode(text: string, maxTokens: number): number[] {
      const reserved = (beginId !== undefined ? 1 : 0) + (endId !== undefined ? 1 : 0);
      const limit = Math.max(1, maxTokens - reserved);
      const ids: number[] = [];
      const source = options.addPrefixSpace && !text.startsWith(' ') ? ` ${text}` : text;
      for (const match of source.matchAll(GPT2_PATTERN)) {
        if (ids.length >= limit) break;
        ids.push(...encodePiece(match[0]));
      }
      ids.length = Math.min(ids.length, limit);
      return [...(beginId !== undefined ? [beginId] : []), ...ids, ...(endId !== undefined ? [endId] : [])];
    },
  };
}

/**
 * GPT-2's reversible map from bytes to printable characters: printable Latin-1 bytes map to
 * themselves, the rest to characters from U+0100 on, in byte order.
 */
export function bytesToUnicode(): string[] {
  const characters = new Array<string>(256);
  let next = 256;
  for (let byte = 0; byte < 256; byte++) {
    const printable = (byte >= 0x21 && byte <= 0x7e) || (byte >= 0xa1 && byte <= 0xac) || (byte >= 0xae && byte <= 0xff);
    characters[byte] = String.fromCodePoint(printable ? byte : next++);
  }
  return characters;
}
