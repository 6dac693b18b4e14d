/**
 * The state store port and its engines: the first write of a content-addressed entry stands,
 * entries expire, the budget evicts the least recently used, and the memo and pins read
 * through a shared store give a second process (a worker, a replica) what the first decided.
 * Redis is tested when redis-server is installed (CI installs it).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MessageMemo, Pipeline, SessionStateStore } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { FolderStateStore } from '../../../src/core/store/folderStateStore';
import { RedisStateStore } from '../../../src/core/store/redisStateStore';
import { MemoryStateStore, type StateStore } from '../../../src/core/store/stateStore';
import { missingTeamTools, startRedis, stopProcess, temporaryFolder, type Started } from '../../support/teamCluster';
import { loadTrajectory, turnRequests, describeWithData } from '../../support/sharedData';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import type { ChatMessage } from '../../../src/core/chat/types';

async function contract(store: StateStore): Promise<void> {
  assert.deepEqual(await store.setMany([{ key: 'a', value: 'first', ifAbsent: true }, { key: 'b', value: 'one' }]), [true, true]);
  assert.deepEqual(await store.setMany([{ key: 'a', value: 'second', ifAbsent: true }, { key: 'b', value: 'two' }]), [false, true]);
  assert.deepEqual(await store.getMany(['a', 'b', 'missing']), ['first', 'two', undefined], 'the first content-addressed write stands; the last pin write wins');
  await store.deleteMany(['a']);
  assert.deepEqual(await store.getMany(['a']), [undefined]);
  await store.ping();
}

describe('state store: engines', function () {
  this.timeout(30_000);
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-store-'));
  after(() => fs.rmSync(folder, { recursive: true, force: true }));

  it('memory: the contract, expiry, and the byte budget (least recently used out)', async () => {
    await contract(new MemoryStateStore());
    let now = 0;
    const store = new MemoryStateStore({ ttlMs: 100, maxBytes: 40 }, () => now);
    await store.setMany([{ key: 'old', value: '12345' }, { key: 'new', value: '12345' }]);
    await store.getMany(['old']);
    await store.setMany([{ key: 'third', value: '12345' }]);
    assert.deepEqual(await store.getMany(['old', 'new', 'third']), ['12345', undefined, '12345'], 'the least recently used went');
    now = 1000;
    assert.deepEqual(await store.getMany(['old']), [undefined], 'expired');
  });

  it('folder: the contract, files the user\'s alone, abandoned temporary files swept, expiry and budget by sweep', async () => {
    const directory = path.join(folder, 'state');
    await contract(new FolderStateStore(directory));
    assert.deepEqual(fs.readdirSync(directory).filter((name) => !name.endsWith('.json')), [], 'every write, replaced, linked or refused, leaves no temporary file');
    assert.equal(fs.statSync(directory).mode & 0o777, 0o700);
    for (const name of fs.readdirSync(directory)) assert.equal(fs.statSync(path.join(directory, name)).mode & 0o777, 0o600);
    const stale = path.join(directory, 'x.json.123.abc.tmp');
    fs.writeFileSync(stale, '');
    const old = new Date(Date.now() - 3600_000);
    fs.utimesSync(stale, old, old);
    let now = Date.now();
    const store = new FolderStateStore(directory, { ttlMs: 60_000, maxBytes: 20 }, () => now);
    await store.setMany([{ key: 'c', value: '0123456789' }, { key: 'd', value: '0123456789' }, { key: 'e', value: '0123456789' }]);
    await store.sweep();
    assert.ok(!fs.existsSync(stale), 'a temporary file a killed process left is gone');
    assert.equal((await store.getMany(['c', 'd', 'e'])).filter((value) => value !== undefined).length, 2, 'past the budget the least recently used went');
    now += 120_000;
    assert.deepEqual(await store.getMany(['d']), [undefined], 'expired');
  });

  it('folder: first-write-wins entries of the same text in one batch are one file under two names; an expired one is replaced', async () => {
    const directory = path.join(folder, 'twins');
    let now = Date.now();
    const store = new FolderStateStore(directory, { ttlMs: 60_000, maxBytes: 1 << 20 }, () => now);
    const file = (text: string): string => path.join(directory, fs.readdirSync(directory).find((name) => fs.readFileSync(path.join(directory, name), 'utf8') === text) ?? '');
    // The memo's way: one decision under its chain key and under the message's own key.
    assert.deepEqual(await store.setMany([{ key: 'chain', value: 'decided', ifAbsent: true }, { key: 'own', value: 'decided', ifAbsent: true }, { key: 'other', value: 'else', ifAbsent: true }]), [true, true, true]);
    assert.deepEqual(await store.getMany(['chain', 'own', 'other']), ['decided', 'decided', 'else']);
    const names = fs.readdirSync(directory);
    assert.equal(names.length, 3, 'three entries and no temporary file');
    const inodes = new Set(names.map((name) => fs.statSync(path.join(directory, name)).ino));
    assert.equal(inodes.size, 2, 'the two entries of one text are one file');
    assert.equal(fs.statSync(file('decided')).nlink, 2);
    // A later batch: the first write still stands for each name.
    assert.deepEqual(await store.setMany([{ key: 'chain', value: 'again', ifAbsent: true }, { key: 'own', value: 'again', ifAbsent: true }]), [false, false]);
    assert.deepEqual(await store.getMany(['chain', 'own']), ['decided', 'decided']);
    // Expired: the first of the pair is replaced by the batch's file, the second gets a file of its own.
    now += 120_000;
    assert.deepEqual(await store.setMany([{ key: 'chain', value: 'fresh', ifAbsent: true }, { key: 'own', value: 'fresh', ifAbsent: true }]), [true, true]);
    assert.deepEqual(await new FolderStateStore(directory).getMany(['chain', 'own']), ['fresh', 'fresh'], 'read on the real clock: the files were written just now');
    assert.ok(fs.readdirSync(directory).every((name) => name.endsWith('.json')), 'no temporary file is left');
  });

  it('folder: the size budget counts the bytes of entries linked from one file once', async () => {
    const directory = path.join(folder, 'twin-budget');
    const store = new FolderStateStore(directory, { ttlMs: 60_000, maxBytes: 3_000 });
    const text = 'z'.repeat(2_000);
    await store.setMany([{ key: 'chain', value: text, ifAbsent: true }, { key: 'own', value: text, ifAbsent: true }]);
    await store.sweep();
    assert.deepEqual(await store.getMany(['chain', 'own']), [text, text], '2,000 bytes on disk fit a 3,000-byte budget');
    await store.setMany([{ key: 'later', value: 'y'.repeat(2_000) }]);
    const touched = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(directory, fs.readdirSync(directory).find((name) => fs.readFileSync(path.join(directory, name), 'utf8').startsWith('y'))!), touched, touched);
    await store.sweep();
    assert.deepEqual(await store.getMany(['chain', 'own', 'later']), [undefined, undefined, 'y'.repeat(2_000)], 'past the budget both names of the older file go, and only then are its bytes free');
  });

  it('redis: the contract, a key every replica shares, and fast failure while Redis is away', async function () {
    if (missingTeamTools()) this.skip();
    const dir = temporaryFolder('redis-store');
    let redis: { started: Started; port: number } | undefined;
    try {
      redis = await startRedis(dir);
      const store = new RedisStateStore({ url: `redis://127.0.0.1:${redis.port}/5`, prefix: 'test:' });
      const other = new RedisStateStore({ url: `redis://127.0.0.1:${redis.port}/5`, prefix: 'test:' });
      await Promise.all([store.ready(), other.ready()]);
      await contract(store);
      assert.deepEqual(await store.sharedKey(), await other.sharedKey());
      assert.match(store.description, /^redis 127\.0\.0\.1:\d+\/5$/);
      await stopProcess(redis.started);
      const started = Date.now();
      await assert.rejects(store.getMany(['b']));
      assert.ok(Date.now() - started < 1500, 'a command fails fast instead of waiting for Redis');
      await store.close();
      await other.close();
    } finally {
      await stopProcess(redis?.started);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('state store: the memo under messages\' own keys', function () {
  it('a decided and an arrival form written under a message\'s own key by one process are found by another after prefetchOwn', async () => {
    const store = new MemoryStateStore();
    const message: ChatMessage = { role: 'user', parts: [{ type: 'text', text: 'decided form' }], contentShape: 'parts' };
    const fresh: ChatMessage = { role: 'user', parts: [{ type: 'text', text: 'arrival form' }], contentShape: 'parts' };
    const writer = new MessageMemo(undefined, store);
    writer.decide('chain-a', message, undefined, { observation_mask: 12 }, [], 'own-decided');
    writer.setArrival('chain-b', fresh, undefined, undefined, [], 'own-arrival');
    await writer.flush();
    // Another replica: the chains differ (an earlier message changed on resume), the messages do not.
    const reader = new MessageMemo(undefined, store);
    assert.equal(reader.decidedOwn('own-decided', undefined), undefined, 'nothing before the prefetch');
    await reader.prefetchOwn(['own-decided', 'own-arrival']);
    assert.deepEqual(reader.decidedOwn('own-decided', undefined)?.message, message);
    assert.deepEqual(reader.decidedOwn('own-decided', undefined)?.savings, { observation_mask: 12 });
    assert.deepEqual(reader.arrival('chain-other', undefined, 'own-arrival')?.message, fresh);
    assert.equal(reader.arrival('chain-other', undefined, 'own-missing'), undefined);
  });
});

describeWithData('state store: the memo and pins shared by two processes', function () {
  this.timeout(120_000);

  it('a trajectory turn by turn, each turn in a new "process" on a folder store: the same requests as one process keeps in memory', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-shared-'));
    try {
      const key = new Uint8Array(32).fill(3);
      const blobs = new MemoryBlobStore();
      const turns = turnRequests(loadTrajectory('astropy__astropy-12907')).slice(0, 20).map((body) => parseRequest(body, 'openai'));
      const oneStash = new Stash({ store: new MemoryBlobStore(), key });
      const one = new Pipeline(createStrategies(), {}, { stash: oneStash });
      const store = new FolderStateStore(path.join(folder, 'state'));
      for (const [index, request] of turns.entries()) {
        const expected = await one.run(request);
        // A process that has seen nothing: its memo, pins and stash cache are empty; the folder and the blobs are shared.
        const fresh = new Pipeline(createStrategies(), {}, { stash: new Stash({ store: blobs, key }), memo: new MessageMemo(undefined, store), state: new SessionStateStore(undefined, store) });
        const got = await fresh.run(request);
        // As the provider gets them (an entry read back from JSON has no undefined fields).
        assert.equal(JSON.stringify(serializeRequest(got.request)), JSON.stringify(serializeRequest(expected.request)), `turn ${index}`);
        assert.equal(got.replayedMessages, expected.replayedMessages, `turn ${index}: history replayed from the store`);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
