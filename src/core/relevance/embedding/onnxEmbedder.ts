/**
 * Sentence embeddings with onnxruntime-web (wasm backend, single-threaded: it runs the same
 * in Node, the CLI and the VS Code extension host). Texts are tokenized, batched, run
 * through the model, mean-pooled over the attention mask (or the [CLS] vector when the
 * manifest says so) and normalized to unit length. Vectors are cached by content hash.
 *
 * The runtime's files (`ort-wasm-simd-threaded.mjs` and `.wasm`) are found next to the
 * onnxruntime-web package in Node, or where the host's AssetLocator says (the extension
 * copies them into `dist/`).
 */
import { createHash } from 'node:crypto';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { AssetLocator } from '../../ports';
import type { Embedder } from '../types';
import { loadTokenizer } from './loadTokenizer';
import { resolveOnnxModelFolder } from './modelFolder';
import type { TextTokenizer } from './textTokenizer';
import { describeError } from '../../errors';

type OnnxRuntime = typeof import('onnxruntime-web');
type Session = Awaited<ReturnType<OnnxRuntime['InferenceSession']['create']>>;

export interface OnnxEmbedderOptions {
  /** Where the runtime's .wasm and .mjs files are; default: inside node_modules/onnxruntime-web. */
  readonly assets?: AssetLocator;
  /** Texts per inference call. Default 16. */
  readonly batchSize?: number;
  /** Tokens per text, special tokens included; default the manifest's `maxTokens`, else 256. */
  readonly maxTokens?: number;
  /** Vectors kept in the content-hash cache. Default 10,000. */
  readonly cacheEntries?: number;
}

/** The runtime file the wasm backend loads first; its folder is where the others are. */
export const ONNX_RUNTIME_WASM_FILE = 'ort-wasm-simd-threaded.wasm';
/** Every file the wasm backend loads in Node and in the extension host (copy both into dist/). */
export const RUNTIME_FILES = ['ort-wasm-simd-threaded.mjs', ONNX_RUNTIME_WASM_FILE] as const;

let runtime: Promise<OnnxRuntime> | undefined;

async function loadRuntime(assets: AssetLocator | undefined): Promise<OnnxRuntime> {
  runtime ??= Promise.resolve().then(() => {
    // require, not import(): bundled as CommonJS (the extension, the CLI), the package's
    // "require" entry finds its runtime files from __filename, while its ES module entry
    // needs an import.meta.url that a CommonJS bundle does not have. Lazy, so the CLI does
    // not pay for the runtime unless a model is configured.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const ort = require('onnxruntime-web') as OnnxRuntime;
    // One thread: worker threads are not available in every host, and results stay deterministic.
    ort.env.wasm.numThreads = 1;
    ort.env.logLevel = 'error';
    // A file URL, so the runtime's dynamic import of the .mjs works on Windows too.
    if (assets) ort.env.wasm.wasmPaths = pathToFileURL(path.dirname(assets.wasmPath(ONNX_RUNTIME_WASM_FILE)) + path.sep).href;
    return ort;
  });
  return runtime;
}

/** Loads a model folder (see modelFolder.ts) and returns an embedder over it. */
export async function loadOnnxEmbedder(modelDir: string, options: OnnxEmbedderOptions = {}): Promise<Embedder> {
  const folder = resolveOnnxModelFolder(modelDir);
  const tokenizer = loadTokenizer(folder);
  const ort = await loadRuntime(options.assets);
  let session: Session;
  try {
    session = await ort.InferenceSession.create(folder.modelFile, { executionProviders: ['wasm'], graphOptimizationLevel: 'all' });
  } catch (error) {
    const message = describeError(error);
    if (/no available backend|Cannot find module|ENOENT/.test(message)) {
      throw new Error(`Herald: the ONNX runtime could not start (${message}); ${RUNTIME_FILES.join(' and ')} must sit next to each other where the host's asset locator points`);
    }
    throw new Error(`Herald: could not load the embedding model ${folder.modelFile}: ${message} (the file may be damaged or not an ONNX model)`);
  }
  if (!session.inputNames.includes('input_ids')) {
    throw new Error(`Herald: the embedding model ${folder.modelFile} has no "input_ids" input (inputs: ${session.inputNames.join(', ')})`);
  }
  const maxTokens = options.maxTokens ?? folder.manifest?.maxTokens ?? 256;
  const pooling = folder.manifest?.pooling ?? 'mean';
  const embedOne = createBatchRunner(ort, session, tokenizer, maxTokens, pooling);
  const probe = await embedOne(['dimension probe']);
  const dimension = probe[0]!.length;
  if (folder.manifest?.dimension !== undefined && folder.manifest.dimension !== dimension) {
    throw new Error(`Herald: the embedding model ${folder.modelFile} gives vectors of ${dimension} dimensions, its manifest says ${folder.manifest.dimension}`);
  }
  return new CachingEmbedder(folder.name, dimension, embedOne, options.batchSize ?? 16, options.cacheEntries ?? 10_000);
}

