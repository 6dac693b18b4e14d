/**
 * Starting and stopping `herald serve` safely: a stash folder tightened to its owner and rid of
 * a killed writer's temporary files on start; on SIGTERM, no new requests while the streams in
 * flight finish (up to the drain limit), then the process exits.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { tidyStashFolder } from '../../../src/cli/stashHygiene';
import type { CliIo } from '../../../src/cli/io';
import { serveCommand } from '../../../src/cli/serveCommand';
import { FakeUpstream } from './fakeUpstream';
import { anthropicConversation, startHarness, type Harness } from './harness';
import { anthropicEvents } from './providerAnswers';

const SLOW_STREAM = { kind: 'stream' as const, events: anthropicEvents({ blocks: [{ type: 'text', text: 'a slow answer, piece by piece, to the end' }] }), delayMs: 40 };

async function until(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > limitMs) throw new Error('Herald test: waited too long');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe('gateway: start and stop', function () {
  this.timeout(60_000);
  let harness: Harness | undefined;
  let folder: string;
  let signalListeners = 0;
  beforeEach(() => {
    signalListeners = process.listenerCount('SIGINT') + process.listenerCount('SIGTERM');
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-lifecycle-'));
  });
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  it('tightens a stash folder to its owner and removes the temporary files of writers that are gone', () => {
    const entries = path.join(folder, 'stash', 'entries');
    fs.mkdirSync(entries, { recursive: true });
    fs.chmodSync(path.join(folder, 'stash'), 0o777);
    fs.chmodSync(entries, 0o755);
    fs.writeFileSync(path.join(entries, 'hr_aaaaaaaaaaaaaaaa.json'), '{}', { mode: 0o644 });
    const gone = spawnSyncPid();
    fs.writeFileSync(path.join(entries, `hr_bbbbbbbbbbbbbbbb.json.${gone}.k3j2.tmp`), '');
    fs.writeFileSync(path.join(folder, 'stash', `memo.json.${gone}.tmp`), '');
    fs.writeFileSync(path.join(entries, `hr_cccccccccccccccc.json.${process.ppid}.k3j2.tmp`), '', { mode: 0o600 });
    const tidied = tidyStashFolder(path.join(folder, 'stash'));
    assert.equal(tidied.removed, 2);
    assert.deepEqual(fs.readdirSync(entries).sort(), ['hr_aaaaaaaaaaaaaaaa.json', `hr_cccccccccccccccc.json.${process.ppid}.k3j2.tmp`], 'a running writer\'s file stays');
    assert.equal(fs.statSync(path.join(folder, 'stash')).mode & 0o777, 0o700);
    assert.equal(fs.statSync(entries).mode & 0o777, 0o700);
    assert.equal(fs.statSync(path.join(entries, 'hr_aaaaaaaaaaaaaaaa.json')).mode & 0o777, 0o600);
    assert.deepEqual(tidyStashFolder(path.join(folder, 'missing')), { removed: 0, tightened: 0 });
  });

  it('herald serve tidies its stash folder on start, and says so', async () => {
    const stash = path.join(folder, 'stash');
    fs.mkdirSync(path.join(stash, 'entries'), { recursive: true });
    fs.chmodSync(stash, 0o777);
    fs.writeFileSync(path.join(stash, 'entries', `hr_aaaaaaaaaaaaaaaa.json.${spawnSyncPid()}.x.tmp`), '');
    harness = await startHarness(SLOW_STREAM, ['--stash', stash]);
    assert.equal(fs.statSync(stash).mode & 0o777, 0o700);
    assert.deepEqual(fs.readdirSync(path.join(stash, 'entries')), []);
    assert.match(harness.output(), /stash-folder-tidied/);
  });

  it('lets the streams in flight finish when stopped with a grace period, and takes no new request', async () => {
    harness = await startHarness(SLOW_STREAM);
    const streaming = fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify({ ...anthropicConversation(), stream: true }) }).then((response) => response.text());
    await until(() => harness!.upstream.received.length === 1);
    const stopping = harness.serve.stop(10_000);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await assert.rejects(fetch(`${harness.base}/herald/health`), 'no new connection is taken');
    const text = await streaming;
    assert.match(text, /event: message_stop/, 'the stream in flight finished');
    await stopping;
  });

  it('cuts what is left when the grace period is over', async () => {
    harness = await startHarness({ ...SLOW_STREAM, hang: true });
    const streaming = fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify({ ...anthropicConversation(), stream: true }) }).then((response) => response.text()).then(() => 'ended', () => 'cut');
    await until(() => harness!.upstream.received.length === 1);
    const started = Date.now();
    await harness.serve.stop(300);
    assert.ok(Date.now() - started < 5000);
    assert.equal(await streaming, 'cut');
  });

  it('on SIGTERM, herald serve finishes the stream in flight, then returns 0', async () => {
    const upstream = new FakeUpstream(SLOW_STREAM);
    const url = await upstream.start();
    let output = '';
    const io: CliIo = { readStdin: async () => '', stdout: (text) => (output += text), stderr: (text) => (output += text) };
    // The pipeline in the process (optimizer workers started from source take seconds each; the pool has its own tests).
    const serving = serveCommand(['--port', '0', '--anthropic-base-url', url, '--stash', path.join(folder, 'stash'), '--quiet', '--workers', '0'], io);
    try {
      await until(() => /127\.0\.0\.1:\d+/.test(output));
      const port = /127\.0\.0\.1:(\d+)/.exec(output)![1];
      const streaming = fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify({ ...anthropicConversation(), stream: true }) }).then((response) => response.text());
      await until(() => upstream.received.length === 1);
      // The signal as the process gets it (its listeners run; nothing is sent to the test runner itself).
      process.emit('SIGTERM');
      assert.match(await streaming, /event: message_stop/);
      assert.equal(await serving, 0);
      assert.match(output, /requests in flight have up to 30 s to finish/);
      assert.equal(process.listenerCount('SIGINT') + process.listenerCount('SIGTERM'), signalListeners, 'no listener left behind');
    } finally {
      await upstream.close();
    }
  });
});

/** The id of a process that has exited (so nothing of that id runs now, barring reuse). */
function spawnSyncPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}
