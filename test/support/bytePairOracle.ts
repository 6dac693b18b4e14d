/**
 * A plain reading of o200k_base's byte-pair merge, for tests: a piece's UTF-8 bytes as one-byte
 * parts, the adjacent pair whose joined bytes have the lowest rank merged (the leftmost on a tie)
 * until no pair is a token; ranks looked up by the bytes' hex. Slow and obviously so, it is the
 * reference where gpt-tokenizer is not one: gpt-tokenizer looks a candidate's bytes up as text
 * decoded by a TextDecoder that drops a leading byte-order mark, so it never merges U+FEFF's bytes
 * into the tokens that hold them (`\ufeff` alone is rank 5574) and can read `\ufeffusing`'s bytes
 * as `using`'s.
 */
import o200kRanks from 'gpt-tokenizer/bpeRanks/o200k_base';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

let byHex: Map<string, number> | undefined;

function ranks(): Map<string, number> {
  if (byHex) return byHex;
  byHex = new Map();
  (o200kRanks as readonly (string | readonly number[])[]).forEach((token, rank) => {
    byHex!.set((typeof token === 'string' ? Buffer.from(token, 'utf8') : Buffer.from(token)).toString('hex'), rank);
  });
  return byHex;
}

/** The o200k_base tokens of one pre-token piece, by the plain merge. */
export function oracleTokens(piece: string): number[] {
  const table = ranks();
  let parts: Buffer[] = [...Buffer.from(piece, 'utf8')].map((byte) => Buffer.from([byte]));
  for (;;) {
    let best = -1;
    let bestRank = Infinity;
    for (let index = 0; index + 1 < parts.length; index++) {
      const rank = table.get(Buffer.concat([parts[index]!, parts[index + 1]!]).toString('hex'));
      if (rank !== undefined && rank < bestRank) [best, bestRank] = [index, rank];
    }
    if (best < 0) break;
    parts = [...parts.slice(0, best), Buffer.concat([parts[best]!, parts[best + 1]!]), ...parts.slice(best + 2)];
  }
  return parts.map((part) => table.get(part.toString('hex'))!);
}

/** A text's pieces as o200k's regular expression splits it (gpt-tokenizer's copy of it). */
export function expressionPieces(text: string): string[] {
  return [...text.matchAll(new RegExp(O200K_TOKEN_SPLIT_REGEX.source, O200K_TOKEN_SPLIT_REGEX.flags))].map((match) => match[0]);
}

/**
 * What o200k_base counts for a text, special-token strings as text: gpt-tokenizer's count, but
 * where the text holds U+FEFF (which gpt-tokenizer never merges) the plain merge's count of each
 * of its pieces.
 */
export function referenceCount(text: string): number {
  if (!text.includes('\ufeff')) return countTokens(text, { disallowedSpecial: new Set<string>() });
  return expressionPieces(text).reduce((sum, piece) => sum + oracleTokens(piece).length, 0);
}