type BatchRunner = (texts: readonly string[]) => Promise<Float32Array[]>;

function createBatchRunner(ort: OnnxRuntime, session: Session, tokenizer: TextTokenizer, maxTokens: number, pooling: 'mean' | 'cls'): BatchRunner {
  return async (texts) => {
    const encoded = texts.map((text) => tokenizer.encode(text, maxTokens));
    const length = Math.max(1, ...encoded.map((ids) => ids.length));
    const ids = new BigInt64Array(texts.length * length).fill(BigInt(tokenizer.padId));
    const mask = new BigInt64Array(texts.length * length);
    encoded.forEach((tokens, row) => {
      tokens.forEach((id, column) => {
        ids[row * length + column] = BigInt(id);
        mask[row * length + column] = 1n;
      });
    });
    const shape = [texts.length, length];
    const feeds: Record<string, InstanceType<OnnxRuntime['Tensor']>> = { input_ids: new ort.Tensor('int64', ids, shape) };
    if (session.inputNames.includes('attention_mask')) feeds.attention_mask = new ort.Tensor('int64', mask, shape);
    if (session.inputNames.includes('token_type_ids')) feeds.token_type_ids = new ort.Tensor('int64', new BigInt64Array(ids.length), shape);
    const outputs = await session.run(feeds);
    const name = ['sentence_embedding', 'last_hidden_state', 'token_embeddings'].find((candidate) => candidate in outputs) ?? session.outputNames[0]!;
    const output = outputs[name]!;
    const data = output.data as Float32Array;
    if (output.dims.length === 2) {
      // Already pooled by the model.
      const dimension = output.dims[1]!;
      return texts.map((_, row) => normalize(data.slice(row * dimension, (row + 1) * dimension)));
    }
    const [, sequence, dimension] = output.dims as [number, number, number];
    return texts.map((_, row) => normalize(pool(data, mask, row, sequence, length, dimension, pooling)));
  };
}

/** Mean of the token vectors the attention mask keeps (or the first token's vector). */
export function pool(data: Float32Array, mask: BigInt64Array, row: number, sequence: number, maskLength: number, dimension: number, pooling: 'mean' | 'cls'): Float32Array {
  const vector = new Float32Array(dimension);
  const base = row * sequence * dimension;
  if (pooling === 'cls') return data.slice(base, base + dimension);
  let count = 0;
  for (let position = 0; position < sequence; position++) {
    if (mask[row * maskLength + position] !== 1n) continue;
    count++;
    for (let index = 0; index < dimension; index++) vector[index]! += data[base + position * dimension + index]!;
  }
  if (count > 0) for (let index = 0; index < dimension; index++) vector[index]! /= count;
  return vector;
}

/** Scales a vector to unit length (a zero vector stays zero). */
export function normalize(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  if (norm > 0) for (let index = 0; index < vector.length; index++) vector[index]! /= norm;
  return vector;
}

class CachingEmbedder implements Embedder {
  private readonly cache = new Map<string, Float32Array>();

  constructor(
    readonly name: string,
    readonly dimension: number,
    private readonly run: BatchRunner,
    private readonly batchSize: number,
    private readonly cacheEntries: number,
  ) {}

  async embed(texts: readonly string[], signal?: AbortSignal): Promise<Float32Array[]> {
    const keys = texts.map((text) => createHash('sha256').update(text).digest('base64'));
    const missing: { key: string; text: string }[] = [];
    const queued = new Set<string>();
    keys.forEach((key, index) => {
      if (!this.cache.has(key) && !queued.has(key)) {
        queued.add(key);
        missing.push({ key, text: texts[index]! });
      }
    });
    // Similar lengths share a batch, so little of each batch is padding.
    missing.sort((a, b) => a.text.length - b.text.length || (a.key < b.key ? -1 : 1));
    const fresh = new Map<string, Float32Array>();
    for (let start = 0; start < missing.length; start += this.batchSize) {
      signal?.throwIfAborted();
      const batch = missing.slice(start, start + this.batchSize);
      const vectors = await this.run(batch.map((entry) => entry.text));
      batch.forEach((entry, index) => fresh.set(entry.key, vectors[index]!));
    }
    const result = keys.map((key) => fresh.get(key) ?? this.cache.get(key)!);
    for (const [key, vector] of fresh) {
      if (this.cache.size >= this.cacheEntries) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(key, vector);
    }
    return result;
  }
}
