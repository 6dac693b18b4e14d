/**
 * The README's team gateway, for real: redis-server, two `herald serve` replicas from the built
 * CLI on a Redis store, nginx in front (round robin), all on loopback; a fake provider records
 * what it receives. Real client sessions (a Claude Code transcript, a Codex-shaped session built
 * from a real trajectory) go through it turn by turn, so consecutive turns land on alternating
 * replicas. Checked: the provider receives the same bytes as from one replica alone, prefixes are
 * byte-stable, every handle answers on every replica, a replica killed between turns loses
 * nothing, and a Redis restart mid-session is failed open, reported, and recovered from.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as path from 'node:path';
import { Redis } from 'ioredis';
import { serializeRequest } from '../../../src/core/chat';
import { findMarkers } from '../../../src/core/stash/marker';
import { claudeCodeShortSessionFiles, loadClaudeCodeSession } from '../../support/clients';
import { codexRequests } from '../../support/codexSessions';
import { replyBlocks, stablePrefixes } from '../../support/gatewayReplay';
import { describeWithData, loadTrajectory } from '../../support/sharedData';
import { freePort, missingTeamTools, readmeTeamSetup, startNginx, startRedis, startReplica, stopProcess, temporaryFolder, type Started } from '../../support/teamCluster';
import { ensureBuilt } from '../dist/builtDist';
import { FakeUpstream, type Answer, type ReceivedRequest } from './fakeUpstream';
import { anthropicEvents, responsesEvents } from './providerAnswers';

const TOKEN = 'team-token-for-tests';
const KEY = Buffer.alloc(32, 11).toString('base64');
/**
 * Added to the README's lines: one worker a replica, and no time limit a loaded machine could
 * reach (a turn past the deadline goes out unoptimized on one replica and not on the other; the
 * deadline has its own tests in optimizerPool.test.ts).
 */
const REPLICA_EXTRAS = ['--workers', '1', '--deadline-ms', '600000', '--time-limit', '600000', '--quiet'];

