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

describe('tokenizeForSearch on ASCII text', () => {
  // ASCII text is split into words by a scan, other text by the WORD pattern; a letter that is
  // no term by itself (`é`) sends the same text down the pattern's path, so both must agree.
  const viaPattern = (text: string): string[] => tokenizeForSearch(`${text} é`);

  it('finds the same words as the pattern on joiner-heavy text', () => {
    for (const text of ['a.b', 'a..b', 'a.', '.a', 'a.-/b:c\\d', 'x-- y', '--x', 'src/core/index.ts:12:3', 'http://host:80/a?b=c', 'foo_bar$baz.qux-', '10.0.9.3:', '$x.$y', '::a::', 'a\\', 'a\\\\b']) {
      assert.deepEqual(tokenizeForSearch(text), viaPattern(text), text);
    }
  });

  it('finds the same words as the pattern on random ASCII text', () => {
    const alphabet = 'aZ09_$./\\:- \t\n,;()"\'#%&*+=<>?@[]^`{|}~Bx7';
    let seed = 0x2545f491;
    const next = (): number => {
      seed ^= seed << 13;
      seed ^= seed >>> 17;
      seed ^= seed << 5;
      return (seed >>> 0) % alphabet.length;
    };
    for (let round = 0; round < 2000; round++) {
      let text = '';
      const length = 1 + (round % 40);
      for (let index = 0; index < length; index++) text += alphabet[next()];
      assert.deepEqual(tokenizeForSearch(text), viaPattern(text), JSON.stringify(text));
    }
  });
});
