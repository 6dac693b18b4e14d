/**
 * Herald's static embedding model: one learned vector per feature row (see staticFeatures.ts),
 * a text's vector the weighted sum of its rows, scaled to unit length. No attention, no
 * runtime: embedding is a few hundred additions per text, so it runs in the extension host,
 * the CLI and the strategies' time limits alike.
 *
 * `model.bin` layout (little-endian):
 *
 *   bytes 0–7    "HRLDSEM1"
 *   bytes 8–11   header length H (uint32)
 *   H bytes      header JSON: version, dimension, and the feature layout (vocabulary, n-grams)
 *   padding      to a multiple of 4
 *   rows × 4     float32 scale of each row
 *   rows × dim   int8 weights, row after row (value = int8 × the row's scale)
 *
 * The checksum in `herald-model.json` is checked before this file is read (modelFolder.ts).
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import { GenerationalCache } from '../../generationalCache';
import { tokenizeForSearch } from '../searchTokenizer';
import type { TermBatch, TermEmbedder } from '../types';
import { StaticFeaturizer, type StaticFeatureLayout } from './staticFeatures';

export const STATIC_MODEL_MAGIC = 'HRLDSEM1';
export const STATIC_MODEL_FILE = 'model.bin';

const headerSchema = z.strictObject({
  format: z.literal(1),
  dimension: z.number().int().min(2).max(1024),
  rows: z.number().int().positive(),
  vocabulary: z.array(z.string()),
  ngramBuckets: z.number().int().min(1),
  ngramMin: z.number().int().min(1).max(8),
  ngramMax: z.number().int().min(1).max(8),
  maxTerms: z.number().int().min(1),
});

/** What a static model's header says. */
export type StaticModelHeader = z.infer<typeof headerSchema>;

/** A static model in memory: its header and dequantized-on-the-fly weights. */
export interface StaticModel {
  readonly header: StaticModelHeader;
  readonly scales: Float32Array;
  readonly weights: Int8Array;
}

/** Encodes a model as `model.bin` bytes (used by the trainer; the same bytes every time for the same weights). */
export function encodeStaticModel(header: StaticModelHeader, scales: Float32Array, weights: Int8Array): Buffer {
  if (scales.length !== header.rows || weights.length !== header.rows * header.dimension) throw new Error('Herald: static model sizes do not match its header');
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const headerEnd = 12 + json.length;
  const padding = (4 - (headerEnd % 4)) % 4;
  const buffer = Buffer.alloc(headerEnd + padding + scales.length * 4 + weights.length);
  buffer.write(STATIC_MODEL_MAGIC, 0, 'latin1');
  buffer.writeUInt32LE(json.length, 8);
  json.copy(buffer, 12);
  let at = headerEnd + padding;
  for (const scale of scales) {
    buffer.writeFloatLE(scale, at);
    at += 4;
  }
  Buffer.from(weights.buffer, weights.byteOffset, weights.byteLength).copy(buffer, at);
  return buffer;
}

