/**
 * The features of Herald's static embedding model: a text's search terms (the code-aware
 * tokenizer's stemmed words, identifier parts and compounds), each one a row of a learned
 * vocabulary when the model knows the term, plus hashed character n-grams of the term, so a
 * word the model never saw (`getUserNames`, `exhaustions`) still lands near its pieces.
 *
 * Shared by the trainer (scripts/model) and the embedder, so a text is featurized the same
 * way in both. Deterministic: FNV-1a hashing, terms in first-appearance order.
 */
import { tokenizeForSearch } from '../searchTokenizer';

/** How a model turns text into rows: the layout part of its header. */
export interface StaticFeatureLayout {
  /** Terms with their own row, in row order (row = index). */
  readonly vocabulary: readonly string[];
  /** Hashed n-gram rows after the vocabulary rows. */
  readonly ngramBuckets: number;
  /** Shortest and longest character n-gram of a term (with `<` and `>` marking its ends). */
  readonly ngramMin: number;
  readonly ngramMax: number;
  /** Terms of a text beyond this many are not read (long documents: their start says what they are). */
  readonly maxTerms: number;
}

/** A text's features: row ids and their weights (parallel arrays). */
export interface TextFeatures {
  readonly rows: Int32Array;
  readonly weights: Float32Array;
}

/** FNV-1a over the UTF-16 code units of a string, 32 bits. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Turns texts into feature rows; one per model, with a bounded memo of each term's rows. */
export class StaticFeaturizer {
  private readonly termRows = new Map<string, Int32Array>();
  private readonly vocabularyIndex: Map<string, number>;
  /**
   * The vocabulary's terms that look like opaque numbers (a hundred or so): a log's opaque
   * numbers are looked up here, in a table that stays in cache, not in the whole vocabulary.
   */
  private readonly numberVocabulary: ReadonlySet<string>;
  private readonly scratchCounts = new Map<string, number>();
  readonly rowCount: number;

  /**
   * `weighOpaqueNumbers`: read opaque numbers like any term (training only). herald-retrieval
   * 1.0.0 was trained that way, before the embedder learned to skip them, so its recipe sets it.
   */
  constructor(private readonly layout: StaticFeatureLayout, private readonly weighOpaqueNumbers = false) {
    this.vocabularyIndex = new Map(layout.vocabulary.map((term, index) => [term, index]));
    this.numberVocabulary = new Set(layout.vocabulary.filter(looksLikeOpaqueNumber));
    this.rowCount = layout.vocabulary.length + layout.ngramBuckets;
  }

  /**
   * The rows of one term: its vocabulary row (first, when it has one) and its n-gram rows.
   * A term's weight is split evenly over its n-grams, with the vocabulary row counting as
   * much as all of them together.
   */
  rowsOf(term: string): Int32Array {
    let rows = this.termRows.get(term);
    if (rows) return rows;
    const count = this.rowCountOf(term, this.vocabularyIndex.get(term) !== undefined);
    rows = new Int32Array(count);
    this.writeRows(term, rows);
    if (this.termRows.size >= TERM_MEMO_LIMIT) this.termRows.clear();
    this.termRows.set(term, rows);
    return rows;
  }

  /** How many rows a term has: its n-grams, and its vocabulary row when `known`. */
  rowCountOf(term: string, known: boolean): number {
    const { ngramMin, ngramMax } = this.layout;
    const markedLength = term.length + 2;
    let count = known ? 1 : 0;
    for (let size = ngramMin; size <= ngramMax; size++) count += Math.max(0, markedLength - size + 1);
    return count;
  }

  /**
   * Writes the term's rows (what {@link rowsOf} gives, in its order) into `out`, which holds at
   * least {@link rowCountOf} entries, and returns whether the term has a vocabulary row. Nothing
   * is kept: for a caller that uses a term's rows once (the embedder keeps the term's vector).
   */
  writeRows(term: string, out: Int32Array): boolean {
    const known = this.vocabularyIndex.get(term);
    const { ngramMin, ngramMax, ngramBuckets } = this.layout;
    let at = 0;
    if (known !== undefined) out[at++] = known;
    const base = this.layout.vocabulary.length;
    // `<term>`'s n-grams, hashed with FNV-1a over the code units in place (the same hash as
    // fnv1a(slice), without making the marked string or its slices).
    const markedLength = term.length + 2;
    for (let size = ngramMin; size <= ngramMax; size++) {
      for (let start = 0; start + size <= markedLength; start++) {
        let hash = 0x811c9dc5;
        for (let index = start; index < start + size; index++) {
          hash ^= index === 0 ? 60 : index === markedLength - 1 ? 62 : term.charCodeAt(index - 1);
          hash = Math.imul(hash, 0x01000193);
        }
        out[at++] = base + ((hash >>> 0) % ngramBuckets);
      }
    }
    return known !== undefined;
  }

  /** Whether the term has its own vocabulary row. */
  knows(term: string): boolean {
    return this.vocabularyIndex.has(term);
  }

