/**
 * What the gateway keeps and what it never keeps: credentials in no file or log line, each
 * tenant's cached answers its own, concurrent sessions apart, Herald's own failure forwarding
 * the original request, and the token that guards anything beyond loopback.
 */
import { strict as assert } from 'node:assert';
import * as os from 'node:os';
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { runHerald } from '../../support/cliRun';
import { RecordingLogger } from '../../../src/core/ports';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { createGateway, type GatewayOptimizer } from '../../../src/gateway';
import { FakeUpstream } from './fakeUpstream';
import { anthropicEvents, anthropicMessage, chatCompletion, chatEvents } from './providerAnswers';
import { allFileText, anthropicConversation, decisionsFileLines, handleIn, records, startHarness, type Harness } from './harness';

const SECRET = 'sk-ant-SECRET-7f3a9c1e5b2d4680';
const OPENAI_SECRET = 'sk-proj-SECRET-0a1b2c3d4e5f6789';

describe('gateway hygiene', function () {
  this.timeout(30_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('keeps no credential in any file, record or log line, while forwarding it unchanged', async () => {
    harness = await startHarness((request, index) => {
      if (request.url.startsWith('/v1/chat')) return index % 2 === 0 ? { kind: 'raw', status: 401, body: JSON.stringify({ error: { message: 'bad key' } }) } : { kind: 'json', body: chatCompletion({ text: 'ok' }) };
      const answered = JSON.stringify(request.json).includes('"tool_use_id":"toolu_h"');
      return { kind: 'stream', events: anthropicEvents({ blocks: answered ? [{ type: 'text', text: 'done' }] : [{ type: 'tool_use', id: 'toolu_h', name: 'herald_retrieve', input: { handle: handleIn(request.json) } }] }) };
    });
    const anthropic = new Anthropic({ apiKey: SECRET, baseURL: harness.base, maxRetries: 0 });
    await anthropic.messages.stream(anthropicConversation() as unknown as Anthropic.MessageCreateParamsNonStreaming).finalMessage();
    const openai = new OpenAI({ apiKey: OPENAI_SECRET, baseURL: `${harness.base}/v1`, maxRetries: 0, organization: 'org-SECRET-org' });
    await assert.rejects(openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }));
    await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
    assert.ok(harness.upstream.received.every((request) => JSON.stringify(request.headers).includes('SECRET')), 'every request carried its credential upstream');
    const folder = harness.folder;
    const output = harness.output();
    const served = JSON.stringify(records(harness));
    await harness.serve.stop();
    const files = allFileText(folder);
    const lines = decisionsFileLines(harness);
    assert.equal(lines.length, 3, 'three requests recorded');
    for (const text of [files, output, served]) {
      for (const secret of [SECRET, OPENAI_SECRET, 'org-SECRET-org', 'SECRET']) assert.ok(!text.includes(secret), `"${secret}" must not be kept`);
    }
    assert.ok(!JSON.stringify(lines).includes('Find why the worker is slow'), 'no prompt text in decisions (content mode is off)');
    assert.ok(files.includes('worker-'), 'the stash holds the elided original (so the scan read real files)');
    await harness.upstream.close();
    harness = undefined;
  });

  it('serves a tenant its own cached answer and never another tenant\'s', async () => {
    harness = await startHarness((_request, index) => ({ kind: 'json', body: chatCompletion({ text: `answer ${index}` }) }));
    const ask = (key: string) => new OpenAI({ apiKey: key, baseURL: `${harness!.base}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'What is the capital of France?' }] });
    const first = await ask('sk-alice');
    const again = await ask('sk-alice');
    const other = await ask('sk-bob');
    assert.equal(first.choices[0]!.message.content, 'answer 0');
    assert.equal(again.choices[0]!.message.content, 'answer 0', 'the same tenant\'s repeat is answered from the cache');
    assert.equal(other.choices[0]!.message.content, 'answer 1', 'another credential never gets it');
    assert.equal(harness.upstream.received.length, 2);
    assert.deepEqual(records(harness).map((record) => record.status), ['optimized', 'served-from-cache', 'optimized']);
  });

  it('keeps concurrent streaming sessions apart: each client gets its own answer, each request goes up whole', async () => {
    harness = await startHarness((request) => {
      const word = /session (\d+)/.exec(JSON.stringify(request.json))![1]!;
      return { kind: 'stream', events: chatEvents({ id: `chatcmpl-${word}`, text: `reply for session ${word} `.repeat(5) }), delayMs: 2 };
    });
    const openai = new OpenAI({ apiKey: 'sk-x', baseURL: `${harness.base}/v1`, maxRetries: 0 });
    const answers = await Promise.all(Array.from({ length: 12 }, (_, index) => openai.chat.completions.stream({ model: 'gpt-4o', messages: [{ role: 'system', content: 'shared system prompt' }, { role: 'user', content: `session ${index}: go` }] }).finalChatCompletion()));
    answers.forEach((answer, index) => {
      assert.equal(answer.choices[0]!.message.content, `reply for session ${index} `.repeat(5));
      assert.equal(answer.id, `chatcmpl-${index}`);
    });
    assert.equal(harness.upstream.received.length, 12);
  });

  it('forwards the request as it came when Herald cannot read it, and the provider\'s own 400 comes back', async () => {
    harness = await startHarness({ kind: 'raw', status: 400, body: JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'messages: Input should be a valid list' } }) });
    const body = '{"model":"claude-sonnet-4-5","max_tokens":5,"messages":"not a list"}';
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body });
    assert.equal(response.status, 400);
    assert.match(await response.text(), /Input should be a valid list/);
    assert.equal(harness.upstream.received[0]!.body, body, 'byte for byte');
    assert.match(harness.output(), /gateway-request-unreadable/);
  });

  it('forwards every request as it came with --off, and records it as such', async () => {
    harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'fine' }] }) }, ['--off']);
    const body = JSON.stringify(anthropicConversation());
    await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body });
    assert.equal(harness.upstream.received[0]!.body, body, 'byte for byte, though the pipeline would have masked its old output');
    assert.equal(records(harness)[0]!.status, 'optimizer-off');
  });

  it('forwards the original request when the optimizer fails (fail-open)', async () => {
    const upstream = new FakeUpstream({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'fine' }] }) });
    const url = await upstream.start();
    const failing: GatewayOptimizer = {
      tokens: new TokenCounter(),
      forTenant: () => ({
        optimize: async () => {
          throw new Error('strategy exploded');
        },
        afterResponse: async () => undefined,
        retrieve: async () => undefined,
      }),
    };
    const logger = new RecordingLogger();
    const gateway = createGateway({ port: 0, anthropicBaseUrl: url, optimizer: failing, tenantKey: new Uint8Array(32), logger });
    const port = await gateway.listen();
    try {
      const body = JSON.stringify(anthropicConversation());
      const response = await fetch(`http://127.0.0.1:${port}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
      assert.equal(response.status, 200);
      assert.equal(upstream.received[0]!.body, body, 'the original, byte for byte');
      assert.equal(gateway.recent()[0]!.status, 'forwarded-original');
      assert.ok(logger.lines.some((line) => line.code === 'pipeline-failed'));
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });

  it('refuses to listen beyond loopback without a token, and asks non-loopback clients for it', async () => {
    assert.throws(() => createGateway({ host: '0.0.0.0', optimizer: { tokens: new TokenCounter(), forTenant: () => ({ optimize: undefined, afterResponse: async () => undefined, retrieve: async () => undefined }) }, tenantKey: new Uint8Array(32), logger: new RecordingLogger() }), /give it a token/);
    const outside = Object.values(os.networkInterfaces()).flat().find((address) => address && address.family === 'IPv4' && !address.internal)?.address;
    if (!outside) return;
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) }, ['--host', '0.0.0.0', '--token', 'tok-123']);
    let asked = 0;
    const call = (path: string, headers: Record<string, string> = {}) => fetch(`http://${outside}:${harness!.serve.port}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: `question ${++asked}` }] }) });
    assert.equal((await call('/v1/chat/completions')).status, 401);
    assert.equal((await call('/v1/chat/completions', { 'x-herald-token': 'wrong' })).status, 401);
    assert.equal((await call('/v1/chat/completions', { 'x-herald-token': 'tok-123' })).status, 200);
    assert.equal((await call('/herald/tok-123/v1/chat/completions')).status, 200);
    assert.equal(harness.upstream.received.length, 2);
    assert.equal(harness.upstream.received[0]!.headers['x-herald-token'], undefined);
  });

  it('shows its recent requests on /herald/decisions', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) });
    await new OpenAI({ apiKey: 'k', baseURL: `${harness.base}/v1`, maxRetries: 0 }).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] });
    const listed = (await (await fetch(`${harness.base}/herald/decisions`)).json()) as { requests: { api: string; httpStatus: number }[] };
    assert.deepEqual(listed.requests.map((request) => [request.api, request.httpStatus]), [['chat', 200]]);
  });

  it('rejects bad serve options with a clear error', async () => {
    const bad = await runHerald(['serve', '--port', 'abc']);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--port takes a port number/);
    const rounds = await runHerald(['serve', '--retrieve-rounds', '99']);
    assert.match(rounds.stderr, /--retrieve-rounds takes a whole number from 0 to 10/);
  });
});