/** Reads `model.bin`; every problem is an error naming the file. */
export function decodeStaticModel(bytes: Buffer, file: string): StaticModel {
  if (bytes.length < 12 || bytes.toString('latin1', 0, 8) !== STATIC_MODEL_MAGIC) throw new Error(`Herald: ${file} is not a Herald static embedding model (no ${STATIC_MODEL_MAGIC} mark)`);
  const headerLength = bytes.readUInt32LE(8);
  if (12 + headerLength > bytes.length) throw new Error(`Herald: ${file} is truncated (its header runs past the end)`);
  let value: unknown;
  try {
    value = JSON.parse(bytes.toString('utf8', 12, 12 + headerLength));
  } catch {
    throw new Error(`Herald: ${file} has a damaged header (not JSON)`);
  }
  const parsed = headerSchema.safeParse(value);
  if (!parsed.success) throw new Error(`Herald: ${file} has a header this version of Herald cannot read: ${parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
  const header = parsed.data;
  if (header.rows !== header.vocabulary.length + header.ngramBuckets) throw new Error(`Herald: ${file} says ${header.rows} rows, its layout makes ${header.vocabulary.length + header.ngramBuckets}`);
  const headerEnd = 12 + headerLength;
  const start = headerEnd + ((4 - (headerEnd % 4)) % 4);
  const expected = start + header.rows * 4 + header.rows * header.dimension;
  if (bytes.length !== expected) throw new Error(`Herald: ${file} is ${bytes.length} bytes, its header makes ${expected}`);
  // Copies, so the model does not hold the file's buffer pool alive and the views are aligned.
  const scales = new Float32Array(header.rows);
  for (let row = 0; row < header.rows; row++) scales[row] = bytes.readFloatLE(start + row * 4);
  const weights = new Int8Array(bytes.buffer.slice(bytes.byteOffset + start + header.rows * 4, bytes.byteOffset + expected));
  return { header, scales, weights };
}

/** Reads a static model file from disk. */
export function readStaticModel(file: string): StaticModel {
  return decodeStaticModel(fs.readFileSync(file), file);
}

/** The feature layout of a header. */
export function layoutOf(header: StaticModelHeader): StaticFeatureLayout {
  return { vocabulary: header.vocabulary, ngramBuckets: header.ngramBuckets, ngramMin: header.ngramMin, ngramMax: header.ngramMax, maxTerms: header.maxTerms };
}

/**
 * Float vectors of one dimension cut from shared blocks: a small typed array of its own costs
 * a backing store and external-memory bookkeeping in V8 (that allocation and its collection
 * were the largest single cost of embedding a log's lines). A block lives while any vector
 * cut from it does.
 */
export class VectorSlab {
  private block: Float32Array;
  private used = 0;
  constructor(private readonly dimension: number, private readonly vectorsPerBlock = 256) {
    this.block = new Float32Array(dimension * vectorsPerBlock);
  }

  /** A zeroed vector of the slab's dimension. */
  allocate(): Float32Array {
    if (this.used === this.vectorsPerBlock) {
      this.block = new Float32Array(this.dimension * this.vectorsPerBlock);
      this.used = 0;
    }
    const start = this.used++ * this.dimension;
    return this.block.subarray(start, start + this.dimension);
  }
}

/** What is kept of one term: its vector (its rows summed) and scratch fields for counting it in the text being embedded. */
export class TermEntry {
  /** The text being embedded when this term was last counted (see TermVectors.nextText). */
  stamp = 0;
  /** Its occurrences in that text. */
  count = 0;
  constructor(readonly term: string, readonly vector: Float32Array) {}
}

/**
 * The entries of single terms, kept so a term seen before costs one map lookup and one
 * addition of its vector instead of its rows (log lines repeat their words endlessly, and a
 * long identifier has dozens of n-gram rows).
 * Bounded by two generations: when the newer one fills, it becomes the older and the oldest
 * is dropped, so a log with more distinct terms than the bound still finds its frequent words
 * (a term found in the older generation is moved to the newer).
 */
export class TermVectors {
  private newer = new Map<string, TermEntry>();
  private older = new Map<string, TermEntry>();
  private stamp = 0;
  /** Scratch space for the rows of the term being computed. */
  private rows = new Int32Array(64);
  readonly slab: VectorSlab;
  constructor(private readonly model: StaticModel, readonly featurizer: StaticFeaturizer, private readonly limit = 40_000) {
    this.slab = new VectorSlab(model.header.dimension);
  }

  /** The entry of a term, made on first sight (opaque numbers get none: see StaticFeaturizer.isOpaqueNumber). */
  entry(term: string): TermEntry {
    const recent = this.newer.get(term);
    if (recent) return recent;
    const entry = this.older.get(term) ?? new TermEntry(term, this.compute(term));
    this.newer.set(term, entry);
    return entry;
  }

  /**
   * A fresh stamp for counting the terms of one text (entries of earlier texts hold older
   * stamps). Generations turn over here, between texts only, so a term counted in a text keeps
   * its one entry until the text is done.
   */
  nextText(): number {
    if (this.newer.size >= this.limit / 2) {
      this.older = this.newer;
      this.newer = new Map();
    }
    return ++this.stamp;
  }

  private compute(term: string): Float32Array {
    const { dimension } = this.model.header;
    const table = this.model.weights;
    const scales = this.model.scales;
    const vector = this.slab.allocate();
    // The term's rows, written into scratch space: the vector is what is kept of the term.
    // Room for a vocabulary row either way: writeRows then says whether there is one (one lookup of the term).
    const room = this.featurizer.rowCountOf(term, true);
    if (room > this.rows.length) this.rows = new Int32Array(Math.max(room, this.rows.length * 2));
    const rows = this.rows;
    const known = this.featurizer.writeRows(term, rows);
    const count = this.featurizer.rowCountOf(term, known);
    const ngrams = count - (known ? 1 : 0);
    // The shares of StaticFeaturizer.rowShare, worked out once per term rather than per row.
    const ngramShare = ngrams > 0 ? (known ? 1 : 2) / ngrams : 0;
    for (let index = 0; index < count; index++) {
      const row = rows[index]!;
      const factor = (known && index === 0 ? 1 : ngramShare) * scales[row]!;
      if (factor === 0) continue;
      const base = row * dimension;
      // Four columns a step; each column gets the same operations in the same order, so the sums are the same bit for bit.
      let column = 0;
      for (; column + 4 <= dimension; column += 4) {
        vector[column] = vector[column]! + factor * table[base + column]!;
        vector[column + 1] = vector[column + 1]! + factor * table[base + column + 1]!;
        vector[column + 2] = vector[column + 2]! + factor * table[base + column + 2]!;
        vector[column + 3] = vector[column + 3]! + factor * table[base + column + 3]!;
      }
      for (; column < dimension; column++) vector[column] = vector[column]! + factor * table[base + column]!;
    }
    return vector;
  }
}

/** The unit vector of one text: its terms' vectors, each times its weight, summed (no terms: the zero vector). */
export function embedStatic(model: StaticModel, terms: TermVectors, text: string): Float32Array {
  return embedStaticTerms(model, terms, tokenizeForSearch(text));
}

/**
 * The unit vector of a text given its search terms (what {@link embedStatic} computes after
 * tokenizing): the terms StaticFeaturizer.forEachCountedTerm visits, in its order, each
 * counted on its memo entry rather than in a map of the text's own.
 */
export function embedStaticTerms(model: StaticModel, terms: TermVectors, searchTerms: readonly string[]): Float32Array {
  const { dimension } = model.header;
  const stamp = terms.nextText();
  const counted = COUNTED;
  counted.length = 0;
  terms.featurizer.forEachCountedTerm(searchTerms, (term) => {
    const entry = terms.entry(term);
    if (entry.stamp !== stamp) {
      entry.stamp = stamp;
      entry.count = 0;
      counted.push(entry);
    }
    entry.count++;
  });
  const vector = terms.slab.allocate();
  for (let at = 0; at < counted.length; at++) addCounted(vector, counted[at]!.vector, counted[at]!.count, dimension);
  counted.length = 0;
  return scaleToUnit(vector, dimension);
}

/** Adds a term's vector, weighted 1 + ln(its count in the text), to a text's sum (the one step every way of embedding takes). */
function addCounted(vector: Float32Array, termVector: Float32Array, count: number, dimension: number): void {
  const weight = 1 + Math.log(count);
  // Four columns a step (a quarter less time: this is most of embedding a log's lines); each
  // column gets the same operations in the same order, so the sums are the same bit for bit.
  let column = 0;
  for (; column + 4 <= dimension; column += 4) {
    vector[column] = vector[column]! + weight * termVector[column]!;
    vector[column + 1] = vector[column + 1]! + weight * termVector[column + 1]!;
    vector[column + 2] = vector[column + 2]! + weight * termVector[column + 2]!;
    vector[column + 3] = vector[column + 3]! + weight * termVector[column + 3]!;
  }
  for (; column < dimension; column++) vector[column] = vector[column]! + weight * termVector[column]!;
}

/** Divides a sum by its length, in place (the zero vector stays zero). */
function scaleToUnit(vector: Float32Array, dimension: number): Float32Array {
  let norm = 0;
  for (let column = 0; column < dimension; column++) norm += vector[column]! * vector[column]!;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let column = 0; column < dimension; column++) vector[column]! /= norm;
  return vector;
}

/**
 * Terms numbered for one scoring call (see TermBatch): each id holds its term's entry, or
 * none for an opaque number, and its count in the text being embedded. A text embedded from
 * ids takes the terms {@link StaticFeaturizer.forEachCountedTerm} takes, in the same order,
 * through the same steps as {@link embedStaticTerms}, so its vector is the same bit for bit.
 * The batch holds its entries itself, so the memo's generations may turn over meanwhile.
 */
class StaticTermBatch implements TermBatch {
  private readonly ids = new Map<string, number>();
  private readonly entries: (TermEntry | undefined)[] = [];
  private stamps: Int32Array = new Int32Array(256);
  private counts: Int32Array = new Int32Array(256);
  private counted: Int32Array = new Int32Array(256);
  private stamp = 0;

  constructor(private readonly model: StaticModel, private readonly terms: TermVectors, private readonly cache: GenerationalCache<string, Float32Array>) {}

  idOf(term: string): number {
    let id = this.ids.get(term);
    if (id !== undefined) return id;
    id = this.entries.length;
    this.ids.set(term, id);
    // nextText lets the memo turn a generation over before the lookup; the entry is held here.
    this.terms.nextText();
    this.entries.push(this.terms.featurizer.isOpaqueNumber(term) ? undefined : this.terms.entry(term));
    if (id >= this.stamps.length) {
      this.stamps = grown(this.stamps, id);
      this.counts = grown(this.counts, id);
      this.counted = grown(this.counted, id);
    }
    return id;
  }

  embedIds(ids: Int32Array, count: number): Float32Array {
    const { dimension, maxTerms } = this.model.header;
    const stamp = ++this.stamp;
    const { stamps, counts, counted, entries } = this;
    let distinct = 0;
    let read = 0;
    for (let index = 0; index < count && read < maxTerms; index++) {
      const id = ids[index]!;
      if (entries[id] === undefined) continue;
      read++;
      if (stamps[id] !== stamp) {
        stamps[id] = stamp;
        counts[id] = 0;
        counted[distinct++] = id;
      }
      counts[id]!++;
    }
    const vector = this.terms.slab.allocate();
    for (let at = 0; at < distinct; at++) {
      const id = counted[at]!;
      addCounted(vector, entries[id]!.vector, counts[id]!, dimension);
    }
    return scaleToUnit(vector, dimension);
  }

  cached(text: string): Float32Array | undefined {
    return this.cache.get(text);
  }

  remember(text: string, vector: Float32Array): void {
    rememberVector(this.cache, text, vector);
  }
}

/** A copy of an id-indexed array with room for `id` (doubled). */
function grown(array: Int32Array, id: number): Int32Array {
  const bigger = new Int32Array(Math.max(array.length * 2, id + 1));
  bigger.set(array);
  return bigger;
}

/** Caches a text's vector; long texts (whole outputs) are rarely repeated: only lines and passages are cached. */
function rememberVector(cache: GenerationalCache<string, Float32Array>, text: string, vector: Float32Array): void {
  if (text.length <= 4096) cache.set(text, vector);
}

/** Scratch list of the terms counted in the text being embedded (embedding is synchronous). */
const COUNTED: TermEntry[] = [];

/**
 * An embedder over a static model; vectors of repeated texts come from a bounded cache. It
 * also embeds texts from their search terms (TermEmbedder), for scorers that tokenized them.
 */
export function createStaticEmbedder(name: string, model: StaticModel, cacheEntries = 10_000): TermEmbedder {
  const terms = new TermVectors(model, new StaticFeaturizer(layoutOf(model.header)));
  const cache = new GenerationalCache<string, Float32Array>(cacheEntries);
  const remember = (text: string, vector: Float32Array): void => rememberVector(cache, text, vector);
  return {
    name,
    dimension: model.header.dimension,
    embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
      const vectors: Float32Array[] = [];
      for (let index = 0; index < texts.length; index++) {
        if (index % 256 === 0) signal?.throwIfAborted();
        const text = texts[index]!;
        let vector = cache.get(text);
        if (!vector) {
          vector = embedStatic(model, terms, text);
          remember(text, vector);
        }
        vectors.push(vector);
      }
      return Promise.resolve(vectors);
    },
    embedTerms(searchTerms: readonly string[], text?: string): Float32Array {
      const known = text === undefined ? undefined : cache.get(text);
      if (known) return known;
      const vector = embedStaticTerms(model, terms, searchTerms);
      if (text !== undefined) remember(text, vector);
      return vector;
    },
    termBatch(): TermBatch {
      return new StaticTermBatch(model, terms, cache);
    },
  };
}
