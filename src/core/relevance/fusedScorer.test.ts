import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { bundledModelFolder } from './embedding/bundledModel';
import { loadEmbedder } from './embedding/loadEmbedder';
import { MODEL_MANIFEST_FILE } from './embedding/modelFolder';
import { createStaticEmbedder, readStaticModel } from './embedding/staticModel';
import { createFusedScorer, fuseScores } from './fusedScorer';
import { createLexicalScorer, scoreLexically } from './lexicalScorer';
import { embedsTerms, type Embedder } from './types';

const CACHE = path.resolve(__dirname, '..', '..', '..', 'test', '.cache');

/** The same model seen only through `embed` (as a user's ONNX model is), recording what it was asked. */
function textsOnly(embedder: Embedder): Embedder & { asked: number } {
  const wrapper = {
    name: embedder.name,
    dimension: embedder.dimension,
    asked: 0,
    embed(texts: readonly string[], signal?: AbortSignal) {
      wrapper.asked += texts.length;
      return embedder.embed(texts, signal);
    },
  };
  return wrapper;
}

describe('fused scorer', () => {
  const folder = bundledModelFolder();

  it('scores from search terms exactly as from BM25 and embed() apart, repeated and empty lines included', async () => {
    const shipped = await loadEmbedder(folder!);
    assert.ok(embedsTerms(shipped), 'the shipped model takes search terms');
    const lines = ['', 'Out of memory: Killed process 4242 (java)', 'retrying the upload', 'retrying the upload', 'worker 7 finished in 12 s', '!!!', 'kernel: oom-kill: constraint=CONSTRAINT_MEMCG'];
    const query = 'why was the worker killed for memory?';
    const fast = await createFusedScorer(createLexicalScorer(), shipped, 0.6).score(query, lines);
    const apart = fuseScores(scoreLexically(query, lines), ...(await shipped.embed([query, ...lines]).then((vectors) => [vectors[0]!, vectors.slice(1)] as const)), 0.6);
    assert.deepEqual(fast, apart);
    const slow = textsOnly(shipped);
    assert.deepEqual(await createFusedScorer(createLexicalScorer(), slow, 0.6).score(query, lines), apart);
    assert.equal(slow.asked, lines.length + 1, 'an embedder without search terms is asked for every text');
    assert.equal(fast[0], 0, 'an empty line scores nothing');
    assert.equal(fast[2], fast[3]);
  });

  itWithData('gives the same scores both ways on every real log', async () => {
    const shipped = await loadEmbedder(folder!);
    for (const system of fs.readdirSync(sharedPath('logs')).sort()) {
      const lines = fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8').split('\n');
      const query = 'which logins failed because of a wrong password? Show the errors and warnings.';
      const fast = await createFusedScorer(createLexicalScorer(), shipped, 0.7).score(query, lines);
      // A separate embedder over the same model, so no vector comes from the cache the fast path filled.
      const separate = textsOnly(createStaticEmbedder(shipped.name, readStaticModel(path.join(folder!, 'model.bin'))));
      assert.deepEqual(fast, await createFusedScorer(createLexicalScorer(), separate, 0.7).score(query, lines), system);
    }
  });

  it('loads a static model folder once per process, and again when its files change', async () => {
    const copy = path.join(CACHE, 'load-once-shipped-model');
    fs.rmSync(copy, { recursive: true, force: true });
    fs.cpSync(folder!, copy, { recursive: true });
    const first = await loadEmbedder(copy);
    assert.equal(await loadEmbedder(copy), first, 'the same embedder (and its caches) for every caller');
    const file = path.join(copy, 'model.bin');
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] = bytes[bytes.length - 1]! ^ 0xff;
    fs.writeFileSync(file, bytes);
    await assert.rejects(loadEmbedder(copy), /model\.bin is damaged/);
    fs.copyFileSync(path.join(folder!, 'model.bin'), file);
    const manifest = path.join(copy, MODEL_MANIFEST_FILE);
    fs.writeFileSync(manifest, fs.readFileSync(manifest));
    const reloaded = await loadEmbedder(copy);
    assert.notEqual(reloaded, first, 'a rewritten file is checked and read again');
  });
});
