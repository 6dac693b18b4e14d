/**
 * Writes a tiny sentence-embedding model folder in the layout Herald loads, for tests and
 * benchmarks (no real model can be downloaded here):
 *
 *   model.onnx       token embeddings: Gather(word) + Gather(token type), times the attention
 *                    mask → `last_hidden_state` [batch, sequence, dimension], like a BERT export
 *                    (pooling happens in Herald's code, as with real sentence-transformer exports)
 *   vocab.txt        a small WordPiece vocabulary (BERT conventions: [PAD] [UNK] [CLS] [SEP] [MASK], ##pieces)
 *   tokenizer.json   the same vocabulary as a Hugging Face WordPiece tokenizer
 *   herald-model.json the manifest: name, dimension, limits and a SHA-256 of every file
 *
 * The ONNX protobuf is encoded by hand (field numbers from onnx.proto): no Python onnx
 * package is reachable here. The embedding table comes from a seeded generator, so the
 * folder is byte-identical on every run and a test can recompute any embedding independently.
 *
 * Usage: npx tsx scripts/makeTinyEmbeddingModel.ts <output folder>
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export const TINY_DIMENSION = 16;
export const TINY_SEED = 20240601;

const SPECIAL_TOKENS = ['[PAD]', '[UNK]', '[CLS]', '[SEP]', '[MASK]'];
const WORDS = [
  'the', 'a', 'of', 'to', 'and', 'is', 'in', 'on', 'for', 'with', 'not', 'no',
  'un', 'test', 'tests', 'fail', 'error', 'errors', 'warning', 'server', 'database', 'connection', 'refused', 'timeout',
  'request', 'response', 'user', 'file', 'line', 'function', 'return', 'value', 'query', 'search', 'code', 'python',
  'list', 'string', 'number', 'read', 'write', 'open', 'close', 'start', 'stop', 'run', 'build', 'log', 'disk', 'memory',
  'cat', 'dog', 'car', 'road', 'play', 'ball', 'wing', 'flow', 'pressure', 'heat', 'boundary', 'layer',
];
const SUFFIXES = ['##aff', '##able', '##ed', '##ing', '##s', '##er', '##ly', '##tion'];
const PUNCTUATION = ['.', ',', '!', '?', ':', ';', '(', ')', '[', ']', '{', '}', '-', '_', '/', '\\', '\'', '"', '=', '+', '*', '<', '>', '#', '@', '$', '%', '&', '|', '^', '~', '`'];
const LETTERS = 'abcdefghijklmnopqrstuvwxyz0123456789'.split('');

/** The tiny vocabulary, in id order. */
export function tinyVocabulary(): string[] {
  // A token listed twice would get two ids; the first one stands, as in vocab.txt.
  return [...new Set([...SPECIAL_TOKENS, ...PUNCTUATION, ...LETTERS, ...WORDS, ...SUFFIXES, ...LETTERS.map((letter) => `##${letter}`)])];
}

/** A small, fast, seeded generator (mulberry32), so the table is the same everywhere. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

/** The embedding tables: one row per token, then two token-type rows; values in [-1, 1). */
export function tinyTables(vocabularySize: number, dimension = TINY_DIMENSION, seed = TINY_SEED): { words: Float32Array; types: Float32Array } {
  const random = seededRandom(seed);
  const words = new Float32Array(vocabularySize * dimension);
  for (let index = 0; index < words.length; index++) words[index] = random() * 2 - 1;
  const types = new Float32Array(2 * dimension);
  for (let index = 0; index < types.length; index++) types[index] = (random() * 2 - 1) * 0.1;
  return { words, types };
}

// --- protobuf wire encoding (varint = 0, length-delimited = 2, 32-bit = 5) ---

function varint(value: number | bigint): number[] {
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0n);
  return bytes;
}

function key(field: number, wireType: number): number[] {
  return varint((field << 3) | wireType);
}

function integerField(field: number, value: number | bigint): number[] {
  return [...key(field, 0), ...varint(value)];
}

function bytesField(field: number, bytes: Uint8Array | number[]): number[] {
  return [...key(field, 2), ...varint(bytes.length), ...bytes];
}

function stringField(field: number, text: string): number[] {
  return bytesField(field, [...Buffer.from(text, 'utf8')]);
}

const FLOAT = 1;
const INT64 = 7;

function tensor(name: string, dims: number[], dataType: number, raw: Uint8Array): number[] {
  return [...dims.flatMap((dim) => integerField(1, dim)), ...integerField(2, dataType), ...stringField(8, name), ...bytesField(9, raw)];
}

function valueInfo(name: string, elementType: number, dims: (number | string)[]): number[] {
  const shape = dims.flatMap((dim) => bytesField(1, typeof dim === 'number' ? integerField(1, dim) : stringField(2, dim)));
  const tensorType = [...integerField(1, elementType), ...bytesField(2, shape)];
  return [...stringField(1, name), ...bytesField(2, bytesField(1, tensorType))];
}

