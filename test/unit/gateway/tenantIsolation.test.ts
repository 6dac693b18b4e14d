/**
 * Tenants apart: a handle quoted from another tenant is answered as unknown through
 * herald_retrieve on every API; a cached answer never crosses credentials, wherever the
 * credential stands (headers, query keys, cookies); history decided for one tenant is never
 * replayed with its markers for another; a request without any credential shares nothing.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runHerald } from '../../support/cliRun';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { ScopedBlobStore, splitScopedKey } from '../../../src/core/stash/scopedBlobStore';
import { credentialsOf, tenantOfRequest, tenantOfUser } from '../../../src/gateway/tenants';
import type { Answer, ReceivedRequest } from './fakeUpstream';
import { BIG_OUTPUT, anthropicConversation, chatConversation, responsesConversation, startHarness, type Harness } from './harness';
import { anthropicMessage, chatCompletion, responseObject } from './providerAnswers';

const PRIVATE = 'ALICE-PRIVATE db_password=hunter2-0f9e8d';
const privateOutput = BIG_OUTPUT.replace('\n', `\n${PRIVATE}\n`);

type Api = 'messages' | 'chat' | 'responses';
const PATHS: Record<Api, string> = { messages: '/v1/messages', chat: '/v1/chat/completions', responses: '/v1/responses' };

/** The conversation with the private line in its big tool output, in each API's shape. */
function privateConversation(api: Api): Record<string, unknown> {
  const text = (value: unknown): unknown => JSON.parse(JSON.stringify(value).split(JSON.stringify(BIG_OUTPUT).slice(1, -1)).join(JSON.stringify(privateOutput).slice(1, -1)));
  const conversation = api === 'messages' ? anthropicConversation() : api === 'chat' ? chatConversation() : responsesConversation();
  return text(conversation) as Record<string, unknown>;
}

/** A one-message request in each API's shape. */
function oneMessage(api: Api, words: string): Record<string, unknown> {
  if (api === 'messages') return { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: words }] };
  if (api === 'chat') return { model: 'gpt-4o', messages: [{ role: 'user', content: words }] };
  return { model: 'gpt-5-codex', store: false, input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: words }] }] };
}

/** The model asks herald_retrieve for the handle a note quotes (first round), and answers plainly otherwise. */
function provider(api: Api) {
  return (request: ReceivedRequest): Answer => {
    const note = /An earlier note: \[herald: [^\]]* · retrieve (hr_[a-z2-7]{16})\]/.exec(request.body);
    // The second round carries the model's call back (its id), with Herald's answer.
    const answered = request.body.includes('toolu_q') || request.body.includes('call_q');
    if (note && !answered) {
      const handle = note[1]!;
      if (api === 'messages') return { kind: 'json', body: anthropicMessage({ blocks: [{ type: 'tool_use', id: 'toolu_q', name: 'herald_retrieve', input: { handle } }] }) };
      if (api === 'chat') return { kind: 'json', body: chatCompletion({ calls: [{ id: 'call_q', name: 'herald_retrieve', arguments: JSON.stringify({ handle }) }] }) };
      return { kind: 'json', body: responseObject({ items: [{ type: 'function_call', id: 'fc_q', call_id: 'call_q', name: 'herald_retrieve', arguments: JSON.stringify({ handle }) }] }) };
    }
    if (api === 'messages') return { kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'ok' }] }) };
    if (api === 'chat') return { kind: 'json', body: chatCompletion({ text: 'ok' }) };
    return { kind: 'json', body: responseObject({ items: [{ type: 'message', id: 'msg_1', text: 'ok' }] }) };
  };
}

/** Headers carrying a credential the way each API's clients send it. */
function credential(api: Api, key: string): Record<string, string> {
  return api === 'messages' ? { 'x-api-key': key } : { authorization: `Bearer ${key}` };
}

