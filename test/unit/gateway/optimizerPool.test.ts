/**
 * The gateway's optimizer pool and what stands in front of it: a task past its deadline is
 * abandoned (its worker ended and replaced) and the request goes out as it came, with a record
 * saying so; waiting tasks go smallest first; the admission refuses in each API's own error
 * shape with retry-after; /metrics and /herald/health report what happened.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServe } from '../../../src/cli/serveCommand';
import type { CliIo } from '../../../src/cli/io';
import { silentLogger } from '../../../src/core/ports';
import { Admission } from '../../../src/gateway/admission';
import { DeadlinePassed, defaultYoungGenerationMb, OptimizerPool, PoolUnavailable } from '../../../src/gateway/optimizerPool';
import { tenantOfUser, type Tenant } from '../../../src/gateway/tenants';
import { addUser } from '../../../src/gateway/users';
import { findMarkers } from '../../../src/core/stash/marker';
import { records, startHarness, type Harness } from './harness';
import { anthropicEvents } from './providerAnswers';

const BUSY_WORKER = path.join(__dirname, 'fixtures', 'busyWorker.ts');

function busyPool(size: number): OptimizerPool {
  return new OptimizerPool({ size, workerFile: BUSY_WORKER, logger: silentLogger, setup: { store: { kind: 'folder', directory: '/nonexistent' }, key: new Uint8Array(32), config: {} } });
}

function task(name: string, busyMs: number, padding = 0, writes: { writeMs?: number; writeError?: string } = {}): { type: 'optimize'; body: Uint8Array; format: 'anthropic'; tenant: Tenant } {
  return { type: 'optimize', body: Buffer.from(JSON.stringify({ busyMs, name, padding: 'x'.repeat(padding), ...writes })), format: 'anthropic', tenant: { id: 't', anonymous: false } };
}

/** What the stand-in worker answers: the task's name, its thread, when it started, and when its writes end (epoch ms). */
interface Ran {
  readonly name: string;
  readonly threadId: number;
  readonly startedAt: number;
  readonly writesUntil?: number;
}