  /** A text's distinct terms (the first `maxTerms` read) with the weight each gets: 1 + ln(count). */
  termWeights(text: string): Map<string, number> {
    return this.weightsOfTerms(tokenizeForSearch(text));
  }

  /** The same for a text already tokenized (`terms` = tokenizeForSearch(text)). */
  weightsOfTerms(terms: readonly string[]): Map<string, number> {
    const weights = new Map<string, number>();
    for (const [term, count] of this.countsOfTerms(terms)) weights.set(term, 1 + Math.log(count));
    return weights;
  }

  /**
   * How often each distinct term occurs among the first `maxTerms` that carry meaning, in
   * order of first occurrence. The map is reused by the next call: read it before calling again.
   */
  countsOfTerms(terms: readonly string[]): ReadonlyMap<string, number> {
    const counts = this.scratchCounts;
    counts.clear();
    this.forEachCountedTerm(terms, (term) => counts.set(term, (counts.get(term) ?? 0) + 1));
    return counts;
  }

  /** Visits, in order, each of the first `maxTerms` terms that carry meaning (opaque numbers skipped): the terms a text's vector is made of. */
  forEachCountedTerm(terms: readonly string[], visit: (term: string) => void): void {
    let read = 0;
    for (let index = 0; index < terms.length && read < this.layout.maxTerms; index++) {
      const term = terms[index]!;
      // Checked before anything is looked up: opaque numbers are mostly seen once (timestamps, ids), and a cheap test.
      if (!this.weighOpaqueNumbers && this.isOpaqueNumber(term)) continue;
      visit(term);
      read++;
    }
  }

  /**
   * A run of digits and joiners the model has no row for (a timestamp, an address, an id,
   * a measurement: `16:13:38.811`, `10.30.1.4`, `20171223-22`): its n-grams say nothing of a
   * topic, and in logs such terms are nearly all of the distinct ones, each new one a few
   * dozen rows to sum. It gets no weight; lexical ranking still matches it exactly.
   */
  isOpaqueNumber(term: string): boolean {
    return looksLikeOpaqueNumber(term) && !this.numberVocabulary.has(term);
  }

  /**
   * The share of a term's weight each of its rows gets: the vocabulary row as much as all the
   * n-grams together; a term without a row of its own spreads it all over its n-grams.
   */
  rowShare(term: string, index: number): number {
    const known = this.knows(term);
    const ngrams = this.rowsOf(term).length - (known ? 1 : 0);
    if (known && index === 0) return 1;
    return ngrams > 0 ? (known ? 1 : 2) / ngrams : 0;
  }

  /** The features of a text: every distinct term's weight spread over its rows. */
  features(text: string): TextFeatures {
    const counts = this.termWeights(text);
    let size = 0;
    for (const term of counts.keys()) size += this.rowsOf(term).length;
    const rows = new Int32Array(size);
    const weights = new Float32Array(size);
    let at = 0;
    for (const [term, weight] of counts) {
      const termRows = this.rowsOf(term);
      const known = this.knows(term);
      const ngrams = termRows.length - (known ? 1 : 0);
      for (let index = 0; index < termRows.length; index++) {
        rows[at] = termRows[index]!;
        // The same shares as rowShare, in the order of operations the shipped model was trained with.
        weights[at] = known && index === 0 ? weight : ngrams > 0 ? (weight / ngrams) * (known ? 1 : 2) : 0;
        at++;
      }
    }
    return { rows, weights };
  }
}

const TERM_MEMO_LIMIT = 200_000;

/** An opaque number's shape (see StaticFeaturizer.isOpaqueNumber), whether or not the vocabulary has it. */
function looksLikeOpaqueNumber(term: string): boolean {
  const first = term.charCodeAt(0);
  // Most terms are words: the first character settles it before any pattern runs.
  if (term.length < OPAQUE_NUMBER_MIN_LENGTH || first < DIGIT_ZERO || first > DIGIT_NINE) return false;
  return isDigitsAndJoiners(term);
}
/**
 * Whether a term is digits with the joiners the tokenizer keeps inside a compound (see
 * searchTokenizer.ts) and commas, nothing else: what `/^[\d.:\-/\\,]+$/` matches, read from its
 * characters (a log's terms are mostly such, each new one tested once).
 */
export function isDigitsAndJoiners(term: string): boolean {
  if (term.length === 0) return false;
  for (let index = 0; index < term.length; index++) {
    const code = term.charCodeAt(index);
    // 0-9 . : - / \ ,
    if ((code < 48 || code > 57) && code !== 46 && code !== 58 && code !== 45 && code !== 47 && code !== 92 && code !== 44) return false;
  }
  return true;
}
/** Shorter numbers (status codes, ports, years) stay: they are few and may be the topic. */
const OPAQUE_NUMBER_MIN_LENGTH = 5;
const DIGIT_ZERO = 48;
const DIGIT_NINE = 57;
