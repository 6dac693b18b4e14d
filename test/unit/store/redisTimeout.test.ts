/**
 * The Redis store's command timeout counts time Redis had to answer, not time the event loop
 * was busy: an answer that arrived while a long synchronous run held the loop is read before the
 * timeout is allowed to fail the command ("Command timed out" under load sent requests out
 * unoptimized). A command Redis really does not answer still fails within the timeout.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as net from 'node:net';
import { spawn } from 'node:child_process';
import { answerWithin, RedisStateStore } from '../../../src/core/store/redisStateStore';
import { missingTeamTools, startRedis, stopProcess, temporaryFolder } from '../../support/teamCluster';

/** Holds the thread, as a long synchronous optimization does. */
function busy(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // spin
  }
}

/** A loopback echo server in another process (it must answer while this thread is held) and one connected socket. */
async function echo(): Promise<{ socket: net.Socket; close: () => void }> {
  const server = spawn(process.execPath, ['-e', "const s=require('net').createServer((p)=>p.pipe(p)).listen(0,'127.0.0.1',()=>console.log(s.address().port))"], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<number>((resolve, reject) => {
    server.stdout.once('data', (data: Buffer) => resolve(Number(data.toString().trim())));
    server.once('error', reject);
  });
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  return { socket, close: () => (socket.destroy(), server.kill()) };
}

describe('redis store: the command timeout', function () {
  this.timeout(20_000);

  it('lets an answer that arrived while the loop was busy win over a timer that came due meanwhile', async () => {
    const { socket, close } = await echo();
    try {
      const reply = new Promise<string>((resolve) => socket.once('data', (data) => resolve(data.toString())));
      socket.write('pong');
      const answered = answerWithin(reply, 50, 'PING');
      // The echo comes back within a millisecond; the thread is held far past the timeout.
      busy(300);
      assert.equal(await answered, 'pong');

      // A plain timer race, which is what a command timeout is by default, loses the same answer.
      const again = new Promise<string>((resolve) => socket.once('data', (data) => resolve(data.toString())));
      socket.write('pong');
      const raced = Promise.race([again, new Promise<string>((_resolve, reject) => setTimeout(() => reject(new Error('timed out')), 50))]);
      busy(300);
      await assert.rejects(raced, /timed out/, 'the ordering this guards against is real');
    } finally {
      close();
    }
  });

  it('fails a command that gets no answer, within the timeout', async () => {
    const started = Date.now();
    await assert.rejects(answerWithin(new Promise<never>(() => undefined), 80, 'GETEX of 1 keys'), /Herald: Redis did not answer GETEX of 1 keys within 80 ms/);
    assert.ok(Date.now() - started < 1000);
  });

  it('on a real Redis: a read whose answer waited behind a busy loop succeeds; a paused Redis fails the read in time', async function () {
    if (missingTeamTools()) this.skip();
    const dir = temporaryFolder('redis-timeout');
    let redis: Awaited<ReturnType<typeof startRedis>> | undefined;
    try {
      redis = await startRedis(dir);
      const store = new RedisStateStore({ url: `redis://127.0.0.1:${redis.port}/6`, prefix: 'timeout:', commandTimeoutMs: 100 });
      const admin = new RedisStateStore({ url: `redis://127.0.0.1:${redis.port}/6`, prefix: 'timeout:' });
      await Promise.all([store.ready(), admin.ready()]);
      await store.setMany([{ key: 'k', value: 'v' }]);
      const read = store.getMany(['k']);
      busy(400);
      assert.deepEqual(await read, ['v']);

      // CLIENT PAUSE holds every client's commands: this one is not answered in time.
      await (admin as unknown as { client: { call: (...args: string[]) => Promise<unknown> } }).client.call('CLIENT', 'PAUSE', '600', 'ALL');
      const started = Date.now();
      await assert.rejects(store.getMany(['k']), /did not answer/);
      assert.ok(Date.now() - started < 500, 'the timeout holds while Redis does not answer');
      await store.close();
      await admin.close();
    } finally {
      await stopProcess(redis?.started);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