interface Turn {
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** A Claude Code session's requests (Messages API) and the answers it recorded. */
function claudeCodeTurns(limit: number): { turns: Turn[]; answer: (request: ReceivedRequest, index: number) => Answer } {
  const file = claudeCodeShortSessionFiles().map((name) => loadClaudeCodeSession(name)).sort((a, b) => b.requests.length - a.requests.length)[0]!;
  const requests = file.requests.slice(0, limit);
  return {
    turns: requests.map(({ request }) => ({ path: '/v1/messages', body: serializeRequest(request) })),
    answer: (request) => {
      const index = requests.findIndex(({ request: sent }) => JSON.stringify(sent.messages.at(-1)).slice(0, 200) === JSON.stringify(((request.json?.messages ?? []) as unknown[]).at(-1) ?? null).slice(0, 200));
      return { kind: 'stream', events: anthropicEvents({ id: 'msg_team', blocks: replyBlocks(requests[Math.max(0, index)]?.reply) }) };
    },
  };
}

/** A Codex-shaped session (Responses API, stateless) from a real trajectory. */
function codexTurns(limit: number): Turn[] {
  return codexRequests(loadTrajectory('astropy__astropy-12907')).slice(0, limit).map((body) => ({ path: '/v1/responses', body }));
}

function codexAnswer(): Answer {
  return { kind: 'stream', events: responsesEvents({ id: 'resp_team', items: [{ type: 'message', id: 'msg_team', text: 'Done.' }] }) };
}

/**
 * One turn, as a client sends it: through the balancer with the name clients reach it by (the
 * README's --allowed-host) in `Host`, which nginx passes on; straight to a replica without.
 */
function send(base: string, turn: Turn, host?: string): Promise<{ status: number; text: string }> {
  const body = Buffer.from(JSON.stringify(turn.body));
  const url = new URL(`${base}/herald/${TOKEN}${turn.path}`);
  const headers = { 'content-type': 'application/json', 'content-length': String(body.length), 'x-api-key': 'sk-team-member', authorization: 'Bearer sk-team-member', 'anthropic-version': '2023-06-01', ...(host ? { host } : {}) };
  return new Promise((resolve, reject) => {
    const request = http.request(url, { method: 'POST', headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(body);
  });
}

async function health(port: number): Promise<Record<string, unknown>> {
  const response = await fetch(`http://127.0.0.1:${port}/herald/health`, { headers: { 'x-herald-token': TOKEN } });
  return (await response.json()) as Record<string, unknown>;
}

/** Where a handle's original is in Redis: under its tenant's namespace of the stash's keys. */
async function stashKeyOf(client: Redis, handle: string): Promise<string> {
  const keys = await client.keys(`herald:stash:t-*.${handle}`);
  assert.equal(keys.length, 1, `${handle} is stored once, under one tenant`);
  return keys[0]!;
}

function storeUp(report: Record<string, unknown>): boolean | undefined {
  return (report.store as { up?: boolean } | undefined)?.up;
}

async function decisions(port: number): Promise<Record<string, unknown>[]> {
  const response = await fetch(`http://127.0.0.1:${port}/herald/decisions`, { headers: { 'x-herald-token': TOKEN } });
  return ((await response.json()) as { requests: Record<string, unknown>[] }).requests;
}

async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > until) throw new Error(`Herald test: timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describeWithData('a team gateway: two replicas on Redis behind nginx, as the README sets it up', function () {
  this.timeout(600_000);
  const folder = temporaryFolder('team');
  const setup = { serveLines: [] as string[], nginx: '' };
  let redis: { started: Started; port: number } | undefined;
  let upstream: FakeUpstream | undefined;
  let upstreamUrl = '';
  let replicas: { started: Started; port: number }[] = [];
  let nginx: Started | undefined;
  let nginxPort = 0;
  /** The name clients reach the balancer by, as the README's replicas allow it (`Host` through nginx). */
  let publicHost: string | undefined;
  let answer: (request: ReceivedRequest, index: number) => Answer = () => codexAnswer();

  before(async function () {
    const missing = missingTeamTools();
    if (missing) {
      console.log(`      (skipped: ${missing})`);
      this.skip();
    }
    ensureBuilt();
    Object.assign(setup, readmeTeamSetup());
    const allowed = /--allowed-host (\S+)/.exec(setup.serveLines[0]!)?.[1]?.split(',')[0];
    publicHost = allowed ? `${allowed}:8080` : undefined;
    fs.mkdirSync(path.join(folder, 'redis'));
    redis = await startRedis(path.join(folder, 'redis'));
    upstream = new FakeUpstream((request, index) => answer(request, index));
    upstreamUrl = await upstream.start();
  });

  after(async () => {
    await stopProcess(nginx);
    for (const replica of replicas) await stopProcess(replica.started);
    await stopProcess(redis?.started);
    await upstream?.close();
    fs.rmSync(folder, { recursive: true, force: true });
  });

  /** Every key of database `db` holds the same stash key, so one replica and two give comparable handles. */
  async function prepareDatabase(db: number): Promise<void> {
    const client = new Redis({ port: redis!.port, host: '127.0.0.1', db });
    await client.flushdb();
    await client.set('herald:key', KEY);
    client.disconnect();
  }

  async function startCluster(db: number): Promise<void> {
    await prepareDatabase(db);
    const ports = [await freePort(), await freePort()];
    replicas = [];
    for (const [index, line] of setup.serveLines.slice(0, 2).entries()) {
      replicas.push(await startReplica(line, { port: ports[index]!, redisUrl: `redis://127.0.0.1:${redis!.port}/${db}`, upstream: upstreamUrl, token: TOKEN }, REPLICA_EXTRAS));
    }
    nginxPort = await freePort();
    const nginxFolder = path.join(folder, `nginx-${db}`);
    fs.mkdirSync(nginxFolder, { recursive: true });
    nginx = await startNginx(setup.nginx, { listen: nginxPort, replicas: ports }, nginxFolder);
  }

  async function stopCluster(): Promise<void> {
    await stopProcess(nginx);
    nginx = undefined;
    for (const replica of replicas) await stopProcess(replica.started);
    replicas = [];
  }

