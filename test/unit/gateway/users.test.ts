/**
 * A team's gateway (`herald serve --users FILE`): tokens hashed at rest, `herald users add`
 * printing a token once, every request presenting a user's token, the tenant being the user
 * (whatever provider key they send), `/herald/decisions` showing each user their own requests
 * and an admin all of them.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHerald } from '../../support/cliRun';
import { addUser, hashToken, UserDirectory } from '../../../src/gateway/users';
import { anthropicConversation, decisionsFileLines, handleIn, startHarness, type Harness } from './harness';
import { anthropicMessage, chatCompletion } from './providerAnswers';

describe('gateway: per-user access', function () {
  this.timeout(30_000);
  let harness: Harness | undefined;
  let folder: string;
  let file: string;
  beforeEach(() => {
    folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-users-'));
    file = path.join(folder, 'users.json');
  });
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
    fs.rmSync(folder, { recursive: true, force: true });
  });

  async function add(name: string, admin = false): Promise<string> {
    const run = await runHerald(['users', 'add', name, '--users', file, ...(admin ? ['--admin'] : [])]);
    assert.equal(run.code, 0, run.stderr);
    return run.stdout.trim();
  }

  it('herald users add prints a fresh token once and keeps only its hash', async () => {
    const token = await add('alice');
    assert.match(token, /^hrk_[A-Za-z0-9_-]{43}$/);
    const text = fs.readFileSync(file, 'utf8');
    assert.ok(!text.includes(token), 'the token is not in the file');
    assert.ok(text.includes(hashToken(token)), 'its SHA-256 is');
    assert.equal(fs.statSync(file).mode & 0o077, 0, 'owner-only');
    assert.notEqual(await add('bob'), token);
    const again = await runHerald(['users', 'add', 'alice', '--users', file]);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already in/);
    assert.deepEqual((await runHerald(['users', 'list', '--users', file])).stdout.split('\n').map((line) => line.split(' ')[0]).filter(Boolean), ['alice', 'bob']);
    assert.equal((await runHerald(['users', 'remove', 'bob', '--users', file])).code, 0);
    assert.equal((await runHerald(['users', 'add', '../x', '--users', file])).code, 1);
    assert.match((await runHerald(['users', 'add', 'carol'])).stderr, /--users FILE/);
  });

  it('asks every request for a user\'s token and shows each user their own decisions, an admin all', async () => {
    const alice = await add('alice');
    const bob = await add('bob');
    const admin = await add('root', true);
    harness = await startHarness((_request, index) => ({ kind: 'json', body: chatCompletion({ text: `answer ${index}` }) }), ['--users', file]);
    const ask = (headers: Record<string, string>, words: string, prefix = '') => fetch(`${harness!.base}${prefix}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Bearer sk-shared-provider-key', ...headers }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: words }] }) });
    assert.equal((await ask({}, 'no token')).status, 401);
    assert.equal((await ask({ 'x-herald-token': 'hrk_not-a-real-token-at-all-000000000000000' }, 'wrong token')).status, 401);
    assert.equal((await ask({ 'x-herald-token': alice }, 'from alice')).status, 200);
    assert.equal((await ask({}, 'from bob', `/herald/${bob}`)).status, 200);
    assert.equal(harness.upstream.received.length, 2);
    const decisions = async (token: string | undefined) => {
      const response = await fetch(`${harness!.base}/herald/decisions`, { headers: token ? { 'x-herald-token': token } : {} });
      return response.status === 200 ? ((await response.json()) as { requests: { user?: string }[] }).requests.map((record) => record.user) : response.status;
    };
    assert.deepEqual(await decisions(alice), ['alice']);
    assert.deepEqual(await decisions(bob), ['bob']);
    assert.deepEqual(await decisions(admin), ['alice', 'bob']);
    assert.equal(await decisions(undefined), 401);
    await harness.serve.stop();
    assert.deepEqual(decisionsFileLines(harness).map((line) => line.user), ['alice', 'bob'], 'the records name their user');
  });

  it('makes the tenant the user: one user\'s keys share their state, two users with one key share nothing', async () => {
    const alice = await add('alice');
    const bob = await add('bob');
    harness = await startHarness((request) => {
      const note = /An earlier note: \[herald: [^\]]* · retrieve (hr_[a-z2-7]{16})\]/.exec(request.body);
      if (note && !request.body.includes('toolu_q')) return { kind: 'json', body: anthropicMessage({ blocks: [{ type: 'tool_use', id: 'toolu_q', name: 'herald_retrieve', input: { handle: note[1]! } }] }) };
      return { kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: `answer ${harness?.upstream.received.length ?? 0}` }] }) };
    }, ['--users', file]);
    const post = (token: string, providerKey: string, body: unknown) => fetch(`${harness!.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-herald-token': token, 'x-api-key': providerKey }, body: JSON.stringify(body) });
    await post(alice, 'sk-ant-key-1', anthropicConversation());
    const handle = handleIn(harness.upstream.received[0]!.json);
    const note = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: `An earlier note: [herald: 300 lines elided · retrieve ${handle}]` }] };
    let before = harness.upstream.received.length;
    await post(alice, 'sk-ant-key-2', note);
    assert.ok(harness.upstream.received[before + 1]!.body.includes('worker-'), 'Alice retrieves her handle with another provider key');
    before = harness.upstream.received.length;
    await post(bob, 'sk-ant-key-1', note);
    assert.match(harness.upstream.received[before + 1]!.body, /nothing is stored under/, 'Bob, with Alice\'s provider key, does not');
    assert.ok(!harness.upstream.received[before + 1]!.body.includes('worker-'));
    assert.equal(harness.upstream.received[0]!.headers['x-api-key'], 'sk-ant-key-1', 'the provider key is passed through');
    assert.equal(harness.upstream.received[0]!.headers['x-herald-token'], undefined, 'the user token is not');
  });

  it('refuses a token and users together, a missing users file, and serves beyond loopback with users alone', async () => {
    await add('alice');
    await assert.rejects(startHarness({ kind: 'json', body: {} }, ['--users', file, '--token', 't']), /either one token/);
    await assert.rejects(startHarness({ kind: 'json', body: {} }, ['--users', path.join(folder, 'nope', 'users.json')]), /herald users add/);
    fs.writeFileSync(path.join(folder, 'bad.json'), '{"schema":1,"users":[{"name":"x","tokenHash":"plain"}]}');
    await assert.rejects(startHarness({ kind: 'json', body: {} }, ['--users', path.join(folder, 'bad.json')]), /tokenHash/);
    harness = await startHarness({ kind: 'json', body: {} }, ['--users', file, '--host', '0.0.0.0']);
  });

  it('sees users added or removed while it runs', () => {
    let now = 0;
    const first = addUser(file, 'alice', false);
    const directory = new UserDirectory(file, () => undefined, () => now);
    assert.equal(directory.find(first)?.name, 'alice');
    const second = addUser(file, 'bob', true);
    now += 500;
    assert.equal(directory.find(second), undefined, 'read again at most once a second');
    now += 1000;
    assert.deepEqual(directory.find(second), { name: 'bob', admin: true });
    fs.writeFileSync(file, 'not json');
    now += 1000;
    assert.equal(directory.find(first)?.name, 'alice', 'a broken file keeps the users read before');
    assert.equal(directory.find(undefined), undefined);
    assert.equal(directory.find(''), undefined);
  });
});