describe('gateway: the optimizer pool', function () {
  this.timeout(60_000);

  it('abandons a task past its deadline, ends its worker, and the replacement takes the next task', async () => {
    const pool = busyPool(1);
    try {
      await pool.ready();
      const started = Date.now();
      // A minute of synchronous work: only ending the thread stops it.
      await assert.rejects(pool.run(task('stuck', 60_000), { bytes: 10, deadlineMs: 300 }), (error: unknown) => error instanceof DeadlinePassed && /300 ms deadline/.test(String(error)));
      assert.ok(Date.now() - started < 30_000, 'the caller heard at the deadline, not when the work would have ended');
      const next = (await pool.run(task('next', 1), { bytes: 10, deadlineMs: 20_000 })) as { name: string };
      assert.equal(next.name, 'next');
      const stats = pool.stats();
      assert.equal(stats.abandoned, 1);
      assert.equal(stats.replaced, 1);
    } finally {
      await pool.close();
    }
  });

  it('a task that ends soon after its deadline: the caller heard at the deadline, and the worker is kept (no replacement to start)', async () => {
    const pool = busyPool(1);
    try {
      await pool.ready();
      const first = (await pool.run(task('first', 1), { bytes: 10, deadlineMs: 20_000 })) as { threadId: number };
      const started = Date.now();
      await assert.rejects(pool.run(task('late', 1500), { bytes: 10, deadlineMs: 1000 }), (error: unknown) => error instanceof DeadlinePassed);
      assert.ok(Date.now() - started < 1450, 'the caller heard at the deadline, not when the work ended');
      const next = (await pool.run(task('next', 1), { bytes: 10, deadlineMs: 20_000 })) as { name: string; threadId: number };
      assert.equal(next.name, 'next');
      assert.equal(next.threadId, first.threadId, 'the same worker took the next task');
      const stats = pool.stats();
      assert.equal(stats.abandoned, 1);
      assert.equal(stats.replaced, 0);
    } finally {
      await pool.close();
    }
  });

  it('a small request does not wait behind large ones: waiting tasks go smallest first', async () => {
    const pool = busyPool(1);
    try {
      await pool.ready();
      const order: string[] = [];
      const note = (promise: Promise<unknown>) => promise.then((value) => order.push((value as { name: string }).name));
      const running = note(pool.run(task('large-running', 400, 5_000_000), { bytes: 5_000_000, deadlineMs: 20_000 }));
      const large = note(pool.run(task('large-waiting', 50, 5_000_000), { bytes: 5_000_000, deadlineMs: 20_000 }));
      const small = note(pool.run(task('small', 1), { bytes: 2_000, deadlineMs: 20_000 }));
      await Promise.all([running, large, small]);
      assert.deepEqual(order, ['large-running', 'small', 'large-waiting']);
    } finally {
      await pool.close();
    }
  });

  it('a task marked first (storing an answer, loading tools inside a turn) goes ahead of the optimizations waiting, in arrival order', async () => {
    const pool = busyPool(1);
    try {
      await pool.ready();
      const order: string[] = [];
      const note = (promise: Promise<unknown>) => promise.then((value) => order.push((value as { name: string }).name));
      const running = note(pool.run(task('running', 300), { bytes: 10, deadlineMs: 20_000 }));
      const small = note(pool.run(task('small-optimize', 1), { bytes: 10, deadlineMs: 20_000 }));
      const stored = note(pool.run(task('store-answer', 1, 50_000), { bytes: 50_000, deadlineMs: 20_000, first: true }));
      const loaded = note(pool.run(task('load-tools', 1), { bytes: 0, deadlineMs: 20_000, first: true }));
      const smaller = note(pool.run(task('smaller-optimize', 1), { bytes: 5, deadlineMs: 20_000 }));
      await Promise.all([running, small, stored, loaded, smaller]);
      assert.deepEqual(order, ['running', 'store-answer', 'load-tools', 'smaller-optimize', 'small-optimize']);
    } finally {
      await pool.close();
    }
  });

  it('a worker answers before it writes: the caller has the value at once, and the worker takes no task until its writes are done', async () => {
    const pool = busyPool(1);
    try {
      await pool.ready();
      const started = Date.now();
      const first = (await pool.run(task('first', 20, 0, { writeMs: 600 }), { bytes: 10, deadlineMs: 20_000 })) as Ran;
      assert.ok(Date.now() - started < 500, `the caller did not wait for the writes (${Date.now() - started} ms)`);
      assert.equal(pool.stats().busy, 1, 'the worker counts as busy while it writes');
      const next = (await pool.run(task('next', 1), { bytes: 10, deadlineMs: 20_000 })) as Ran;
      assert.ok(next.startedAt >= first.writesUntil!, 'the next task started once the writes were done');
      assert.equal(pool.stats().busy, 0);
    } finally {
      await pool.close();
    }
  });

  it('one session\'s tasks run one at a time in the order they came, each after the writes before it; other sessions go past', async () => {
    const pool = busyPool(2);
    try {
      await pool.ready();
      const done: string[] = [];
      const note = (promise: Promise<unknown>) => promise.then((value) => (done.push((value as Ran).name), value as Ran));
      const turn = note(pool.run(task('s1-turn', 1, 0, { writeMs: 500 }), { bytes: 10, deadlineMs: 20_000, key: 's1' }));
      // Answered, and writing.
      await turn;
      // The session's next task is larger, the one after it smaller: still in the order they came.
      const next = note(pool.run(task('s1-next', 1, 5_000), { bytes: 5_000, deadlineMs: 20_000, key: 's1' }));
      const after = note(pool.run(task('s1-after', 1), { bytes: 10, deadlineMs: 20_000, key: 's1' }));
      const other = note(pool.run(task('s2', 1, 5_000), { bytes: 5_000, deadlineMs: 20_000, key: 's2' }));
      const [ranTurn, ranNext, ranAfter, ranOther] = await Promise.all([turn, next, after, other]);
      assert.deepEqual(done, ['s1-turn', 's2', 's1-next', 's1-after']);
      assert.ok(ranNext!.startedAt >= ranTurn!.writesUntil!, 'the session\'s next task waited for the writes the turn left');
      assert.ok(ranOther!.startedAt < ranTurn!.writesUntil!, 'another session\'s task did not wait for them');
      assert.ok(ranAfter!.startedAt >= ranNext!.startedAt);
    } finally {
      await pool.close();
    }
  });

  it('a task abandoned at its deadline that answers late: its session\'s next task waits for the writes it left, other sessions do not', async () => {
    const pool = busyPool(2);
    try {
      await pool.ready();
      const started = Date.now();
      // Runs 1.5 s against a 1 s deadline, then writes for 2 s: its writes end 3.5 s after the start or later.
      await assert.rejects(pool.run(task('s1-late', 1_500, 0, { writeMs: 2_000 }), { bytes: 10, deadlineMs: 1_000, key: 's1' }), (error: unknown) => error instanceof DeadlinePassed);
      // Past the late answer (1.5 s), well inside its writes.
      await new Promise((resolve) => setTimeout(resolve, started + 2_500 - Date.now()));
      const [next, other] = (await Promise.all([
        pool.run(task('s1-next', 1), { bytes: 10, deadlineMs: 20_000, key: 's1' }),
        pool.run(task('s2', 1), { bytes: 10, deadlineMs: 20_000, key: 's2' }),
      ])) as [Ran, Ran];
      assert.ok(next.startedAt >= started + 3_500, `the session's next task started ${next.startedAt - started} ms in, before the late task's writes ended`);
      assert.ok(other.startedAt < started + 3_500, 'another session\'s task did not wait for them');
      assert.equal(pool.stats().replaced, 0, 'the worker that answered late was kept');
    } finally {
      await pool.close();
    }
  });

  it('a failed write is logged, and the worker and the session go on', async () => {
    const warnings: string[] = [];
    const pool = new OptimizerPool({ size: 1, workerFile: BUSY_WORKER, logger: { ...silentLogger, warn: (code, message) => warnings.push(`${code}: ${message}`) }, setup: { store: { kind: 'folder', directory: '/nonexistent' }, key: new Uint8Array(32), config: {} } });
    try {
      await pool.ready();
      await pool.run(task('turn', 1, 0, { writeMs: 1, writeError: 'Herald: ENOSPC: no space left on device' }), { bytes: 10, deadlineMs: 20_000, key: 's1' });
      const next = (await pool.run(task('next', 1), { bytes: 10, deadlineMs: 20_000, key: 's1' })) as Ran;
      assert.equal(next.name, 'next');
      assert.equal(warnings.length, 1);
      assert.match(warnings[0]!, /^store-write-failed: .*ENOSPC.*decides that history again/);
    } finally {
      await pool.close();
    }
  });

  it('closing with time to settle lets the writes already under way finish', async () => {
    const pool = busyPool(1);
    await pool.ready();
    const ran = (await pool.run(task('turn', 1, 0, { writeMs: 300 }), { bytes: 10, deadlineMs: 20_000 })) as Ran;
    await pool.close(5_000);
    assert.ok(Date.now() >= ran.writesUntil!, 'closed once the writes were done');
  });

  it('with two workers a small task finishes while a large one is still running', async () => {
    const pool = busyPool(2);
    try {
      await pool.ready();
      // The large one would run a minute; the small one finishes long before, on the other worker.
      let largeDone = false;
      const large = pool.run(task('large', 60_000), { bytes: 5_000_000, deadlineMs: 120_000 }).then(() => (largeDone = true), (error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const small = (await pool.run(task('small', 1), { bytes: 2_000, deadlineMs: 50_000 })) as { name: string };
      assert.equal(small.name, 'small');
      assert.equal(largeDone, false);
      assert.equal(pool.stats().busy, 1, 'the large one still runs');
      await pool.close();
      assert.ok((await large) instanceof PoolUnavailable, 'closing the pool ends the large one');
    } finally {
      await pool.close();
    }
  });

  it('gives each worker a 128 MB young generation by default, less where the workers\' together would pass an eighth of the memory', () => {
    const gb = 1024 ** 3;
    assert.equal(defaultYoungGenerationMb(2, 24 * gb), 128);
    assert.equal(defaultYoungGenerationMb(64, 64 * gb), 128);
    assert.equal(defaultYoungGenerationMb(8, 4 * gb), 64);
    assert.equal(defaultYoungGenerationMb(16, 4 * gb), 0, 'less than V8 gives a worker anyway: V8\'s own');
  });

  it('runs its workers with the young generation it is given, 0 leaving V8\'s own', async () => {
    const youngOf = async (youngGenerationMb?: number): Promise<[number, number | undefined]> => {
      const pool = new OptimizerPool({ size: 1, workerFile: BUSY_WORKER, logger: silentLogger, setup: { store: { kind: 'folder', directory: '/nonexistent' }, key: new Uint8Array(32), config: {} }, ...(youngGenerationMb !== undefined ? { youngGenerationMb } : {}) });
      try {
        await pool.ready();
        const answer = (await pool.run(task('limits', 1), { bytes: 10, deadlineMs: 20_000 })) as { youngMb: number };
        return [answer.youngMb, pool.stats().youngGenerationMb];
      } finally {
        await pool.close();
      }
    };
    const [own] = await youngOf(0);
    assert.ok(own > 0 && own !== 128, `V8's own young generation (${own} MB)`);
    const expected = defaultYoungGenerationMb(1, os.totalmem()) || own;
    assert.deepEqual(await youngOf(), [expected, expected], 'the default for this machine, as the worker thread reads it');
    assert.deepEqual(await youngOf(64), [64, 64]);
  });

  it('counts the workers whose own store connection is down, until they say it is back', async () => {
    const pool = new OptimizerPool({ size: 2, workerFile: path.join(__dirname, 'fixtures', 'storeWorker.ts'), logger: silentLogger, setup: { store: { kind: 'folder', directory: '/nonexistent' }, key: new Uint8Array(32), config: {} } });
    try {
      await pool.ready();
      assert.equal(pool.workersWithoutStore(), 2);
      await pool.run({ type: 'loadTools', sessionId: 's', names: ['reconnect'], tenant: { id: 't', anonymous: false } }, { bytes: 0, deadlineMs: 50_000 });
      assert.equal(pool.workersWithoutStore(), 1, 'the worker that ran the task is connected again, the other not yet');
    } finally {
      await pool.close();
    }
  });

  it('admission: 429 when the queue is full, 503 past the body-memory budget, a single request always in', () => {
    let queued = 0;
    const admission = new Admission({ maxBodyBytes: 1000, maxQueued: 2, pool: () => ({ workers: 1, busy: 1, queued, queuedBytes: 0, abandoned: 0, replaced: 0 }) });
    const first = admission.admit(5000);
    assert.equal(first.admitted, true, 'one request larger than the budget alone still comes in');
    const second = admission.admit(10);
    assert.ok(!second.admitted && second.status === 503 && second.retryAfterSeconds > 0);
    if (first.admitted) first.release();
    const third = admission.admit(10);
    assert.equal(third.admitted, true);
    queued = 2;
    const fourth = admission.admit(10);
    assert.ok(!fourth.admitted && fourth.status === 429 && fourth.reason === 'queue-full');
    assert.deepEqual(admission.stats().refused, { 'queue-full': 1, 'body-memory-full': 1 });
  });
});

describe('gateway: the pool behind herald serve', function () {
  this.timeout(120_000);
  let harness: Harness | undefined;

  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('past the deadline the original request goes out, the record says so, /metrics counts it', async () => {
    harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'ok' }] }) }, ['--workers', '1', '--deadline-ms', '1']);
    // Enough to optimize that no pipeline finishes inside the 1 ms deadline (a bare "hello" sometimes did).
    const log = Array.from({ length: 3000 }, (_, index) => `2026-03-01T10:${String(index % 60).padStart(2, '0')}:00Z worker-${index % 7} sync batch ${index} took ${index * 13 % 997} ms`).join('\n');
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: `Why is the sync slow?\n\n${log}` }] };
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-a' }, body: JSON.stringify(body) });
    assert.equal(response.status, 200);
    await response.text();
    assert.equal(harness.upstream.received[0]!.body, JSON.stringify(body), 'the client\'s own bytes went out');
    const record = records(harness).at(-1)!;
    assert.equal(record.status, 'forwarded-original');
    assert.match(String(record.error), /1 ms deadline; the request went out as it came/);
    const metrics = await (await fetch(`${harness.base}/metrics`)).text();
    assert.match(metrics, /herald_optimizations_abandoned 1/);
    assert.match(metrics, /herald_requests_total\{tenant="[0-9a-f]{24}",model="claude-sonnet-4-5",api="messages",status="forwarded-original",http_status="200"\} 1/);
    assert.match(metrics, /herald_workers 1/);
  });

  it('with two workers a session\'s next request, sent the moment an answer ends, reads what that turn left: the stored answer and the decided history', async () => {
    harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'The job runs out of memory.' }] }) }, ['--workers', '2', '--deadline-ms', '600000']);
    const log = (run: number) => Array.from({ length: 400 }, (_, line) => `2026-03-01T10:00:${String(line % 60).padStart(2, '0')}Z INFO worker-${line % 3} run ${run} handled job ${line}`).join('\n');
    const turn = (results: number) => {
      const messages: unknown[] = [{ role: 'user', content: 'why does the job fail?' }];
      for (let run = 0; run < results; run++) messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${run}`, name: 'Bash', input: { command: `cat run${run}.log` } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${run}`, content: log(run) }] });
      return { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages };
    };
    // The answer's text, as the client reads it from the stream.
    const send = async (body: unknown): Promise<string> => {
      const stream = await (await fetch(`${harness!.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-c' }, body: JSON.stringify(body) })).text();
      return [...stream.matchAll(/"text_delta","text":"([^"]*)"/g)].map((match) => match[1]).join('');
    };
    // Both workers have started a first task (each loads its strategies once).
    await Promise.all([send({ ...turn(1), messages: [{ role: 'user', content: 'warm one' }] }), send({ ...turn(1), messages: [{ role: 'user', content: 'warm two' }] })]);
    for (let round = 0; round < 3; round++) {
      const first = turn(2 + round * 2);
      await send(first);
      const calls: number = harness.upstream.received.length;
      // At once: its answer is stored after the client had it, and the retry waits for that.
      const retried = await send(first);
      assert.equal(records(harness).at(-1)!.status, 'served-from-cache', `round ${round}: from the cache`);
      assert.equal(retried, 'The job runs out of memory.');
      assert.equal(harness.upstream.received.length, calls, `round ${round}: the retry never reached the provider`);
      const next = await send(turn(3 + round * 2));
      const record: Record<string, unknown> = records(harness).at(-1)!;
      assert.equal(record.status, 'optimized');
      assert.ok(Number(record.replayedMessages) >= 3 + round * 4, `round ${round}: the history the turn before decided was replayed (${String(record.replayedMessages)})`);
      assert.equal(next, 'The job runs out of memory.');
    }
  });

  it('optimizes on the workers, counts tokens and billed usage per tenant and model, and health reports the store and the queue', async () => {
    // No deadline a loaded machine could reach: the worker's first task loads every strategy.
    harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'ok' }], usage: { input: 1200, output: 30, cacheRead: 800 } }) }, ['--workers', '1', '--deadline-ms', '600000']);
    const log = Array.from({ length: 400 }, (_, line) => `2026-03-01T10:00:${String(line % 60).padStart(2, '0')}Z INFO worker-${line % 3} handled job ${line}`).join('\n');
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'run it' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat app.log' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] }] };
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-b' }, body: JSON.stringify(body) });
    assert.equal(response.status, 200);
    await response.text();
    const record = records(harness).at(-1)!;
    assert.equal(record.status, 'optimized');
    assert.ok(Number(record.tokensAfter) < Number(record.tokensBefore), 'the worker optimized it');
    const metrics = await (await fetch(`${harness.base}/metrics`)).text();
    assert.match(metrics, new RegExp(`herald_tokens_before_total\\{tenant="[0-9a-f]{24}",model="claude-sonnet-4-5"\\} ${record.tokensBefore}`));
    assert.match(metrics, /herald_billed_tokens_total\{tenant="[0-9a-f]{24}",model="claude-sonnet-4-5",kind="cache_read"\} 800/);
    assert.match(metrics, /herald_billed_usd_total\{tenant="[0-9a-f]{24}",model="claude-sonnet-4-5"\} 0\.\d+/);
    assert.match(metrics, /herald_request_duration_seconds_bucket/);
    const health = (await (await fetch(`${harness.base}/herald/health`)).json()) as { ok: boolean; store: { up: boolean; kind: string }; queue: { workers: number; max: number } };
    assert.equal(health.ok, true);
    assert.deepEqual(health.store, { kind: 'folder', up: true });
    assert.equal(health.queue.workers, 1);
  });

  it('with a users file the tenant is the user: the workers stash under the user\'s namespace, metrics and decisions are per user, an admin sees all', async () => {
    const usersFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-pool-users-'));
    const file = path.join(usersFolder, 'users.json');
    const alice = addUser(file, 'alice', false);
    const admin = addUser(file, 'root', true);
    try {
      harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'ok' }] }) }, ['--workers', '1', '--deadline-ms', '600000', '--users', file]);
      const log = Array.from({ length: 400 }, (_, line) => `2026-03-01T10:00:${String(line % 60).padStart(2, '0')}Z INFO worker-${line % 3} handled job ${line}`).join('\n');
      const body = { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'run it' }, { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'cat app.log' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: log }] }] };
      const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-a', 'x-herald-token': alice }, body: JSON.stringify(body) });
      assert.equal(response.status, 200);
      await response.text();
      const sent = harness.upstream.received.at(-1)!.body;
      const handles = findMarkers(sent).map((marker) => marker.handle);
      assert.ok(handles.length > 0, 'the worker elided part of the log');
      const userTenant = tenantOfUser('alice', fs.readFileSync(path.join(harness.folder, 'stash', 'key')));
      const entries = fs.readdirSync(path.join(harness.folder, 'stash', 'entries'), { recursive: true }).map(String);
      for (const handle of handles) assert.ok(entries.some((entry) => entry.includes(`t-${userTenant.id}.${handle}`)), `${handle} under alice's namespace (${entries.slice(0, 3).join(', ')})`);
      const metrics = await (await fetch(`${harness.base}/metrics`, { headers: { 'x-herald-token': admin } })).text();
      assert.match(metrics, /herald_requests_total\{tenant="alice",model="claude-sonnet-4-5",api="messages",status="optimized",http_status="200"\} 1/);
      const seen = async (token: string): Promise<unknown[]> => ((await (await fetch(`${harness!.base}/herald/decisions`, { headers: { 'x-herald-token': token } })).json()) as { requests: unknown[] }).requests;
      assert.equal((await seen(alice)).length, 1);
      assert.equal((await seen(admin)).length, 1, 'the admin sees alice\'s request');
      const bob = addUser(file, 'bob', false);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      assert.equal((await seen(bob)).length, 0, 'another user sees none of it');
    } finally {
      fs.rmSync(usersFolder, { recursive: true, force: true });
    }
  });

  it('--worker-young-mb sets the workers\' young generation; a value that is not a count is refused, saying which flag', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-young-'));
    const io: CliIo = { readStdin: async () => '', stdout: () => undefined, stderr: () => undefined };
    try {
      const serve = await startServe(['--port', '0', '--quiet', '--workers', '1', '--worker-young-mb', '64', '--stash', path.join(folder, 'stash')], io);
      try {
        assert.equal(serve.pool?.stats().youngGenerationMb, 64);
      } finally {
        await serve.stop();
      }
      await assert.rejects(startServe(['--port', '0', '--quiet', '--workers', '1', '--worker-young-mb', 'lots', '--stash', path.join(folder, 'stash')], io), /--worker-young-mb/);
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('past the body-memory budget: 503 with retry-after in the API\'s own error shape, before the body is read', async () => {
    harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'ok' }] }), hang: true }, ['--workers', '0', '--max-body-memory-mb', '1']);
    const held = new AbortController();
    const first = fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-c' }, body: JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'a'.repeat(600_000) }] }), signal: held.signal }).catch(() => undefined);
    while (harness.upstream.received.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    for (const [route, shape] of [['/v1/messages', (body: Record<string, { type?: string }>) => body.type as unknown === 'error' && body.error?.type === 'overloaded_error'], ['/v1/chat/completions', (body: Record<string, { type?: string }>) => body.error?.type === 'server_error']] as const) {
      const response: Response = await fetch(`${harness.base}${route}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-d' }, body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'b'.repeat(600_000) }] }) });
      assert.equal(response.status, 503);
      assert.equal(response.headers.get('retry-after'), '2');
      assert.ok(shape((await response.json()) as Record<string, { type?: string }>), `${route}: the API's error shape`);
    }
    held.abort();
    await first;
  });
});