  /** The session through one replica alone (its own database, the same key): the provider's bodies. */
  async function throughOneReplica(turns: readonly Turn[], db: number): Promise<string[]> {
    await prepareDatabase(db);
    const port = await freePort();
    const one = await startReplica(setup.serveLines[0]!, { port, redisUrl: `redis://127.0.0.1:${redis!.port}/${db}`, upstream: upstreamUrl, token: TOKEN }, REPLICA_EXTRAS);
    const from = upstream!.received.length;
    try {
      for (const turn of turns) {
        const result = await send(`http://127.0.0.1:${port}`, turn);
        assert.equal(result.status, 200, result.text.slice(0, 500));
      }
    } finally {
      await stopProcess(one.started);
    }
    return upstream!.received.slice(from).map((request) => request.body);
  }

  it('a Claude Code session on alternating replicas: the same bytes as one replica, prefixes stable, every handle answers on every replica', async () => {
    const session = claudeCodeTurns(30);
    answer = session.answer;
    const alone = await throughOneReplica(session.turns, 1);
    await startCluster(2);
    const from = upstream!.received.length;
    for (const turn of session.turns) {
      const result = await send(`http://127.0.0.1:${nginxPort}`, turn, publicHost);
      assert.equal(result.status, 200, result.text.slice(0, 500));
    }
    const bodies = upstream!.received.slice(from).map((request) => request.body);
    assert.equal(bodies.length, session.turns.length, 'one provider request per turn');
    const served = await Promise.all(replicas.map(async (replica) => (await decisions(replica.port)).length));
    assert.ok(served.every((count) => count >= session.turns.length / 3), `both replicas served turns (${served.join(' and ')})`);
    bodies.forEach((body, index) => assert.equal(body, alone[index], `turn ${index}: the provider got the bytes one replica sends`));
    // As stable as one replica: the optimizer's own measure (cache_optimizer's breakpoint moves with
    // the conversation as Claude Code's does, which this byte measure counts as a change).
    const prefixes = (list: readonly string[]): number => stablePrefixes(list.map((body) => JSON.parse(body) as Record<string, unknown>));
    assert.equal(prefixes(bodies), prefixes(alone), 'prefixes as stable as through one replica');

    // Every handle the provider saw answers on every replica, through herald_retrieve inside a turn.
    const handles = [...new Set(bodies.flatMap((body) => findMarkers(body).map((marker) => marker.handle)))];
    assert.ok(handles.length > 0, 'the session elided something');
    const client = new Redis({ port: redis!.port, host: '127.0.0.1', db: 2 });
    try {
      for (const handle of handles.slice(0, 4)) {
        const stored = JSON.parse((await client.get(await stashKeyOf(client, handle))) ?? 'null') as { original: string } | null;
        assert.ok(stored, `${handle} is in Redis`);
        for (const replica of replicas) {
          answer = (request) => (request.body.includes('"tool_result"') && request.body.includes('herald_retrieve') && request.body.includes('toolu_retrieve') ? { kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'thanks' }] }) } : { kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'tool_use', id: 'toolu_retrieve', name: 'herald_retrieve', input: { handle } }] }) });
          const before = upstream!.received.length;
          const result = await send(`http://127.0.0.1:${replica.port}`, { path: '/v1/messages', body: { model: 'claude-sonnet-4-5', max_tokens: 100, stream: true, messages: [{ role: 'user', content: `An earlier note: [herald: elided · retrieve ${handle}] — what did it say? (asked of replica ${replica.port}: a repeat would be served from the shared answer cache)` }] } });
          assert.equal(result.status, 200);
          const round = upstream!.received.slice(before).find((request) => request.body.includes('toolu_retrieve') && request.body.includes('tool_result'));
          assert.ok(round, `replica ${replica.port} answered herald_retrieve for ${handle} inside the turn`);
          const toolResult = ((round.json!.messages as { content: unknown }[]).at(-1)!.content as { type: string; content: unknown }[]).find((block) => block.type === 'tool_result')!;
          const text = typeof toolResult.content === 'string' ? toolResult.content : (toolResult.content as { text: string }[]).map((part) => part.text).join('');
          assert.equal(text, stored.original, `replica ${replica.port} returned ${handle}'s original byte for byte`);
        }
      }
    } finally {
      client.disconnect();
      await stopCluster();
    }
  });

  it('a Codex session: a replica killed between turns loses nothing; a Redis restart is failed open, reported, and recovered from', async () => {
    const turns = codexTurns(24);
    answer = () => codexAnswer();
    const alone = await throughOneReplica(turns, 3);
    await startCluster(4);
    try {
      const from = upstream!.received.length;
      for (const [index, turn] of turns.slice(0, 10).entries()) {
        if (index === 6) await stopProcess(replicas[1]!.started, 'SIGKILL');
        assert.equal((await send(`http://127.0.0.1:${nginxPort}`, turn, publicHost)).status, 200, `turn ${index}`);
      }
      const bodies = upstream!.received.slice(from).map((request) => request.body);
      bodies.forEach((body, index) => assert.equal(body, alone[index], `turn ${index}: the same bytes with a replica gone`));

      // Redis goes away: the replica's health says so; the next turn goes out as it came (one
      // provider call, the client's own bytes), and its record and the log say why.
      await stopProcess(redis!.started);
      await waitFor(async () => storeUp(await health(replicas[0]!.port)) === false, 'the replica to see Redis gone');
      const before = upstream!.received.length;
      const during = await send(`http://127.0.0.1:${nginxPort}`, turns[10]!, publicHost);
      assert.equal(during.status, 200, `no request dropped while Redis is away: ${during.text.slice(0, 300)}`);
      assert.deepEqual(upstream!.received.slice(before).map((request) => request.body), [JSON.stringify(turns[10]!.body)], 'the original request went out, once');
      const failed = (await decisions(replicas[0]!.port)).at(-1)!;
      assert.equal(failed.status, 'forwarded-original');
      assert.match(String(failed.error), /state store/);
      assert.match(replicas[0]!.started.output(), /store-unreachable: .*does not answer; requests go out unoptimized/);

      // Redis is back with everything it had. Once the replica's health says the store is up
      // (its own connection and every worker's), every turn is optimized again: none dropped,
      // none unoptimized.
      redis = await startRedis(path.join(folder, 'redis'), redis!.port);
      await waitFor(async () => storeUp(await health(replicas[0]!.port)) === true, 'the replica and its workers to reconnect');
      const after = upstream!.received.length;
      const recordsBefore = (await decisions(replicas[0]!.port)).length;
      for (const turn of turns.slice(11)) {
        const result = await send(`http://127.0.0.1:${nginxPort}`, turn, publicHost);
        assert.equal(result.status, 200, result.text.slice(0, 300));
      }
      const later = upstream!.received.slice(after).map((request) => request.body);
      assert.equal(later.length, turns.length - 11, 'one provider call a turn');
      const resumed = (await decisions(replicas[0]!.port)).slice(recordsBefore);
      assert.equal(resumed.length, turns.length - 11, 'every turn after the restart served by the live replica');
      assert.ok(resumed.every((record) => record.status === 'optimized'), `optimized again once Redis answers (${resumed.map((record) => `${String(record.status)} ${String(record.error ?? '')}`).join('; ')})`);
      assert.ok(later.at(-1)!.length < JSON.stringify(turns.at(-1)!.body).length, 'the last turn went out smaller than it came');
      const client = new Redis({ port: redis.port, host: '127.0.0.1', db: 4 });
      try {
        const handles = new Set([...bodies, ...later].flatMap((body) => findMarkers(body).map((marker) => marker.handle)));
        assert.ok(handles.size > 0, 'the session elided something');
        for (const handle of handles) assert.ok(await client.exists(await stashKeyOf(client, handle)), `${handle} is in Redis after the restart`);
      } finally {
        client.disconnect();
      }
    } finally {
      await stopCluster();
    }
  });
});