function node(opType: string, inputs: string[], outputs: string[], name: string, attributes: number[][] = []): number[] {
  return [
    ...inputs.flatMap((input) => stringField(1, input)),
    ...outputs.flatMap((output) => stringField(2, output)),
    ...stringField(3, name),
    ...stringField(4, opType),
    ...attributes.flatMap((attribute) => bytesField(5, attribute)),
  ];
}

function intAttribute(name: string, value: number): number[] {
  const INT_TYPE = 2;
  return [...stringField(1, name), ...integerField(3, value), ...integerField(20, INT_TYPE)];
}

/** The ONNX model bytes for the given tables. */
export function encodeTinyModel(words: Float32Array, types: Float32Array, dimension = TINY_DIMENSION): Uint8Array {
  const vocabularySize = words.length / dimension;
  const asBytes = (array: Float32Array | BigInt64Array): Uint8Array => new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  const graph = [
    ...bytesField(1, node('Gather', ['word_embeddings', 'input_ids'], ['word_vectors'], 'gather_words')),
    ...bytesField(1, node('Gather', ['token_type_embeddings', 'token_type_ids'], ['type_vectors'], 'gather_types')),
    ...bytesField(1, node('Add', ['word_vectors', 'type_vectors'], ['summed'], 'add_types')),
    ...bytesField(1, node('Cast', ['attention_mask'], ['mask_float'], 'cast_mask', [intAttribute('to', FLOAT)])),
    ...bytesField(1, node('Unsqueeze', ['mask_float', 'mask_axes'], ['mask_column'], 'unsqueeze_mask')),
    ...bytesField(1, node('Mul', ['summed', 'mask_column'], ['last_hidden_state'], 'apply_mask')),
    ...stringField(2, 'tiny_embedding'),
    ...bytesField(5, tensor('word_embeddings', [vocabularySize, dimension], FLOAT, asBytes(words))),
    ...bytesField(5, tensor('token_type_embeddings', [2, dimension], FLOAT, asBytes(types))),
    ...bytesField(5, tensor('mask_axes', [1], INT64, asBytes(BigInt64Array.from([2n])))),
    ...bytesField(11, valueInfo('input_ids', INT64, ['batch', 'sequence'])),
    ...bytesField(11, valueInfo('attention_mask', INT64, ['batch', 'sequence'])),
    ...bytesField(11, valueInfo('token_type_ids', INT64, ['batch', 'sequence'])),
    ...bytesField(12, valueInfo('last_hidden_state', FLOAT, ['batch', 'sequence', dimension])),
  ];
  const opset = [...stringField(1, ''), ...integerField(2, 13)];
  const model = [...integerField(1, 8), ...stringField(2, 'herald-tiny-embedding'), ...bytesField(7, graph), ...bytesField(8, opset)];
  return Uint8Array.from(model);
}

/** A Hugging Face tokenizer.json for a BERT-style uncased WordPiece vocabulary. */
export function wordPieceTokenizerJson(vocabulary: readonly string[]): string {
  const vocab: Record<string, number> = {};
  vocabulary.forEach((token, id) => (vocab[token] = id));
  return JSON.stringify({
    version: '1.0',
    normalizer: { type: 'BertNormalizer', clean_text: true, handle_chinese_chars: true, strip_accents: null, lowercase: true },
    pre_tokenizer: { type: 'BertPreTokenizer' },
    model: { type: 'WordPiece', unk_token: '[UNK]', continuing_subword_prefix: '##', max_input_chars_per_word: 100, vocab },
  }, null, 1);
}

/** Writes the folder and returns the paths written. */
export function writeTinyEmbeddingModel(folder: string): string[] {
  fs.mkdirSync(folder, { recursive: true });
  const vocabulary = tinyVocabulary();
  const { words, types } = tinyTables(vocabulary.length);
  const files: Record<string, Uint8Array | string> = {
    'model.onnx': encodeTinyModel(words, types),
    'vocab.txt': vocabulary.join('\n') + '\n',
    'tokenizer.json': wordPieceTokenizerJson(vocabulary),
  };
  const checksums: Record<string, string> = {};
  for (const [name, content] of Object.entries(files)) {
    fs.writeFileSync(path.join(folder, name), content);
    checksums[name] = createHash('sha256').update(content).digest('hex');
  }
  const manifest = { schema: 1, name: 'herald-tiny-embedding', dimension: TINY_DIMENSION, maxTokens: 64, pooling: 'mean', files: checksums };
  fs.writeFileSync(path.join(folder, 'herald-model.json'), JSON.stringify(manifest, null, 2) + '\n');
  return [...Object.keys(files), 'herald-model.json'].map((name) => path.join(folder, name));
}

if (process.argv[1] && /makeTinyEmbeddingModel\.ts$/.test(process.argv[1])) {
  const folder = process.argv[2];
  if (!folder) {
    process.stderr.write('usage: npx tsx scripts/makeTinyEmbeddingModel.ts <output folder>\n');
    process.exit(2);
  }
  for (const file of writeTinyEmbeddingModel(folder)) process.stdout.write(`${file}\n`);
}
