import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { canonicalJson, sequenceDigest, sha256 } from '../../../src/core/pipeline/hash';

/** The definition canonicalJson must match: JSON.stringify of a copy with every object's keys sorted. */
function reference(value: unknown): string {
  const sorted = (item: unknown): unknown => {
    if (typeof item !== 'object' || item === null) return item;
    const form = typeof (item as { toJSON?: unknown }).toJSON === 'function' ? (item as { toJSON: () => unknown }).toJSON() : item;
    if (typeof form !== 'object' || form === null) return form;
    if (Array.isArray(form)) return form.map(sorted);
    return Object.fromEntries(Object.keys(form).sort().map((key) => [key, sorted((form as Record<string, unknown>)[key])]));
  };
  return JSON.stringify(sorted(value)) ?? 'undefined';
}

/** A deterministic pseudo-random JSON-ish value (holes of undefined, functions, dates, unicode keys). */
function generate(seed: number, depth = 0): unknown {
  let state = seed;
  const next = (): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
  const make = (level: number): unknown => {
    const pick = next();
    if (level > 4 || pick < 0.35) {
      const leaf = Math.floor(next() * 9);
      return [0, -0, 1.5e300, NaN, 'a"b\\c\n\u2028', '', true, null, undefined][leaf];
    }
    if (pick < 0.45) return () => 1;
    if (pick < 0.5) return new Date(Math.floor(next() * 1e12));
    if (pick < 0.75) return Array.from({ length: Math.floor(next() * 4) }, () => make(level + 1));
    const object: Record<string, unknown> = {};
    for (let index = Math.floor(next() * 5); index > 0; index--) object[['b', 'a', 'é', '10', '2', 'A', '$x'][Math.floor(next() * 7)]!] = make(level + 1);
    return object;
  };
  return make(depth);
}

describe('canonicalJson', () => {
  it('writes what JSON.stringify writes for a key-sorted copy, on generated values', () => {
    for (let seed = 1; seed <= 2_000; seed++) {
      const value = generate(seed);
      assert.equal(canonicalJson(value), reference(value), `seed ${seed}`);
    }
    assert.equal(canonicalJson(undefined), 'undefined');
    assert.equal(canonicalJson({ toJSON: () => ({ z: 1, a: [undefined] }) }), '{"a":[null],"z":1}');
  });

  it('keeps shared references shared, throws on a cycle, and handles JSON thousands of levels deep', () => {
    const shared = { b: 1, a: 2 };
    assert.equal(canonicalJson({ y: shared, x: shared }), '{"x":{"a":2,"b":1},"y":{"a":2,"b":1}}');
    const cycle: Record<string, unknown> = { a: 1 };
    cycle.self = cycle;
    assert.throws(() => canonicalJson(cycle), TypeError);
    let deep: unknown = 'end';
    for (let level = 0; level < 5_000; level++) deep = level % 2 ? [deep] : { k: deep };
    assert.ok(canonicalJson(deep).length > 10_000);
  });
});

describe('sequenceDigest', () => {
  it('digests what an array holds now: the same array filled again gets the new digest', () => {
    const values: object[] = [{ a: 1 }, { b: 2 }];
    const first = sequenceDigest(values);
    assert.equal(sequenceDigest(values), first);
    assert.equal(sequenceDigest([{ a: 1 }, { b: 2 }]), first, 'equal objects, equal digest');
    values[1] = { b: 3 };
    const refilled = sequenceDigest(values);
    assert.notEqual(refilled, first);
    assert.equal(refilled, sequenceDigest([{ a: 1 }, { b: 3 }]));
    values.push({ c: 4 });
    assert.equal(sequenceDigest(values), sequenceDigest([{ a: 1 }, { b: 3 }, { c: 4 }]));
  });
});

describe('sha256', () => {
  it('is the hex SHA-256 of the text as UTF-8, as a Hash object gives it (memo keys and pins stay the same across Node versions)', () => {
    // FIPS 180-2's "abc" vector, then texts past ASCII: accents, CJK, an emoji (a surrogate pair), a lone surrogate.
    assert.equal(sha256('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    for (const text of ['', 'naïve café', '中文字符', 'emoji 😀', 'lone \ud800 half', 'x'.repeat(100_000)]) {
      assert.equal(sha256(text), createHash('sha256').update(text, 'utf8').digest('hex'), JSON.stringify(text.slice(0, 20)));
    }
  });
});
