/**
 * The folder store keeps a run's first-write-wins entries of one group in one file, a bundle
 * linked under each entry's name: one file created for a whole decision instead of one an entry,
 * every entry read back as written, never two groups (tenants) in one file, a large group split,
 * and whatever could be mistaken for a bundle written so that it is read back as it was.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import { MessageMemo, Pipeline, SessionStateStore } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { BUNDLE_MARK, BUNDLE_MAX_CHARS, decodeBundle, ESCAPE_MARK } from '../../../src/core/store/folderBundles';
import { FolderStateStore } from '../../../src/core/store/folderStateStore';

/** Each file of `directory` (its inode) with the names it has there. */
function filesOf(directory: string): Map<number, string[]> {
  const files = new Map<number, string[]>();
  for (const name of fs.readdirSync(directory)) {
    const inode = fs.statSync(path.join(directory, name)).ino;
    files.set(inode, [...(files.get(inode) ?? []), name]);
  }
  return files;
}

describe('folder store: bundles', function () {
  this.timeout(30_000);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-bundles-'));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('writes a group of entries as one file under every name, and reads each back as written', async () => {
    const directory = path.join(folder, 'group');
    const store = new FolderStateStore(directory);
    const writes = Array.from({ length: 6 }, (_, index) => ({ key: `memo:k${index}`, value: JSON.stringify({ n: Math.floor(index / 2) }), ifAbsent: true, group: 'tenant-a' }));
    assert.deepEqual(await store.setMany(writes), writes.map(() => true));
    const files = filesOf(directory);
    assert.equal(files.size, 1, 'one file for the group');
    assert.equal([...files.values()][0]!.length, 6, 'linked under each of the six names, no temporary file left');
    const onDisk = decodeBundle(fs.readFileSync(path.join(directory, [...files.values()][0]![0]!), 'utf8'))!;
    assert.equal(new Set(onDisk.values()).size, 3);
    assert.equal(fs.readFileSync(path.join(directory, [...files.values()][0]![0]!), 'utf8').split('{\\"n\\":1}').length - 1, 1, 'a value two keys share is kept once');
    assert.deepEqual(await store.getMany(writes.map((write) => write.key)), writes.map((write) => write.value));
    assert.deepEqual(await new FolderStateStore(directory).getMany(['memo:k5', 'memo:k0', 'memo:none']), [writes[5]!.value, writes[0]!.value, undefined], 'another process reads them one by one');
  });

  it('keeps the first write of each name, and never puts two groups in one file', async () => {
    const directory = path.join(folder, 'tenants');
    const store = new FolderStateStore(directory);
    await store.setMany([{ key: 'x', value: 'first', ifAbsent: true, group: 'a' }, { key: 'y', value: 'y-a', ifAbsent: true, group: 'a' }]);
    const written = await store.setMany([
      { key: 'x', value: 'second', ifAbsent: true, group: 'a' },
      { key: 'z', value: 'z-a', ifAbsent: true, group: 'a' },
      { key: 'b1', value: 'tenant b', ifAbsent: true, group: 'b' },
      { key: 'b2', value: 'tenant b again', ifAbsent: true, group: 'b' },
      { key: 'pins', value: 'last writer wins' },
    ]);
    assert.deepEqual(written, [false, true, true, true, true]);
    assert.deepEqual(await store.getMany(['x', 'y', 'z', 'b1', 'b2', 'pins']), ['first', 'y-a', 'z-a', 'tenant b', 'tenant b again', 'last writer wins']);
    let bundles = 0;
    for (const names of filesOf(directory).values()) {
      const bundle = decodeBundle(fs.readFileSync(path.join(directory, names[0]!), 'utf8'));
      if (!bundle) continue;
      bundles++;
      const groups = new Set([...bundle.keys()].map((key) => (key.startsWith('b') ? 'b' : 'a')));
      assert.equal(groups.size, 1, `one group a file: ${[...bundle.keys()].join(', ')}`);
    }
    assert.equal(bundles, 3, 'the first batch\'s group, and each group of the second batch');
  });

  it('a key written twice in one batch keeps its first value, as a file of its own would', async () => {
    const directory = path.join(folder, 'twice');
    const store = new FolderStateStore(directory);
    assert.deepEqual(await store.setMany([{ key: 'k', value: 'first', ifAbsent: true, group: 'g' }, { key: 'other', value: 'o', ifAbsent: true, group: 'g' }, { key: 'k', value: 'second', ifAbsent: true, group: 'g' }]), [true, true, false]);
    assert.deepEqual(await new FolderStateStore(directory).getMany(['k', 'other']), ['first', 'o']);
  });

  it('replaces an expired entry from the bundle and still links the batch\'s other entries', async () => {
    const directory = path.join(folder, 'expired');
    let now = Date.now();
    const store = new FolderStateStore(directory, { ttlMs: 60_000, maxBytes: 1 << 20 }, () => now);
    await store.setMany([{ key: 'old', value: 'stale', ifAbsent: true }]);
    now += 120_000;
    assert.deepEqual(await store.setMany([
      { key: 'old', value: 'renewed', ifAbsent: true, group: '' },
      { key: 'new1', value: 'one', ifAbsent: true, group: '' },
      { key: 'new2', value: 'two', ifAbsent: true, group: '' },
    ]), [true, true, true]);
    assert.deepEqual(await new FolderStateStore(directory).getMany(['old', 'new1', 'new2']), ['renewed', 'one', 'two']);
    assert.equal(filesOf(directory).size, 1, 'the renewed entry is the bundle too');
    assert.ok(fs.readdirSync(directory).every((name) => name.endsWith('.json')), 'no temporary file is left');
  });

  it('splits a large group so that no bundle holds much more than its limit', async () => {
    const directory = path.join(folder, 'large');
    const store = new FolderStateStore(directory);
    const value = (index: number): string => `${index}:`.padEnd(Math.floor(BUNDLE_MAX_CHARS / 3), 'v');
    const writes = Array.from({ length: 10 }, (_, index) => ({ key: `k${index}`, value: value(index), ifAbsent: true, group: 'g' }));
    await store.setMany(writes);
    const files = filesOf(directory);
    assert.equal(files.size, 4, 'ten values of a third of the limit: three a bundle, and one');
    for (const names of files.values()) assert.ok(fs.statSync(path.join(directory, names[0]!)).size <= BUNDLE_MAX_CHARS + 1_000);
    assert.deepEqual(await store.getMany(writes.map((write) => write.key)), writes.map((write) => write.value));
  });

  it('reads back a value that starts as a bundle does, and reads nothing from a bundle cut short', async () => {
    const directory = path.join(folder, 'marks');
    const store = new FolderStateStore(directory);
    const tricky = `${BUNDLE_MARK}{"keys":[["other",0]],"values":["not this"]}`;
    const escaped = `${ESCAPE_MARK}as written`;
    await store.setMany([{ key: 'plain', value: tricky }, { key: 'nul', value: '\u0000x', ifAbsent: true }, { key: 'nul twin', value: '\u0000x', ifAbsent: true }, { key: 'escaped', value: escaped }]);
    assert.deepEqual(await store.getMany(['plain', 'nul', 'nul twin', 'escaped']), [tricky, '\u0000x', '\u0000x', escaped]);
    await store.setMany([{ key: 'c1', value: 'one', ifAbsent: true, group: 'g' }, { key: 'c2', value: 'two', ifAbsent: true, group: 'g' }]);
    const bundleFile = path.join(directory, [...filesOf(directory).values()].find((names) => decodeBundle(fs.readFileSync(path.join(directory, names[0]!), 'utf8'))?.has('c1'))![0]!);
    fs.truncateSync(bundleFile, fs.statSync(bundleFile).size - 5);
    assert.deepEqual(await store.getMany(['c1', 'c2']), [undefined, undefined], 'a bundle that does not parse gives no value, not its raw text');
  });

  it('a memo flushing two runs of two scopes at once (as interleaved runs on one event loop do) keeps each scope in its own file', async () => {
    const directory = path.join(folder, 'scopes');
    const memo = new MessageMemo(undefined, new FolderStateStore(directory));
    const message = (text: string) => parseRequest({ model: 'm', messages: [{ role: 'user', content: text }] }).messages[0]!;
    memo.decidingFor('tenant-a', () => {
      memo.decide('a1', message('alpha one'), undefined);
      memo.decide('a2', message('alpha two'), undefined);
    });
    memo.decidingFor('tenant-b', () => {
      memo.decide('b1', message('beta one'), undefined);
      memo.decide('b2', message('beta two'), undefined);
    });
    await memo.flush();
    const files = [...filesOf(directory).values()];
    assert.equal(files.length, 2, 'one bundle a scope');
    for (const names of files) {
      const keys = [...decodeBundle(fs.readFileSync(path.join(directory, names[0]!), 'utf8'))!.keys()];
      assert.equal(new Set(keys.map((key) => key.slice('memo:'.length, 'memo:'.length + 1))).size, 1, `one scope a file: ${keys.join(', ')}`);
    }
    const reader = new MessageMemo(undefined, new FolderStateStore(directory));
    await reader.prefetch(['a1', 'a2', 'b1', 'b2']);
    assert.deepEqual(['a1', 'a2', 'b1', 'b2'].map((key) => reader.has(key)), [true, true, true, true]);
  });

  it('keeps a cold decision of a conversation in a few files, and a second process replays it byte for byte', async () => {
    const directory = path.join(folder, 'memo');
    const messages: unknown[] = [{ role: 'user', content: 'Fix the failing test in src/app.py.' }];
    for (let turn = 0; turn < 40; turn++) {
      messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `t${turn}`, name: 'Bash', input: { command: `pytest tests/test_${turn}.py` } }] });
      messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${turn}`, content: Array.from({ length: 30 }, (_, line) => `tests/test_${turn}.py::case_${line} PASSED`).join('\n') }] });
    }
    const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages };
    const pipelineOn = (store: FolderStateStore): Pipeline => new Pipeline(createStrategies(), {}, { stash: new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) }), memo: new MessageMemo(undefined, store), state: new SessionStateStore(undefined, store) });
    const first = await pipelineOn(new FolderStateStore(directory)).run(parseRequest(body));
    const entries = fs.readdirSync(directory).filter((name) => name.endsWith('.json')).length;
    assert.ok(entries >= 80, `every decided message under its keys (${entries})`);
    assert.ok(filesOf(directory).size <= 4, `in a few files: ${filesOf(directory).size} for ${entries} names`);
    const second = await pipelineOn(new FolderStateStore(directory)).run(parseRequest(structuredClone(body)));
    assert.equal(second.replayedMessages, messages.length - 1, 'the other process replays the whole history from the store');
    assert.equal(JSON.stringify(serializeRequest(second.request)), JSON.stringify(serializeRequest(first.request)), 'the same bytes go to the provider');
  });
});
