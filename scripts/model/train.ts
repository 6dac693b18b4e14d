/**
 * Trains Herald's static embedding model contrastively: each pair's query and passage are
 * pulled together and pushed away from every other passage (and query) in the batch
 * (symmetric InfoNCE with in-batch negatives). A text's vector is the weighted sum of its
 * feature rows (staticFeatures.ts), scaled to unit length; the rows are learned with
 * row-wise Adagrad. Deterministic: a seeded generator for the initial rows and the order of
 * pairs, fixed summation order, no threads; the same pairs and settings give the same bytes.
 */
import { tokenizeForSearch } from '../../src/core/relevance/searchTokenizer';
import { StaticFeaturizer, type StaticFeatureLayout } from '../../src/core/relevance/embedding/staticFeatures';
import type { StaticModelHeader } from '../../src/core/relevance/embedding/staticModel';
import type { TrainingPair } from './corpus';

/** Everything that decides the weights besides the pairs. */
export interface TrainingSettings {
  readonly seed: number;
  readonly dimension: number;
  /** Terms seen in at least this many texts get their own row… */
  readonly vocabularyMinTexts: number;
  /** …up to this many, the most frequent first. */
  readonly vocabularyMax: number;
  readonly ngramBuckets: number;
  readonly ngramMin: number;
  readonly ngramMax: number;
  /** Terms read per text, in training and at run time. */
  readonly maxTerms: number;
  readonly epochs: number;
  readonly batchSize: number;
  readonly learningRate: number;
  /** Softmax temperature of the contrastive loss. */
  readonly temperature: number;
  /**
   * Whether training reads opaque numbers (timestamps, ids) like any term. 1.0.0 was trained
   * so; the embedder has skipped them since, so a new recipe may leave them out as it does.
   */
  readonly weighOpaqueNumbers?: boolean;
}

/** A seeded 32-bit generator (mulberry32): the same seed, the same sequence, everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let mixed = state;
    mixed = Math.imul(mixed ^ (mixed >>> 15), mixed | 1);
    mixed ^= mixed + Math.imul(mixed ^ (mixed >>> 7), mixed | 61);
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4294967296;
  };
}

/** The terms that get their own row: frequent in the training texts, most frequent first. */
export function buildVocabulary(pairs: readonly TrainingPair[], settings: TrainingSettings): string[] {
  const textCounts = new Map<string, number>();
  for (const pair of pairs) {
    for (const text of [pair.query, pair.passage]) {
      for (const term of new Set(tokenizeForSearch(text).slice(0, settings.maxTerms))) textCounts.set(term, (textCounts.get(term) ?? 0) + 1);
    }
  }
  return [...textCounts]
    .filter(([term, count]) => count >= settings.vocabularyMinTexts && term.length <= 40)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .slice(0, settings.vocabularyMax)
    .map(([term]) => term);
}

/** Features of many texts packed in flat arrays. */
interface PackedFeatures {
  readonly offsets: Int32Array;
  readonly rows: Int32Array;
  readonly weights: Float32Array;
}

function pack(featurizer: StaticFeaturizer, texts: readonly string[]): PackedFeatures {
  const all = texts.map((text) => featurizer.features(text));
  const offsets = new Int32Array(texts.length + 1);
  for (let index = 0; index < all.length; index++) offsets[index + 1] = offsets[index]! + all[index]!.rows.length;
  const rows = new Int32Array(offsets[texts.length]!);
  const weights = new Float32Array(offsets[texts.length]!);
  all.forEach((features, index) => {
    rows.set(features.rows, offsets[index]!);
    weights.set(features.weights, offsets[index]!);
  });
  return { offsets, rows, weights };
}

/** What training reports as it goes, and at the end. */
export interface TrainingProgress {
  readonly epoch: number;
  readonly batches: number;
  readonly meanLoss: number;
  readonly seconds: number;
}

/** The trained model: header and float weights (quantized by {@link quantize}). */
export interface TrainedModel {
  readonly header: StaticModelHeader;
  readonly weights: Float32Array;
  /** Rows that no training text touched (zeroed: their random start would only add noise). */
  readonly untouchedRows: number;
}

