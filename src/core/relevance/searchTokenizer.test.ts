import * as assert from 'node:assert/strict';
import { porterStem } from './porterStemmer';
import { addWordGenerally, searchTermsOfWord, tokenizeForSearch } from './searchTokenizer';
import { seededInts } from '../../../test/support/seededInts';

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

describe('search terms of dates, times, addresses and versions', () => {
  it('are what the general rules give, for every mix of digits and joiners', () => {
    const next = seededInts(99);
    const pieces = ['0', '7', '12', '2015', '081109', '1445144423722'];
    const joiners = ['.', '-', ':', '/', '\\', '..', '--', '.-', ':/', ','];
    const words = ['081109', '0', '00012', '2015-10-18', '18:01:47', '10.190.173.170:54310', '3.14', '10.1.2.3', '1..2', '-12-', '1--2-3-', '.5', '5.', '1,5', '1.2.3-4'];
    for (let index = 0; index < 5_000; index++) {
      let word = next(4) === 0 ? joiners[next(joiners.length)]! : '';
      const count = 1 + next(6);
      for (let piece = 0; piece < count; piece++) word += (piece > 0 ? joiners[next(joiners.length)]! : '') + pieces[next(pieces.length)]!;
      if (next(4) === 0) word += joiners[next(joiners.length)]!;
      words.push(word);
    }
    let compounds = 0;
    for (const word of words) {
      const general: string[] = [];
      addWordGenerally(word, general);
      assert.deepEqual([...searchTermsOfWord(word)], general, word);
      if (/^\d[\d./\\:-]*\d$/.test(word) && /[./\\:-]/.test(word)) compounds++;
    }
    assert.ok(compounds > 1_000, `${compounds} compounds`);
    assert.deepEqual([...searchTermsOfWord('10.190.173.170:54310')], ['10.190.173.170:54310', '170:54310', '10', '190', '173', '170', '54310']);
  });
});
