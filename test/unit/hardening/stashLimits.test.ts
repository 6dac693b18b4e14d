/**
 * The stash's size cap under load: concurrent writers never leave more than the cap on disk
 * once their flushes are done, an entry that can never fit is refused (and reported as a
 * failed write) without pushing out everything else, and what was just written goes last.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { FileBlobStore, MemoryBlobStore, Stash } from '../../../src/core/stash';

function diskBytes(directory: string): number {
  return fs.readdirSync(directory).filter((name) => name.endsWith('.json')).reduce((sum, name) => sum + fs.statSync(path.join(directory, name)).size, 0);
}

describe('hardening: the stash size cap under load', function () {
  this.timeout(30_000);

  it('an entry bigger than the cap is refused and reported, and the others stay', async () => {
    const problems: string[] = [];
    let clock = 1_000;
    const store = new MemoryBlobStore(() => clock);
    const stash = new Stash({ store, key: new Uint8Array(32), maxBytes: 100_000, now: () => clock, onProblem: (code) => void problems.push(code) });
    const small = Array.from({ length: 5 }, (_, index) => stash.elide({ original: `small ${index}\n`.repeat(500), summary: 'small', kind: 'test' }));
    assert.deepEqual(await stash.flush(), []);
    clock += 1000;
    const giant = stash.elide({ original: 'g'.repeat(200_000), summary: 'giant', kind: 'test' });
    assert.deepEqual(await stash.flush(), [giant.handle], 'the giant counts as a failed write');
    assert.ok(problems.includes('stash-full'));
    assert.ok(stash.unwrittenHandles().has(giant.handle));
    assert.equal(await stash.retrieve(giant.handle), undefined);
    for (const elision of small) assert.ok((await stash.retrieve(elision.handle))?.startsWith('small'), 'the small entries were not pushed out');
  });

  it('the batch just written is kept before older entries', async () => {
    let clock = 1_000;
    const store = new MemoryBlobStore(() => clock);
    const stash = new Stash({ store, key: new Uint8Array(32), maxBytes: 60_000, now: () => clock });
    const old = stash.elide({ original: 'o'.repeat(20_000), summary: 'old', kind: 'test' });
    await stash.flush();
    clock += 1000;
    const fresh = stash.elide({ original: 'f'.repeat(20_000), summary: 'fresh', kind: 'test' });
    assert.deepEqual(await stash.flush(), []);
    assert.ok(await stash.retrieve(fresh.handle));
    const keys = (await store.list()).map((info) => info.key);
    assert.ok(keys.includes(fresh.handle) && !keys.includes(old.handle), 'the older entry made room');
  });

  it('eight concurrent writers on a file stash: the cap holds once the flushes are done, and every write is either kept whole or reported', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cap-test-'));
    try {
      const cap = 512 * 1024;
      const stash = new Stash({ store: new FileBlobStore(directory), key: new Uint8Array(32), maxBytes: cap });
      const written: string[] = [];
      const failed = new Set<string>();
      await Promise.all(Array.from({ length: 8 }, async (_, writer) => {
        for (let batch = 0; batch < 10; batch++) {
          const size = batch === 7 && writer === 3 ? cap + 1 : 5_000 + ((writer * 7919 + batch * 104_729) % 60_000);
          written.push(stash.elide({ original: `${writer}/${batch}\n`.padEnd(size, '.'), summary: 'load', kind: 'test' }).handle);
          for (const handle of await stash.flush()) failed.add(handle);
        }
      }));
      await stash.flush();
      assert.ok(diskBytes(directory) <= cap, `on disk ${diskBytes(directory)} > cap ${cap}`);
      assert.ok(failed.size >= 1, 'the over-cap entry was reported');
      // A fresh reader on the same folder: every entry it finds is whole (no partial file is valid).
      const reader = new Stash({ store: new FileBlobStore(directory), key: new Uint8Array(32) });
      let kept = 0;
      for (const handle of written) {
        const original = await reader.retrieve(handle);
        if (original === undefined) continue;
        kept++;
        assert.equal(reader.handleFor(original), handle, 'the original read back is the one stashed, whole');
      }
      assert.ok(kept > 0);
    } finally {
      fs.rmSync(directory, { recursive: true, force: true });
    }
  });
});
