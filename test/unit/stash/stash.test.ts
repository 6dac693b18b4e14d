import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileBlobStore, findMarkers, formatMarker, isHandle, MemoryBlobStore, Stash, countLines } from '../../../src/core/stash';
import { ScopedBlobStore } from '../../../src/core/stash/scopedBlobStore';

function memoryStash(options: Partial<ConstructorParameters<typeof Stash>[0]> = {}): Stash {
  return new Stash({ store: new MemoryBlobStore(options.now), key: new Uint8Array(32).fill(1), ...options });
}

describe('Stash', () => {
  it('derives short, stable handles that depend on the per-install key', () => {
    const a = memoryStash();
    const b = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(2) });
    const handle = a.handleFor('some output');
    assert.ok(isHandle(handle), handle);
    assert.equal(handle, a.handleFor('some output'));
    assert.notEqual(handle, a.handleFor('some output!'));
    assert.notEqual(handle, b.handleFor('some output'));
    // Remembering the last original never mixes up two: a handle asked for again after another is the same.
    const other = a.handleFor('another output');
    assert.equal(a.handleFor('some output'), handle);
    assert.equal(a.handleFor('another output'), other);
    assert.equal(a.handleFor(['some', 'output'].join(' ')), handle, 'an equal string made apart');
  });

  it('gives back the exact original, including lone surrogates, NUL and CRLF', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-stash-'));
    const original = 'line one\r\n\u0000binary\ud800 lone \udfff and 😀\n';
    const writer = new Stash({ store: new FileBlobStore(directory), key: new Uint8Array(32).fill(3) });
    const { handle } = writer.elide({ original, summary: '3 lines elided', kind: 'test' });
    await writer.flush();
    const reader = new Stash({ store: new FileBlobStore(directory), key: new Uint8Array(32).fill(3) });
    assert.equal(await reader.retrieve(handle), original);
    const mode = fs.statSync(path.join(directory, `${handle}.json`)).mode & 0o777;
    assert.equal(mode, 0o600);
  });

  it('expands markers back, nested ones too, and leaves look-alikes alone', async () => {
    const stash = memoryStash();
    const inner = 'alpha\nbeta\ngamma';
    const first = stash.elide({ original: inner, summary: '3 lines elided', kind: 'test' });
    const outerOriginal = `head\n${first.replacement}\ntail`;
    const second = stash.elide({ original: outerOriginal, summary: 'whole output elided', kind: 'test', render: (marker) => `summary line\n${marker}` });
    const fake = formatMarker('999 lines elided', 'hr_aaaaaaaaaaaaaaaa');
    const text = `before ${second.replacement} middle ${fake} after`;
    assert.equal(await stash.expandText(text), `before head\n${inner}\ntail middle ${fake} after`);
    // A real handle whose replacement does not stand around the marker is not expanded either.
    const moved = `${first.marker}`;
    assert.equal(await stash.expandText(`x ${moved.replace('3 lines', 'three lines')} y`), `x ${moved.replace('3 lines', 'three lines')} y`);
  });

  it('previews the elision elide would make without stashing anything', async () => {
    const store = new MemoryBlobStore();
    const stash = new Stash({ store, key: new Uint8Array(32).fill(1) });
    const input = { original: 'a long output', summary: '1 line elided', kind: 'test', render: (marker: string) => `head\n${marker}` };
    const preview = stash.preview(input);
    await stash.flush();
    assert.deepEqual(await store.list(), []);
    assert.equal(stash.issued(preview.handle), false);
    assert.deepEqual(stash.elide(input), preview);
    await stash.flush();
    assert.equal((await store.list()).length, 1);
    assert.throws(() => stash.preview({ ...input, render: () => 'no marker' }), /must contain its marker/);
  });

  it('refuses a replacement that does not carry its marker', () => {
    assert.throws(() => memoryStash().elide({ original: 'x', summary: 's', kind: 'test', render: () => 'no marker here' }), /must contain its marker/);
  });

  it('ignores a corrupted or truncated entry and reports it', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-stash-'));
    const problems: string[] = [];
    const stash = new Stash({ store: new FileBlobStore(directory), key: new Uint8Array(32), onProblem: (code) => problems.push(code) });
    const { handle } = stash.elide({ original: 'precious', summary: 's', kind: 'test' });
    await stash.flush();
    const file = path.join(directory, `${handle}.json`);
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 20));
    const fresh = new Stash({ store: new FileBlobStore(directory), key: new Uint8Array(32), onProblem: (code) => problems.push(code) });
    assert.equal(await fresh.retrieve(handle), undefined);
    assert.deepEqual(problems, ['stash-entry-corrupted']);
  });

  it('refuses an entry with another schema version', async () => {
    const store = new MemoryBlobStore();
    const problems: string[] = [];
    await store.put('hr_aaaaaaaaaaaaaaaa', JSON.stringify({ schema: 99, handle: 'hr_aaaaaaaaaaaaaaaa', original: 'x', replacements: [] }));
    const stash = new Stash({ store, onProblem: (_code, message) => problems.push(message) });
    assert.equal(await stash.retrieve('hr_aaaaaaaaaaaaaaaa'), undefined);
    assert.match(problems[0] ?? '', /schema 99, expected 1/);
  });

  it('evicts expired entries and the least recently used above the size cap', async () => {
    let now = 1_000_000;
    const store = new MemoryBlobStore(() => now);
    const stash = new Stash({ store, key: new Uint8Array(32), now: () => now, ttlMs: 10_000, maxBytes: 3000 });
    const old = stash.elide({ original: 'o'.repeat(100), summary: 's', kind: 'test' });
    await stash.flush();
    now += 20_000;
    const a = stash.elide({ original: 'a'.repeat(600), summary: 's', kind: 'test' });
    await stash.flush();
    now += 1;
    const b = stash.elide({ original: 'b'.repeat(600), summary: 's', kind: 'test' });
    await stash.flush();
    const keys = (await store.list()).map((info) => info.key).sort();
    assert.ok(!keys.includes(old.handle), 'expired entry is gone');
    assert.ok(!keys.includes(a.handle), 'least recently used entry over the cap is gone');
    assert.ok(keys.includes(b.handle));
    const total = (await store.list()).reduce((sum, info) => sum + info.size, 0);
    assert.ok(total <= 3000, String(total));
  });

  it('keeps every replacement of an original elided again by another process, so earlier sites still expand', async () => {
    // Process one masks an output; process two (a later `herald optimize`, a restarted host) elides the same
    // original another way. The first request's marker must still expand: the second write may not drop it.
    const store = new MemoryBlobStore();
    const key = new Uint8Array(32).fill(3);
    const original = 'line\n'.repeat(50);
    const first = new Stash({ store, key }).elide({ original, summary: 'observation masked: 50 lines', kind: 'observation_mask' });
    const processOne = new Stash({ store, key });
    processOne.elide({ original, summary: 'observation masked: 50 lines', kind: 'observation_mask' });
    await processOne.flush();
    const processTwo = new Stash({ store, key });
    const second = processTwo.elide({ original, summary: 'same output as message 3', kind: 'context_dedupe' });
    assert.notEqual(second.replacement, first.replacement);
    await processTwo.flush();
    const text = `before ${first.replacement} between ${second.replacement} after`;
    const sites = [
      { handle: first.handle, start: 'before '.length, length: first.replacement.length },
      { handle: second.handle, start: `before ${first.replacement} between `.length, length: second.replacement.length },
    ];
    for (const reader of [processTwo, new Stash({ store, key })]) {
      assert.equal(await reader.expandAt(text, sites), `before ${original} between ${original} after`);
      assert.equal(await reader.retrieve(first.handle), original);
    }
    const entry = await new Stash({ store, key }).entry(first.handle);
    assert.deepEqual(entry?.replacements, [first.replacement, second.replacement]);
    assert.equal(entry?.kind, 'observation_mask', 'the first process\'s kind and creation time are kept');
  });

  it('sweeps after a flush that wrote nothing at most once a minute (a listing per request would grow with the stash)', async () => {
    let now = 1_000_000;
    const store = new MemoryBlobStore(() => now);
    let listings = 0;
    const list = store.list.bind(store);
    store.list = async () => {
      listings++;
      return list();
    };
    const stash = new Stash({ store, key: new Uint8Array(32), now: () => now, ttlMs: 10_000 });
    const old = stash.elide({ original: 'o'.repeat(100), summary: 's', kind: 'test' });
    await stash.flush();
    assert.equal(listings, 1, 'a flush that wrote sweeps');
    for (let request = 0; request < 10; request++) await stash.flush();
    assert.equal(listings, 1, 'idle flushes within the minute do not');
    now += 61_000;
    await stash.flush();
    assert.equal(listings, 2, 'an idle flush a minute later does, and evicts what expired');
    assert.ok(!(await store.list()).some((info) => info.key === old.handle));
  });

  it('sweeps after writes only once a minute, unless what it wrote may have taken it over its cap', async () => {
    let now = 1_000_000;
    const store = new MemoryBlobStore(() => now);
    let listings = 0;
    const list = store.list.bind(store);
    store.list = async (prefix?: string) => {
      listings++;
      return list(prefix);
    };
    const stash = new Stash({ store, key: new Uint8Array(32), now: () => now, ttlMs: 10_000, maxBytes: 20_000 });
    stash.elide({ original: 'first', summary: 's', kind: 'test' });
    await stash.flush();
    assert.equal(listings, 1, 'the first write sweeps (what the store holds is not known yet)');
    for (let request = 0; request < 5; request++) {
      now += 1000;
      stash.elide({ original: `small ${request}`, summary: 's', kind: 'test' });
      await stash.flush();
    }
    assert.equal(listings, 1, 'small writes well under the cap within the minute list nothing');
    const large = stash.elide({ original: 'x'.repeat(8_000), summary: 's', kind: 'test' });
    assert.deepEqual(await stash.flush(), []);
    assert.equal(listings, 2, 'a write that may pass the cap sweeps at once');
    const total = (await list()).reduce((sum, info) => sum + info.size, 0);
    assert.ok(total <= 20_000, String(total));
    assert.equal(await stash.retrieve(large.handle), 'x'.repeat(8_000), 'the batch just written stays');
  });

  it('a namespace lists only its own entries from the shared store', async () => {
    const shared = new MemoryBlobStore();
    const asked: (string | undefined)[] = [];
    const list = shared.list.bind(shared);
    shared.list = async (prefix?: string) => {
      asked.push(prefix);
      return list(prefix);
    };
    await shared.put('t-a.hr_one', 'a');
    await shared.put('t-b.hr_two', 'b');
    const keys = (await new ScopedBlobStore(shared, 't-a').list()).map((info) => info.key);
    assert.deepEqual(keys, ['hr_one']);
    assert.deepEqual(asked, ['t-a.'], 'the prefix is handed to the store');
  });

  it('a file store stats only the entries under the prefix asked for', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-list-test-'));
    try {
      const store = new FileBlobStore(directory);
      await store.put('t-a.hr_one', 'a');
      await store.put('t-b.hr_two', 'bb');
      assert.deepEqual((await store.list('t-a.')).map((info) => [info.key, info.size]), [['t-a.hr_one', 1]]);
      assert.equal((await store.list()).length, 2);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });

  it('reports a failed write instead of throwing', async () => {
    const problems: string[] = [];
    const store = new MemoryBlobStore();
    store.put = async () => { throw new Error('disk full'); };
    const stash = new Stash({ store, onProblem: (code) => problems.push(code) });
    stash.elide({ original: 'x', summary: 's', kind: 'test' });
    await stash.flush();
    assert.deepEqual(problems, ['stash-write-failed']);
  });
});

describe('markers', () => {
  it('formats and finds markers, keeping summaries on one line', () => {
    const marker = formatMarker('412 lines elided]\nnext', 'hr_abcdefghijklmnop');
    assert.equal(marker, '[herald: 412 lines elided  next · retrieve hr_abcdefghijklmnop]');
    const found = findMarkers(`a ${marker} b [herald: bogus · retrieve hr_short]`);
    assert.equal(found.length, 1);
    assert.equal(found[0]!.handle, 'hr_abcdefghijklmnop');
  });

  it('counts lines as a reader does', () => {
    assert.equal(countLines(''), 0);
    assert.equal(countLines('a'), 1);
    assert.equal(countLines('a\n'), 1);
    assert.equal(countLines('a\nb'), 2);
  });
});