async function post(harness: Harness, api: Api, body: unknown, headers: Record<string, string>, query = ''): Promise<Response> {
  return fetch(`${harness.base}${PATHS[api]}${query}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
}

function handlesIn(text: string): string[] {
  return [...text.matchAll(/retrieve (hr_[a-z2-7]{16})/g)].map((match) => match[1]!);
}

describe('gateway: tenants apart', function () {
  this.timeout(30_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  for (const api of ['messages', 'chat', 'responses'] as const) {
    it(`${api}: another tenant's handle is unknown to herald_retrieve; the owner's own retrieval still answers`, async () => {
      harness = await startHarness(provider(api));
      await post(harness, api, privateConversation(api), credential(api, 'sk-alice'));
      const handle = handlesIn(harness.upstream.received[0]!.body)[0];
      assert.ok(handle, 'the private output was elided behind a marker');
      const note = `An earlier note: [herald: 300 lines elided · retrieve ${handle}]`;

      const before = harness.upstream.received.length;
      assert.equal((await post(harness, api, oneMessage(api, note), credential(api, 'sk-bob'))).status, 200);
      const bobRounds = harness.upstream.received.slice(before);
      assert.equal(bobRounds.length, 2, 'the model asked, Herald answered inside the turn');
      assert.ok(!bobRounds.some((round) => round.body.includes('ALICE-PRIVATE')), 'Bob never gets Alice\'s original');
      assert.match(bobRounds[1]!.body, /nothing is stored under hr_/);

      const own = harness.upstream.received.length;
      await post(harness, api, oneMessage(api, note), credential(api, 'sk-alice'));
      assert.ok(harness.upstream.received[own + 1]!.body.includes('ALICE-PRIVATE'), 'Alice retrieves her own original');
    });
  }

  const carriers: { name: string; a: { headers?: Record<string, string>; query?: string }; b: { headers?: Record<string, string>; query?: string } }[] = [
    { name: 'authorization', a: { headers: { authorization: 'Bearer sk-A' } }, b: { headers: { authorization: 'Bearer sk-B' } } },
    { name: 'x-api-key', a: { headers: { 'x-api-key': 'sk-A' } }, b: { headers: { 'x-api-key': 'sk-B' } } },
    { name: 'api-key (Azure OpenAI)', a: { headers: { 'api-key': 'azure-A' } }, b: { headers: { 'api-key': 'azure-B' } } },
    { name: 'x-goog-api-key', a: { headers: { 'x-goog-api-key': 'goog-A' } }, b: { headers: { 'x-goog-api-key': 'goog-B' } } },
    { name: '?key=', a: { query: '?key=query-A' }, b: { query: '?key=query-B' } },
    { name: '?api-key=', a: { query: '?api-version=1&api-key=query-A' }, b: { query: '?api-version=1&api-key=query-B' } },
    { name: 'a cookie', a: { headers: { cookie: 'session=cookie-A' } }, b: { headers: { cookie: 'session=cookie-B' } } },
  ];
  for (const { name, a, b } of carriers) {
    it(`a cached answer stays with its credential in ${name}`, async () => {
      harness = await startHarness((_request, index) => ({ kind: 'json', body: chatCompletion({ text: `answer ${index}` }) }));
      const ask = async (who: { headers?: Record<string, string>; query?: string }, words: string) => ((await (await post(harness!, 'chat', oneMessage('chat', words), who.headers ?? {}, who.query ?? '')).json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
      assert.equal(await ask(a, 'What is the capital of France?'), 'answer 0');
      assert.equal(await ask(b, 'What is the capital of France?'), 'answer 1', 'another credential never gets it');
      assert.equal(await ask(a, 'And of Spain?'), 'answer 2');
      assert.equal(await ask(a, 'And of Spain?'), 'answer 2', 'the same credential is served from the cache');
      assert.equal(harness.upstream.received.length, 3);
    });
  }

  it('a request without any credential shares nothing: no cached answer, no handle, with anyone', async () => {
    harness = await startHarness(provider('chat'));
    const answer = async () => post(harness!, 'chat', oneMessage('chat', 'What is the capital of France?'), {});
    await answer();
    await answer();
    assert.equal(harness.upstream.received.length, 2, 'the second anonymous request was not served the first one\'s answer');
    await post(harness, 'chat', oneMessage('chat', 'What is the capital of France?'), { authorization: 'Bearer sk-someone' });
    assert.equal(harness.upstream.received.length, 3, 'nor was a request with a credential');
    await post(harness, 'chat', privateConversation('chat'), {});
    const handle = handlesIn(harness.upstream.received.at(-1)!.body)[0]!;
    const before = harness.upstream.received.length;
    await post(harness, 'chat', oneMessage('chat', `An earlier note: [herald: 300 lines elided · retrieve ${handle}]`), {});
    const rounds = harness.upstream.received.slice(before);
    assert.equal(rounds.length, 2);
    assert.ok(!rounds[1]!.body.includes('ALICE-PRIVATE'), 'an anonymous request\'s original is found by no other request');
  });

  it('history decided for one tenant is never replayed, markers and all, for another', async () => {
    // Without the answer cache, so a repeat goes upstream and shows what the memo replays.
    harness = await startHarness(provider('messages'), ['--disable', 'semantic_cache']);
    await post(harness, 'messages', privateConversation('messages'), { 'x-api-key': 'sk-alice' });
    await post(harness, 'messages', privateConversation('messages'), { 'x-api-key': 'sk-bob' });
    await post(harness, 'messages', privateConversation('messages'), { 'x-api-key': 'sk-alice' });
    const [alice, bob, aliceAgain] = harness.upstream.received.map((request) => request.body);
    const aliceHandles = handlesIn(alice!);
    const bobHandles = handlesIn(bob!);
    assert.ok(aliceHandles.length > 0 && bobHandles.length > 0);
    assert.ok(bobHandles.every((handle) => !aliceHandles.includes(handle)), 'Bob\'s request carries handles of his own');
    assert.equal(aliceAgain, alice, 'Alice\'s own history replays byte for byte');
    // Bob's handle answers Bob.
    const before = harness.upstream.received.length;
    await post(harness, 'messages', oneMessage('messages', `An earlier note: [herald: 300 lines elided · retrieve ${bobHandles[0]}]`), { 'x-api-key': 'sk-bob' });
    assert.ok(harness.upstream.received[before + 1]!.body.includes('ALICE-PRIVATE'), 'the same text, stashed under Bob\'s own handle');
  });

  it('lets whoever runs the folder read a tenant\'s original with herald retrieve', async () => {
    harness = await startHarness(provider('messages'));
    await post(harness, 'messages', privateConversation('messages'), { 'x-api-key': 'sk-alice' });
    const handle = handlesIn(harness.upstream.received[0]!.body)[0]!;
    await harness.serve.stop();
    const run = await runHerald(['retrieve', handle, '--stash', path.join(harness.folder, 'stash')]);
    assert.equal(run.code, 0, run.stderr);
    assert.ok(run.stdout.includes(PRIVATE));
    const files = fs.readdirSync(path.join(harness.folder, 'stash', 'entries'));
    assert.ok(files.length > 0 && files.every((name) => /^t-[0-9a-f]{24}\.hr_[a-z2-7]{16}\.json$/.test(name)), 'every entry under its tenant\'s namespace');
  });

  describe('tenant derivation', () => {
    const key = new Uint8Array(32).fill(7);
    it('reads every credential a provider accepts, and nothing else', () => {
      const parts = credentialsOf({ authorization: 'Bearer a', 'x-api-key': 'b', 'api-key': 'c', 'x-goog-api-key': 'd', cookie: 'e=1', 'user-agent': 'ua', 'anthropic-version': 'v' }, new URLSearchParams('key=f&api-version=2024&access_token=g'));
      assert.deepEqual(parts, ['header:authorization=Bearer a', 'header:x-api-key=b', 'header:api-key=c', 'header:x-goog-api-key=d', 'header:cookie=e=1', 'query:access_token=g', 'query:key=f']);
    });
    it('gives each credential its own tenant, the same one every time, and a request without one a tenant of its own', () => {
      const of = (headers: Record<string, string>, query = '') => tenantOfRequest(headers, new URLSearchParams(query), key);
      assert.equal(of({ 'api-key': 'x' }).id, of({ 'api-key': 'x', 'user-agent': 'other' }).id);
      assert.notEqual(of({ 'api-key': 'x' }).id, of({ 'api-key': 'y' }).id);
      assert.notEqual(of({}, 'key=x').id, of({}, 'key=y').id);
      assert.notEqual(of({ 'x-api-key': 'x' }).id, of({ 'api-key': 'x' }).id, 'the same value in another place is another credential');
      const anonymous = [of({}), of({}, 'api-version=1')];
      assert.ok(anonymous.every((tenant) => tenant.anonymous));
      assert.notEqual(anonymous[0]!.id, anonymous[1]!.id);
      assert.equal(tenantOfUser('alice', key).id, tenantOfUser('alice', key).id);
      assert.ok(!JSON.stringify(of({ 'x-api-key': 'sk-secret' })).includes('sk-secret'), 'the tenant never holds the credential');
    });
    it('a scoped store sees only its own namespace', async () => {
      const store = new MemoryBlobStore();
      const alice = new ScopedBlobStore(store, 't-alice');
      const bob = new ScopedBlobStore(store, 't-bob');
      await alice.put('hr_aaaaaaaaaaaaaaaa', 'A');
      await bob.put('hr_bbbbbbbbbbbbbbbb', 'B');
      assert.equal(await bob.get('hr_aaaaaaaaaaaaaaaa'), undefined);
      assert.deepEqual((await alice.list()).map((info) => info.key), ['hr_aaaaaaaaaaaaaaaa']);
      await bob.delete('hr_aaaaaaaaaaaaaaaa');
      assert.equal(await alice.get('hr_aaaaaaaaaaaaaaaa'), 'A');
      assert.deepEqual(splitScopedKey('t-alice.hr_aaaaaaaaaaaaaaaa'), { namespace: 't-alice', key: 'hr_aaaaaaaaaaaaaaaa' });
      assert.throws(() => new ScopedBlobStore(store, '../x'), /namespace/);
    });
  });
});
