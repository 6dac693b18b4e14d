import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { writeTinyEmbeddingModel } from '../../../../scripts/makeTinyEmbeddingModel';
import { quantize, train, type TrainingSettings } from '../../../../scripts/model/train';
import type { TrainingPair } from '../../../../scripts/model/corpus';
import { RecordingLogger } from '../../ports';
import { LEXICAL_ONLY_NOTE, loadScorerFor } from '../scorerSource';
import { bundledModelFolder, SHIPPED_MODEL_NAME } from './bundledModel';
import { loadEmbedder } from './loadEmbedder';
import { MODEL_MANIFEST_FILE, resolveModelFolder, sha256File } from './modelFolder';
import { fnv1a, isDigitsAndJoiners, StaticFeaturizer } from './staticFeatures';
import { tokenizeForSearch } from '../searchTokenizer';
import { createStaticEmbedder, decodeStaticModel, embedStatic, encodeStaticModel, layoutOf, readStaticModel, TermVectors } from './staticModel';
import { seededInts } from '../../../../test/support/seededInts';

const CACHE = path.resolve(__dirname, '..', '..', '..', '..', 'test', '.cache');

const PAIRS: TrainingPair[] = [
  { source: 'python', query: 'remove a directory and everything in it', passage: 'def rmtree(path):\nshutil.rmtree(path, ignore_errors=True)' },
  { source: 'python', query: 'read the whole file as text', passage: 'def read_text(path):\nwith open(path) as handle:\nreturn handle.read()' },
  { source: 'go', query: 'reports whether the string begins with prefix', passage: 'func HasPrefix(s, prefix string) bool {\nreturn len(s) >= len(prefix) && s[0:len(prefix)] == prefix' },
  { source: 'wordnet', query: 'charge', passage: 'bill' },
  { source: 'wordnet', query: 'exhaustion', passage: 'depletion' },
  { source: 'ts', query: 'Returns the number of elements in the array', passage: 'length: number;' },
];

const SETTINGS: TrainingSettings = { seed: 7, dimension: 8, vocabularyMinTexts: 1, vocabularyMax: 50, ngramBuckets: 64, ngramMin: 3, ngramMax: 4, maxTerms: 32, epochs: 3, batchSize: 3, learningRate: 0.1, temperature: 0.1 };

function modelBytes(settings: TrainingSettings): Buffer {
  const model = train(PAIRS, settings);
  const { scales, weights } = quantize(model);
  return encodeStaticModel(model.header, scales, weights);
}

function copyShipped(name: string): string {
  const target = path.join(CACHE, name);
  fs.rmSync(target, { recursive: true, force: true });
  fs.cpSync(bundledModelFolder()!, target, { recursive: true });
  return target;
}

