import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { createLexicalScorer, createRelevanceScorer, LexicalIndex, scoreLexically, tokenizeForSearch } from './index';

describe('createLexicalScorer', () => {
  it('ranks the document that matches the query first, and a document matching nothing at 0', async () => {
    const scorer = createLexicalScorer();
    assert.equal(scorer.mode, 'lexical');
    const scores = await scorer.score('find the 500 errors on /checkout', [
      '10.0.2.14 GET /health 200 2ms',
      '10.0.9.3 POST /checkout 500 812ms',
      '10.0.2.14 GET /home 200 8ms',
    ]);
    assert.equal(scores.length, 3);
    assert.ok(scores[1]! > scores[0]! && scores[1]! > scores[2]!);
    assert.equal(scores[0], 0);
    for (const score of scores) assert.ok(score >= 0 && score <= 1);
  });

  it('matches identifiers by their parts and prose by its stem', async () => {
    const scores = await createLexicalScorer().score('user name lookup failing', ['def getUserName(uid):', 'def render_page():', 'lookup failed']);
    assert.ok(scores[0]! > 0);
    assert.equal(scores[1], 0);
    assert.ok(scores[2]! > 0);
  });

  it('is deterministic and scores in input order', async () => {
    const documents = ['alpha beta', 'beta gamma', 'gamma delta'];
    const scorer = createLexicalScorer();
    assert.deepEqual(await scorer.score('gamma', documents), await scorer.score('gamma', documents));
    const reversed = await scorer.score('gamma', [...documents].reverse());
    assert.deepEqual(reversed.reverse(), await scorer.score('gamma', documents));
  });

  it('scores nothing for an empty query or no documents', async () => {
    assert.deepEqual(await createLexicalScorer().score('', ['a b c']), [0]);
    assert.deepEqual(await createLexicalScorer().score('query', []), []);
  });

  it('scores the same through a reusable index as through a one-off call', () => {
    const documents = ['def read_file(path): return open(path).read()', 'class HttpServer: handles a request', 'def parse_http_response(raw):', 'nothing to see'];
    const index = new LexicalIndex(documents);
    for (const query of ['read a file', 'http response parsing', 'server request', 'absent words']) {
      assert.deepEqual(index.score(query), scoreLexically(query, documents));
    }
  });

  it('gives minisearch\'s scores exactly, with repeated and empty texts and other BM25 parameters', () => {
    const documents = ['', 'retry the request', 'retry the request', 'request timed out after 30 s; retry 3 of 5', '!!!', 'the request request request failed', 'unrelated words only'];
    for (const bm25 of [{ k: 1.2, b: 0.7, d: 0.5 }, { k: 0.9, b: 0.4, d: 0 }]) {
      for (const query of ['retry the request', 'request failed timeout', 'nothing matches here']) {
        const terms = new Set(tokenizeForSearch(query));
        assert.deepEqual(scoreLexically(query, documents, bm25), new LexicalIndex(documents, bm25, terms).score(query), query);
      }
    }
  });

  itWithData('gives minisearch\'s scores exactly on a real log', () => {
    const lines = fs.readFileSync(sharedPath('logs', 'Zookeeper', 'Zookeeper_2k.log'), 'utf8').split('\n');
    for (const query of ['why did the connection to the leader break?', 'Show the errors and warnings', 'session expired 0x14f05578bd8000f']) {
      assert.deepEqual(scoreLexically(query, lines), new LexicalIndex(lines).score(query), query);
    }
  });

  it('is lexical when no embedder is configured', () => {
    assert.equal(createRelevanceScorer().mode, 'lexical');
  });

  itWithData('ranks every line of a real Hadoop log that mentions an error above the rest', async () => {
    const lines = fs.readFileSync(sharedPath('logs', 'Hadoop', 'Hadoop_2k.log'), 'utf8').split('\n').filter((line) => line.length > 0);
    const scores = await createLexicalScorer().score('which errors happened?', lines);
    const mentions = lines.map((line) => /\berrors?\b/i.test(line));
    const expected = mentions.filter(Boolean).length;
    assert.ok(expected > 0);
    const top = lines.map((_, index) => index).sort((a, b) => scores[b]! - scores[a]! || a - b).slice(0, expected);
    assert.deepEqual(top.filter((index) => !mentions[index]), []);
  });
});
