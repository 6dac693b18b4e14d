import * as assert from 'node:assert/strict';
import { GenerationalCache } from './generationalCache';

describe('GenerationalCache', () => {
  it('returns what was set under each key, and nothing for a key never set', () => {
    const cache = new GenerationalCache<string, number>(100);
    for (let index = 0; index < 40; index++) cache.set(`key ${index}`, index * 3);
    for (let index = 0; index < 40; index++) assert.equal(cache.get(`key ${index}`), index * 3);
    assert.equal(cache.get('key 40'), undefined);
    cache.set('key 7', -1);
    assert.equal(cache.get('key 7'), -1);
  });

  it('never holds more than its bound, and drops the oldest generation first', () => {
    const cache = new GenerationalCache<number, number>(10);
    for (let key = 0; key < 1000; key++) {
      cache.set(key, key + 1);
      assert.ok(cache.size <= 10, `size ${cache.size} after ${key + 1} inserts`);
    }
    // The last five are in the newer generation, the five before in the older one (a read
    // there moves the entry to the newer generation, which turns over when full).
    assert.equal(cache.get(989), undefined);
    assert.equal(cache.get(990), 991);
    for (let key = 995; key < 1000; key++) assert.equal(cache.get(key), key + 1);
    assert.equal(cache.get(0), undefined);
  });

  it('keeps an entry that is read again when its generation turns over', () => {
    const cache = new GenerationalCache<string, string>(4);
    cache.set('often', 'kept');
    for (let round = 0; round < 50; round++) {
      cache.set(`once ${round}`, 'x');
      assert.equal(cache.get('often'), 'kept', `round ${round}`);
    }
    assert.ok(cache.size <= 4);
  });

  it('refuses a bound with no room', () => {
    assert.throws(() => new GenerationalCache(1), /Herald: /);
  });
});