export function train(pairs: readonly TrainingPair[], settings: TrainingSettings, report: (progress: TrainingProgress) => void = () => undefined): TrainedModel {
  const started = performance.now();
  const vocabulary = buildVocabulary(pairs, settings);
  const layout: StaticFeatureLayout = { vocabulary, ngramBuckets: settings.ngramBuckets, ngramMin: settings.ngramMin, ngramMax: settings.ngramMax, maxTerms: settings.maxTerms };
  const featurizer = new StaticFeaturizer(layout, settings.weighOpaqueNumbers ?? false);
  const queries = pack(featurizer, pairs.map((pair) => pair.query));
  const passages = pack(featurizer, pairs.map((pair) => pair.passage));
  const dimension = settings.dimension;
  const rowCount = featurizer.rowCount;
  const random = seededRandom(settings.seed);

  const table = new Float32Array(rowCount * dimension);
  for (let index = 0; index < table.length; index++) table[index] = (random() * 2 - 1) * 0.1;
  const touched = new Uint8Array(rowCount);
  const squaredSums = new Float32Array(rowCount);
  const gradient = new Float32Array(rowCount * dimension);
  const inGradient = new Uint8Array(rowCount);
  const gradientRows: number[] = [];

  const batchSize = settings.batchSize;
  const scale = 1 / settings.temperature;
  const queryVectors = new Float32Array(batchSize * dimension);
  const passageVectors = new Float32Array(batchSize * dimension);
  const queryNorms = new Float32Array(batchSize);
  const passageNorms = new Float32Array(batchSize);
  const similarity = new Float64Array(batchSize * batchSize);
  const queryGradient = new Float32Array(batchSize * dimension);
  const passageGradient = new Float32Array(batchSize * dimension);

  const order = Array.from({ length: pairs.length }, (_, index) => index);
  for (let epoch = 1; epoch <= settings.epochs; epoch++) {
    // Fisher–Yates with the seeded generator: a new, reproducible order every epoch.
    for (let index = order.length - 1; index > 0; index--) {
      const other = Math.floor(random() * (index + 1));
      [order[index], order[other]] = [order[other]!, order[index]!];
    }
    let lossSum = 0;
    let batches = 0;
    for (let start = 0; start + batchSize <= order.length; start += batchSize) {
      const batch = order.slice(start, start + batchSize);
      embedBatch(table, dimension, queries, batch, queryVectors, queryNorms);
      embedBatch(table, dimension, passages, batch, passageVectors, passageNorms);
      for (let row = 0; row < batchSize; row++) {
        for (let column = 0; column < batchSize; column++) {
          let dot = 0;
          const left = row * dimension;
          const right = column * dimension;
          for (let index = 0; index < dimension; index++) dot += queryVectors[left + index]! * passageVectors[right + index]!;
          similarity[row * batchSize + column] = dot * scale;
        }
      }
      // Symmetric cross-entropy: softmax over passages for each query, over queries for each passage.
      queryGradient.fill(0);
      passageGradient.fill(0);
      let loss = 0;
      const weight = new Float64Array(batchSize * batchSize);
      for (let row = 0; row < batchSize; row++) {
        let max = -Infinity;
        for (let column = 0; column < batchSize; column++) max = Math.max(max, similarity[row * batchSize + column]!);
        let sum = 0;
        for (let column = 0; column < batchSize; column++) sum += Math.exp(similarity[row * batchSize + column]! - max);
        loss += Math.log(sum) + max - similarity[row * batchSize + row]!;
        for (let column = 0; column < batchSize; column++) weight[row * batchSize + column]! += Math.exp(similarity[row * batchSize + column]! - max) / sum - (row === column ? 1 : 0);
      }
      for (let column = 0; column < batchSize; column++) {
        let max = -Infinity;
        for (let row = 0; row < batchSize; row++) max = Math.max(max, similarity[row * batchSize + column]!);
        let sum = 0;
        for (let row = 0; row < batchSize; row++) sum += Math.exp(similarity[row * batchSize + column]! - max);
        loss += Math.log(sum) + max - similarity[column * batchSize + column]!;
        for (let row = 0; row < batchSize; row++) weight[row * batchSize + column]! += Math.exp(similarity[row * batchSize + column]! - max) / sum - (row === column ? 1 : 0);
      }
      lossSum += loss / (2 * batchSize);
      batches++;
      const factor = scale / (2 * batchSize);
      for (let row = 0; row < batchSize; row++) {
        for (let column = 0; column < batchSize; column++) {
          const value = weight[row * batchSize + column]! * factor;
          if (value === 0) continue;
          const left = row * dimension;
          const right = column * dimension;
          for (let index = 0; index < dimension; index++) {
            queryGradient[left + index]! += value * passageVectors[right + index]!;
            passageGradient[right + index]! += value * queryVectors[left + index]!;
          }
        }
      }
      backToRows(queries, batch, queryVectors, queryNorms, queryGradient);
      backToRows(passages, batch, passageVectors, passageNorms, passageGradient);
      // Row-wise Adagrad: one running sum of squared gradients per row keeps the state small.
      for (const row of gradientRows) {
        const base = row * dimension;
        let squared = 0;
        for (let index = 0; index < dimension; index++) squared += gradient[base + index]! * gradient[base + index]!;
        squaredSums[row]! += squared / dimension;
        const step = settings.learningRate / Math.sqrt(squaredSums[row]! + 1e-10);
        for (let index = 0; index < dimension; index++) {
          table[base + index]! -= step * gradient[base + index]!;
          gradient[base + index] = 0;
        }
        inGradient[row] = 0;
        touched[row] = 1;
      }
      gradientRows.length = 0;
    }
    report({ epoch, batches, meanLoss: lossSum / Math.max(1, batches), seconds: (performance.now() - started) / 1000 });
  }

  let untouchedRows = 0;
  for (let row = 0; row < rowCount; row++) {
    if (touched[row]) continue;
    untouchedRows++;
    table.fill(0, row * dimension, (row + 1) * dimension);
  }
  const header: StaticModelHeader = { format: 1, dimension, rows: rowCount, vocabulary, ngramBuckets: settings.ngramBuckets, ngramMin: settings.ngramMin, ngramMax: settings.ngramMax, maxTerms: settings.maxTerms };
  return { header, weights: table, untouchedRows };

  function backToRows(features: PackedFeatures, batch: readonly number[], vectors: Float32Array, norms: Float32Array, vectorGradient: Float32Array): void {
    for (let slot = 0; slot < batch.length; slot++) {
      const base = slot * dimension;
      const norm = norms[slot]!;
      if (norm === 0) continue;
      // Through the unit-length scaling: d raw = (d unit − unit · (unit · d unit)) / |raw|.
      let projection = 0;
      for (let index = 0; index < dimension; index++) projection += vectors[base + index]! * vectorGradient[base + index]!;
      for (let index = 0; index < dimension; index++) vectorGradient[base + index] = (vectorGradient[base + index]! - vectors[base + index]! * projection) / norm;
      const item = batch[slot]!;
      for (let at = features.offsets[item]!; at < features.offsets[item + 1]!; at++) {
        const row = features.rows[at]!;
        const featureWeight = features.weights[at]!;
        if (featureWeight === 0) continue;
        if (!inGradient[row]) {
          inGradient[row] = 1;
          gradientRows.push(row);
        }
        const target = row * dimension;
        for (let index = 0; index < dimension; index++) gradient[target + index]! += featureWeight * vectorGradient[base + index]!;
      }
    }
  }
}

