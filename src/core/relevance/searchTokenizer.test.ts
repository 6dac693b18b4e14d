import * as assert from 'node:assert/strict';
import { porterStem } from './porterStemmer';
import { tokenizeForSearch } from './searchTokenizer';

describe('tokenizeForSearch', () => {
  it('splits camelCase and snake_case identifiers and keeps the whole identifier', () => {
    assert.deepEqual(tokenizeForSearch('getUserName'), ['getusername', 'get', 'user', 'name']);
    assert.deepEqual(tokenizeForSearch('MAX_RETRY_COUNT'), ['max_retry_count', 'max', 'retri', 'count']);
    assert.deepEqual(tokenizeForSearch('parseHTTPResponse'), ['parsehttpresponse', 'pars', 'http', 'respons']);
  });

  it('keeps paths whole, with their base name and pieces', () => {
    assert.deepEqual(tokenizeForSearch('src/core/index.ts'), ['src/core/index.ts', 'index.ts', 'src', 'core', 'index', 'ts']);
  });

  it('keeps numbers, status codes and addresses as written', () => {
    assert.deepEqual(tokenizeForSearch('POST /checkout 500 in 3.14 s from 10.0.9.3'), ['post', 'checkout', '500', '3.14', '10.0.9.3']);
  });

  it('stems prose and drops stop words', () => {
    assert.deepEqual(tokenizeForSearch('The tests are failing: connection refused'), ['test', 'fail', 'connect', 'refus']);
    assert.deepEqual(tokenizeForSearch('failed'), tokenizeForSearch('fails'));
  });

  it('is empty for text without words', () => {
    assert.deepEqual(tokenizeForSearch('  --- ... ## '), []);
  });
});

describe('porterStem', () => {
  // Pairs from the worked examples of Porter's 1980 paper.
  const examples: [string, string][] = [
    ['caresses', 'caress'], ['ponies', 'poni'], ['cats', 'cat'], ['agreed', 'agre'], ['plastered', 'plaster'],
    ['motoring', 'motor'], ['sing', 'sing'], ['conflated', 'conflat'], ['hopping', 'hop'], ['falling', 'fall'],
    ['filing', 'file'], ['happy', 'happi'], ['relational', 'relat'], ['conditional', 'condit'], ['triplicate', 'triplic'],
    ['hopeful', 'hope'], ['goodness', 'good'], ['revival', 'reviv'], ['adjustment', 'adjust'], ['adoption', 'adopt'],
    ['generalizations', 'gener'], ['oscillators', 'oscil'], ['controll', 'control'], ['rate', 'rate'], ['cease', 'ceas'],
  ];
  for (const [word, stem] of examples) {
    it(`${word} → ${stem}`, () => assert.equal(porterStem(word), stem));
  }
});
