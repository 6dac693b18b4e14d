import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tinyTables, tinyVocabulary, TINY_DIMENSION, writeTinyEmbeddingModel } from '../../../../scripts/makeTinyEmbeddingModel';
import { createLexicalScorer, createRelevanceScorer } from '../index';
import type { Embedder } from '../types';
import { bytesToUnicode, createBytePairTokenizer } from './bytePairTokenizer';
import { loadTokenizer } from './loadTokenizer';
import { resolveModelFolder, resolveOnnxModelFolder, sha256File, verifyChecksums } from './modelFolder';
import { loadOnnxEmbedder, RUNTIME_FILES } from './onnxEmbedder';

const CACHE = path.resolve(__dirname, '..', '..', '..', '..', 'test', '.cache');
const MODEL_DIR = path.join(CACHE, 'tiny-embedding');

function freshCopy(name: string): string {
  const target = path.join(CACHE, name);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(MODEL_DIR, target, { recursive: true });
  return target;
}

describe('embeddings', () => {
  const vocabulary = tinyVocabulary();
  const id = (token: string): number => {
    const index = vocabulary.indexOf(token);
    assert.ok(index >= 0, `no ${token} in the tiny vocabulary`);
    return index;
  };
  let embedder: Embedder;

  before(async function () {
    this.timeout(30_000);
    writeTinyEmbeddingModel(MODEL_DIR);
    embedder = await loadOnnxEmbedder(MODEL_DIR);
  });

  describe('WordPiece', () => {
    it('pieces words greedily, longest match first (BERT\'s own example: unaffable → un ##aff ##able)', () => {
      const tokenizer = loadTokenizer(resolveOnnxModelFolder(MODEL_DIR));
      assert.deepEqual(tokenizer.encode('unaffable', 64), [id('[CLS]'), id('un'), id('##aff'), id('##able'), id('[SEP]')]);
    });

    it('lower-cases, strips accents, splits punctuation, and truncates to the limit', () => {
      const tokenizer = loadTokenizer(resolveOnnxModelFolder(MODEL_DIR));
      assert.deepEqual(tokenizer.encode('The tests FAILED.', 64), [id('[CLS]'), id('the'), id('tests'), id('fail'), id('##ed'), id('.'), id('[SEP]')]);
      assert.deepEqual(tokenizer.encode('Café!', 64), [id('[CLS]'), id('c'), id('##a'), id('##f'), id('##e'), id('!'), id('[SEP]')]);
      assert.deepEqual(tokenizer.encode('the server log', 4), [id('[CLS]'), id('the'), id('server'), id('[SEP]')]);
      assert.deepEqual(tokenizer.encode('日', 64), [id('[CLS]'), id('[UNK]'), id('[SEP]')]);
    });

    it('reads the same ids from vocab.txt and tokenizer.json', () => {
      const folder = resolveOnnxModelFolder(MODEL_DIR);
      const fromJson = loadTokenizer(folder);
      const fromVocab = loadTokenizer({ tokenizerFile: path.join(MODEL_DIR, 'vocab.txt'), tokenizerFormat: 'vocab.txt' });
      const text = 'Database connection refused: timeout after 30s (server/log.py line 12)';
      assert.deepEqual(fromVocab.encode(text, 64), fromJson.encode(text, 64));
    });
  });

  describe('byte-level BPE', () => {
    it('maps bytes to GPT-2\'s printable characters (space → Ġ, newline → Ċ, ! → !)', () => {
      const map = bytesToUnicode();
      assert.equal(map[0x20], '\u0120');
      assert.equal(map[0x0a], '\u010a');
      assert.equal(map[0x21], '!');
      assert.equal(new Set(map).size, 256);
    });

    it('merges by rank and wraps the text in <s> … </s>', () => {
      const map = bytesToUnicode();
      const symbols = [...new Set([...map, 'he', 'll', 'hell', 'hello', '\u0120w', 'or', '\u0120wor', '\u0120worl', '\u0120world'])];
      const vocabulary = new Map<string, number>([['<s>', 0], ['<pad>', 1], ['</s>', 2], ...symbols.map((symbol, index): [string, number] => [symbol, index + 3])]);
      const merges = ['h e', 'l l', 'he ll', 'hell o', '\u0120 w', 'o r', '\u0120w or', '\u0120wor l', '\u0120worl d'];
      const tokenizer = createBytePairTokenizer(vocabulary, merges);
      const idOf = (symbol: string): number => vocabulary.get(symbol)!;
      assert.deepEqual(tokenizer.encode('hello world', 64), [0, idOf('hello'), idOf('\u0120world'), 2]);
      // "é" is two UTF-8 bytes, c3 a9, with no merge between them.
      assert.deepEqual(tokenizer.encode('é', 64), [0, idOf(map[0xc3]!), idOf(map[0xa9]!), 2]);
      assert.equal(tokenizer.padId, 1);
    });
  });

  describe('the ONNX embedder', () => {
    /** The tiny model computed by hand: mean of (word row + type row 0) over the tokens, unit length. */
    function expectedVector(ids: readonly number[]): Float32Array {
      const { words, types } = tinyTables(vocabulary.length);
      const vector = new Float64Array(TINY_DIMENSION);
      for (const token of ids) for (let index = 0; index < TINY_DIMENSION; index++) vector[index]! += words[token * TINY_DIMENSION + index]! + types[index]!;
      // The mean and the sum point the same way; unit length makes them equal.
      const norm = Math.hypot(...vector);
      return Float32Array.from(vector, (value) => value / norm);
    }

    it('runs the model and mean-pools over the attention mask, matching an independent computation', async () => {
      const texts = ['unaffable', 'The tests FAILED.', 'a much longer text about the database connection that was refused by the server'];
      const vectors = await embedder.embed(texts);
      assert.equal(embedder.dimension, TINY_DIMENSION);
      const tokenizer = loadTokenizer(resolveOnnxModelFolder(MODEL_DIR));
      texts.forEach((text, row) => {
        const expected = expectedVector(tokenizer.encode(text, 64));
        const actual = vectors[row]!;
        assert.equal(actual.length, TINY_DIMENSION);
        for (let index = 0; index < TINY_DIMENSION; index++) assert.ok(Math.abs(actual[index]! - expected[index]!) < 1e-5, `${text}[${index}]: ${actual[index]} vs ${expected[index]}`);
      });
    });

    it('gives a text the same vector alone as in a padded batch, and caches by content', async () => {
      const alone = await embedder.embed(['the server log']);
      const batched = await embedder.embed(['x', 'the server log', 'a long sentence with many more words in it than the others']);
      assert.deepEqual([...batched[1]!], [...alone[0]!]);
      assert.equal(batched[1], alone[0], 'the second call is served from the cache');
    });

    it('fuses with lexical scores deterministically, in [0, 1], with the weight at both ends behaving as documented', async () => {
      const documents = ['the tests failed with a database error', 'the cat played with a ball', 'open the file and read a line'];
      const query = 'why did the tests fail';
      const fused = createRelevanceScorer({ embedder, embeddingWeight: 0.5 });
      assert.equal(fused.mode, 'fused');
      const scores = await fused.score(query, documents);
      assert.deepEqual(await fused.score(query, documents), scores);
      for (const score of scores) assert.ok(score >= 0 && score <= 1);
      const lexicalOnly = await createRelevanceScorer({ embedder, embeddingWeight: 0 }).score(query, documents);
      const lexical = await createLexicalScorer().score(query, documents);
      const best = Math.max(...lexical);
      assert.deepEqual(lexicalOnly, lexical.map((score) => score / best));
      const vectors = await embedder.embed([query, ...documents]);
      const embeddingOnly = await createRelevanceScorer({ embedder, embeddingWeight: 1 }).score(query, documents);
      documents.forEach((_, index) => {
        const cosine = vectors[0]!.reduce((sum, value, dimension) => sum + value * vectors[index + 1]![dimension]!, 0);
        assert.ok(Math.abs(embeddingOnly[index]! - Math.max(0, cosine)) < 1e-6);
      });
      assert.throws(() => createRelevanceScorer({ embedder, embeddingWeight: 2 }), /between 0 and 1/);
    });
  });

  it('loads the runtime from where the host\'s asset locator points (a separate process: the runtime starts once per process)', function () {
    this.timeout(30_000);
    const assets = path.join(CACHE, 'ort-assets');
    fs.mkdirSync(assets, { recursive: true });
    // The package's "node" entry sits in dist/, beside the runtime files.
    const runtimeDir = path.dirname(require.resolve('onnxruntime-web'));
    for (const file of RUNTIME_FILES) fs.copyFileSync(path.join(runtimeDir, file), path.join(assets, file));
    const script = path.join(CACHE, 'load-with-assets.ts');
    fs.writeFileSync(script, [
      `import { loadOnnxEmbedder } from ${JSON.stringify(path.resolve(__dirname, 'onnxEmbedder'))};`,
      'const asked: string[] = [];',
      `loadOnnxEmbedder(${JSON.stringify(MODEL_DIR)}, { assets: { wasmPath: (name: string) => { asked.push(name); return ${JSON.stringify(assets)} + '/' + name; } } })`,
      '  .then(async (embedder) => { const [vector] = await embedder.embed([\'the server log\']); console.log(JSON.stringify({ asked, dimension: vector!.length })); })',
      '  .catch((error: unknown) => { console.error(String(error)); process.exit(1); });',
    ].join('\n'));
    const output = execFileSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(output.trim()), { asked: ['ort-wasm-simd-threaded.wasm'], dimension: TINY_DIMENSION });
  });

  describe('the model folder', () => {
    it('verifies checksums and names a damaged file', () => {
      const folder = freshCopy('damaged-embedding');
      const manifest = JSON.parse(fs.readFileSync(path.join(folder, 'herald-model.json'), 'utf8')) as { files: Record<string, string> };
      assert.equal(verifyChecksums(folder, manifest.files), 3);
      assert.equal(manifest.files['model.onnx'], sha256File(path.join(folder, 'model.onnx')));
      const bytes = fs.readFileSync(path.join(folder, 'model.onnx'));
      bytes[bytes.length - 5] ^= 0xff;
      fs.writeFileSync(path.join(folder, 'model.onnx'), bytes);
      assert.throws(() => resolveModelFolder(folder), /model\.onnx is damaged \(SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}\); download the model again/);
    });

    it('names a missing folder, a missing model file and a missing tokenizer', () => {
      assert.throws(() => resolveModelFolder(path.join(CACHE, 'no-such-model')), /no-such-model does not exist/);
      const withoutModel = freshCopy('no-model-embedding');
      fs.rmSync(path.join(withoutModel, 'herald-model.json'));
      fs.rmSync(path.join(withoutModel, 'model.onnx'));
      assert.throws(() => resolveModelFolder(withoutModel), /has no model\.onnx/);
      const withoutTokenizer = freshCopy('no-tokenizer-embedding');
      fs.rmSync(path.join(withoutTokenizer, 'herald-model.json'));
      fs.rmSync(path.join(withoutTokenizer, 'tokenizer.json'));
      fs.rmSync(path.join(withoutTokenizer, 'vocab.txt'));
      assert.throws(() => resolveModelFolder(withoutTokenizer), /neither tokenizer\.json nor vocab\.txt/);
      const listedButMissing = freshCopy('missing-file-embedding');
      fs.rmSync(path.join(listedButMissing, 'vocab.txt'));
      assert.throws(() => resolveModelFolder(listedButMissing), /vocab\.txt is missing/);
    });

    it('refuses a manifest of another schema version', () => {
      const folder = freshCopy('future-embedding');
      const file = path.join(folder, 'herald-model.json');
      fs.writeFileSync(file, JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), schema: 2 }));
      assert.throws(() => resolveModelFolder(folder), /has schema 2, this version of Herald reads schema 1/);
    });

    it('reports a model file that is not ONNX', async () => {
      const folder = freshCopy('garbage-embedding');
      fs.rmSync(path.join(folder, 'herald-model.json'));
      fs.writeFileSync(path.join(folder, 'model.onnx'), 'this is not a model');
      await assert.rejects(loadOnnxEmbedder(folder), /could not load the embedding model .*model\.onnx/);
    });
  });
});