/** Sums each text's rows into `vectors` and scales them to unit length; `norms` keeps the raw lengths. */
function embedBatch(table: Float32Array, dimension: number, features: PackedFeatures, batch: readonly number[], vectors: Float32Array, norms: Float32Array): void {
  vectors.fill(0);
  for (let slot = 0; slot < batch.length; slot++) {
    const base = slot * dimension;
    const item = batch[slot]!;
    for (let at = features.offsets[item]!; at < features.offsets[item + 1]!; at++) {
      const featureWeight = features.weights[at]!;
      if (featureWeight === 0) continue;
      const row = features.rows[at]! * dimension;
      for (let index = 0; index < dimension; index++) vectors[base + index]! += featureWeight * table[row + index]!;
    }
    let norm = 0;
    for (let index = 0; index < dimension; index++) norm += vectors[base + index]! * vectors[base + index]!;
    norm = Math.sqrt(norm);
    norms[slot] = norm;
    if (norm > 0) for (let index = 0; index < dimension; index++) vectors[base + index]! /= norm;
  }
}

/** Int8 rows with one float scale each (a quarter of the float size; cosine changes by well under 1%). */
export function quantize(model: TrainedModel): { scales: Float32Array; weights: Int8Array } {
  const { rows, dimension } = model.header;
  const scales = new Float32Array(rows);
  const weights = new Int8Array(rows * dimension);
  for (let row = 0; row < rows; row++) {
    let max = 0;
    for (let index = 0; index < dimension; index++) max = Math.max(max, Math.abs(model.weights[row * dimension + index]!));
    const scale = Math.fround(max / 127);
    scales[row] = scale;
    if (scale === 0) continue;
    for (let index = 0; index < dimension; index++) weights[row * dimension + index] = Math.max(-127, Math.min(127, Math.round(model.weights[row * dimension + index]! / scale)));
  }
  return { scales, weights };
}