describe('static embedding model', () => {
  it('training is deterministic: the same pairs and settings give the same bytes, another seed other bytes', () => {
    const first = modelBytes(SETTINGS);
    assert.ok(first.equals(modelBytes(SETTINGS)));
    assert.ok(!first.equals(modelBytes({ ...SETTINGS, seed: 8 })));
  });

  it('reads back what it writes, and names the file when the bytes are not a model', () => {
    const bytes = modelBytes(SETTINGS);
    const model = decodeStaticModel(bytes, 'model.bin');
    assert.equal(model.header.dimension, 8);
    assert.equal(model.weights.length, model.header.rows * 8);
    assert.throws(() => decodeStaticModel(Buffer.from('not a model at all'), 'x/model.bin'), /Herald: x\/model\.bin is not a Herald static embedding model/);
    assert.throws(() => decodeStaticModel(bytes.subarray(0, bytes.length - 3), 'x/model.bin'), /x\/model\.bin is \d+ bytes, its header makes \d+/);
  });

  it('timestamps, addresses and ids it has no row for get no weight and leave room for words; short numbers and known ones stay', () => {
    const featurizer = new StaticFeaturizer({ vocabulary: ['10.0.0.1', 'disk'], ngramBuckets: 64, ngramMin: 3, ngramMax: 4, maxTerms: 4 });
    for (const opaque of ['16:13:38.811', '2017-05-16', '20171223-22', '173.234.31.186', '1795/1825']) assert.ok(featurizer.isOpaqueNumber(opaque), opaque);
    for (const meaningful of ['404', '2015', '10.0.0.1', 'disk', 'e11000', 'v1.2.3-beta', 'node-246']) assert.ok(!featurizer.isOpaqueNumber(meaningful), meaningful);
    // The opaque ones do not count toward maxTerms: the four terms after them are all read, `error` is the fifth.
    const counts = featurizer.countsOfTerms(['16:13:38.811', '38.811', 'disk', '2017-05-16', 'full', 'disk', '404', 'error']);
    assert.deepEqual([...counts], [['disk', 2], ['full', 1], ['404', 1]]);
    // A log line weighs the same with or without its timestamp's compound terms.
    const model = decodeStaticModel(modelBytes(SETTINGS), 'model.bin');
    const embedder = createStaticEmbedder('test', model);
    assert.deepEqual(embedder.embedTerms(['16:13:38.811', '13:38.811', 'disk', 'full']), embedder.embedTerms(['disk', 'full']));
    assert.notDeepEqual(embedder.embedTerms(['404', 'disk', 'full']), embedder.embedTerms(['disk', 'full']));
  });

  it('reads opaque numbers like any term when training asks (the recipe herald-retrieval 1.0.0 was trained with)', () => {
    const layout = { vocabulary: ['disk'], ngramBuckets: 64, ngramMin: 3, ngramMax: 4, maxTerms: 3 };
    const terms = ['16:13:38.811', 'disk', 'full', 'error'];
    assert.deepEqual([...new StaticFeaturizer(layout, true).countsOfTerms(terms)], [['16:13:38.811', 1], ['disk', 1], ['full', 1]]);
    assert.deepEqual([...new StaticFeaturizer(layout).countsOfTerms(terms)], [['disk', 1], ['full', 1], ['error', 1]]);
    assert.ok(new StaticFeaturizer(layout, true).features('16:13:38.811 disk').rows.length > new StaticFeaturizer(layout).features('16:13:38.811 disk').rows.length);
  });

  it('counts terms on its memo the same however small the memo, its generations turning over between texts', () => {
    const model = decodeStaticModel(modelBytes(SETTINGS), 'model.bin');
    const texts = ['disk full on node-7, disk full again', 'retrying upload: upload failed, disk full', 'the cache evicts user sessions', 'disk disk disk cache cache user', ''];
    const small = new TermVectors(model, new StaticFeaturizer(layoutOf(model.header)), 4);
    const large = new TermVectors(model, new StaticFeaturizer(layoutOf(model.header)));
    for (let round = 0; round < 3; round++) {
      for (const text of texts) assert.deepEqual(embedStatic(model, small, text), embedStatic(model, large, text), text);
    }
  });

  it('embeds a text from its terms\' batch ids exactly as from its terms, past maxTerms and with opaque numbers', () => {
    const model = decodeStaticModel(modelBytes(SETTINGS), 'model.bin');
    const embedder = createStaticEmbedder('test', model);
    const reference = createStaticEmbedder('reference', model);
    const batch = embedder.termBatch!();
    const long = Array.from({ length: 60 }, (_, index) => `disk full on node-${index % 7} at 16:13:${index}.811, retrying upload ${index % 3}`).join(' ');
    const texts = ['disk full on node-7, disk full again', '2017-05-16 16:13:38.811 retrying upload: upload failed, disk full', 'the cache evicts user sessions', '', '16:13:38.811 20171223-22', long, 'disk disk disk cache cache user'];
    for (let round = 0; round < 2; round++) {
      for (const text of texts) {
        const terms = tokenizeForSearch(text);
        const ids = Int32Array.from(terms, (term) => batch.idOf(term));
        assert.deepEqual(batch.embedIds(ids, ids.length), reference.embedTerms(terms), text.slice(0, 60));
      }
    }
    assert.ok(tokenizeForSearch(long).length > model.header.maxTerms, 'the long text runs past maxTerms');
    assert.equal(batch.idOf('disk'), batch.idOf('disk'));
    assert.notEqual(batch.idOf('disk'), batch.idOf('full'));
    // Only the first `count` ids are read.
    const ids = Int32Array.from(['disk', 'full', 'cache'], (term) => batch.idOf(term));
    assert.deepEqual(batch.embedIds(ids, 2), reference.embedTerms(['disk', 'full']));
  });

  it('a word it never saw still gets a vector from its character n-grams', () => {
    const model = decodeStaticModel(modelBytes(SETTINGS), 'model.bin');
    const featurizer = new StaticFeaturizer({ vocabulary: model.header.vocabulary, ngramBuckets: model.header.ngramBuckets, ngramMin: 3, ngramMax: 4, maxTerms: 32 });
    assert.ok(!featurizer.knows('zygomorphic'));
    const features = featurizer.features('zygomorphic');
    assert.ok(features.rows.length > 0 && [...features.rows].every((row) => row >= model.header.vocabulary.length), 'n-gram rows only');
  });

  it('writes a term\'s rows in place exactly as the n-grams of its marked string give them, for every kind of term', () => {
    const model = decodeStaticModel(modelBytes(SETTINGS), 'model.bin');
    const layout = { vocabulary: model.header.vocabulary, ngramBuckets: model.header.ngramBuckets, ngramMin: 2, ngramMax: 5, maxTerms: 32 };
    const featurizer = new StaticFeaturizer(layout);
    // The rows as the marked string `<term>` and fnv1a of each slice give them (the way rowsOf read before it wrote in place).
    const reference = (term: string): number[] => {
      const marked = `<${term}>`;
      const rows: number[] = [];
      const known = layout.vocabulary.indexOf(term);
      if (known >= 0) rows.push(known);
      for (let size = layout.ngramMin; size <= layout.ngramMax; size++) {
        for (let start = 0; start + size <= marked.length; start++) rows.push(layout.vocabulary.length + (fnv1a(marked.slice(start, start + size)) % layout.ngramBuckets));
      }
      return rows;
    };
    const terms = ['', 'a', 'ab', 'rmtree', 'path', 'zygomorphic', 'élan', '😀x', '<>', ...layout.vocabulary.slice(0, 20)];
    for (const term of terms) {
      const known = featurizer.knows(term);
      const out = new Int32Array(featurizer.rowCountOf(term, known) + 3).fill(-7);
      assert.equal(featurizer.writeRows(term, out), known);
      assert.deepEqual([...out.subarray(0, featurizer.rowCountOf(term, known))], reference(term), term);
      assert.deepEqual([...out.subarray(featurizer.rowCountOf(term, known))], [-7, -7, -7], `${term}: nothing written past its rows`);
      assert.deepEqual([...featurizer.rowsOf(term)], reference(term), term);
    }
  });

  it('gives a term the vector of its rows: its vocabulary row whole when it has one, its n-grams sharing the rest', () => {
    const model = decodeStaticModel(modelBytes(SETTINGS), 'model.bin');
    const featurizer = new StaticFeaturizer(layoutOf(model.header));
    const { dimension } = model.header;
    // The sum as the model's layout defines it, row after row, each column rounded to float32 as it is stored.
    const reference = (term: string): Float32Array => {
      const rows = featurizer.rowsOf(term);
      const known = featurizer.knows(term);
      const ngrams = rows.length - (known ? 1 : 0);
      const vector = new Float32Array(dimension);
      rows.forEach((row, index) => {
        const factor = (known && index === 0 ? 1 : (known ? 1 : 2) / ngrams) * model.scales[row]!;
        for (let column = 0; column < dimension; column++) vector[column] = vector[column]! + factor * model.weights[row * dimension + column]!;
      });
      return vector;
    };
    const known = model.header.vocabulary.filter((term) => term.length > 2).slice(0, 5);
    assert.ok(known.length > 0 && known.every((term) => featurizer.knows(term)));
    const terms = new TermVectors(model, featurizer);
    // Known and unknown terms mixed, a long one past the scratch space's first size among them.
    for (const term of [...known, 'zygomorphic', 'a', 'x'.repeat(80), ...known.map((term) => `${term}s`)]) {
      terms.nextText();
      assert.deepEqual(terms.entry(term).vector, reference(term), term);
    }
  });

  it('takes for digits and joiners what the expression /^[\\d.:\\-/\\\\,]+$/ takes, on every mix of characters', () => {
    const alphabet = ['0', '5', '9', '.', ':', '-', '/', '\\', ',', 'a', 'x', ' ', '_', '+', '٣', '²', '\n'];
    const next = seededInts(5);
    let taken = 0;
    for (let index = 0; index < 20_000; index++) {
      let term = '';
      const length = next(10);
      for (let at = 0; at < length; at++) term += alphabet[next(next(3) === 0 ? alphabet.length : 9)]!;
      const expected = /^[\d.:\-/\\,]+$/.test(term);
      assert.equal(isDigitsAndJoiners(term), expected, JSON.stringify(term));
      if (expected) taken++;
    }
    assert.ok(taken > 2_000, `${taken} taken`);
  });

  describe('the shipped model', () => {
    const folder = bundledModelFolder();

    it('is in media/model with a manifest whose SHA-256 matches its bytes, and loads through the embedder', async () => {
      assert.ok(folder, 'media/model/herald-retrieval is missing');
      const manifest = JSON.parse(fs.readFileSync(path.join(folder, MODEL_MANIFEST_FILE), 'utf8')) as { name: string; version: string; kind: string; files: Record<string, string> };
      assert.equal(manifest.name, SHIPPED_MODEL_NAME);
      assert.equal(manifest.kind, 'static');
      assert.equal(manifest.files['model.bin'], sha256File(path.join(folder, 'model.bin')));
      assert.ok(fs.statSync(path.join(folder, 'model.bin')).size <= 10 * 1024 * 1024, 'at most about 10 MB');
      const embedder = await loadEmbedder(folder);
      assert.equal(embedder.name, `${SHIPPED_MODEL_NAME} ${manifest.version}`);
      const [vector] = await embedder.embed(['the client was charged twice']);
      assert.equal(vector!.length, readStaticModel(path.join(folder, 'model.bin')).header.dimension);
      assert.ok(Math.abs(Math.hypot(...vector!) - 1) < 1e-5, 'unit length');
    });

    it('a damaged copy fails loudly, and the scorer falls back to lexical with a log line and a note saying so', async () => {
      const damaged = copyShipped('damaged-shipped-model');
      const file = path.join(damaged, 'model.bin');
      const bytes = fs.readFileSync(file);
      bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
      fs.writeFileSync(file, bytes);
      assert.throws(() => resolveModelFolder(damaged), /model\.bin is damaged \(SHA-256 [0-9a-f]{64}, expected [0-9a-f]{64}\)/);
      const logger = new RecordingLogger();
      const { scorer, note } = await loadScorerFor({ bundledModelDir: damaged, logger }).get(logger);
      assert.equal(scorer.mode, 'lexical');
      assert.match(note, /the shipped retrieval model could not be loaded, lexical ranking only/);
      assert.ok(logger.lines.some((line) => line.code === 'embedding-model-unavailable' && /damaged/.test(line.message)));
    });

    it('ranks fused by default, and says which signals it used; a user model takes precedence', async () => {
      const logger = new RecordingLogger();
      const shipped = await loadScorerFor({}).get(logger);
      assert.equal(shipped.scorer.mode, 'fused');
      assert.match(shipped.note, new RegExp(`signals: lexical \\+ model \\(${SHIPPED_MODEL_NAME} [\\d.]+, shipped with Herald; model weight [\\d.]+\\)`));
      const tiny = path.join(CACHE, 'static-precedence-tiny');
      writeTinyEmbeddingModel(tiny);
      const user = await loadScorerFor({ embeddingModelDir: tiny }).get(logger);
      assert.match(user.note, /signals: lexical \+ model \(herald-tiny-embedding; model weight 0\.5\)/);
      const none = await loadScorerFor({ bundledModelDir: false }).get(logger);
      assert.equal(none.scorer.mode, 'lexical');
      assert.equal(none.note, LEXICAL_ONLY_NOTE);
    });
  });
});
