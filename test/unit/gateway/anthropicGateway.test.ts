/**
 * `herald serve` with the official Anthropic client in front and a recording fake provider
 * behind: streamed and whole answers, thinking, tool calls, images, errors passed through,
 * a client that goes away, and Herald's in-turn retrieve continued into one message.
 */
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import { anthropicEvents, anthropicMessage } from './providerAnswers';
import { anthropicConversation, BIG_OUTPUT, records, handleIn, rawStream, startHarness, type Harness } from './harness';

const KEY = 'sk-ant-test-key-0123456789';

function client(harness: Harness): Anthropic {
  return new Anthropic({ apiKey: KEY, baseURL: harness.base, maxRetries: 0, defaultHeaders: { 'anthropic-beta': 'interleaved-thinking-2025-05-14' } });
}

const small = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Say hello.' }] };

describe('gateway: Anthropic Messages through the official client', function () {
  this.timeout(20_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('answers a whole (non-streamed) message and forwards the client\'s own headers and bytes', async () => {
    harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'Hello!' }] }) });
    const message = await client(harness).messages.create(small);
    assert.deepEqual(message.content, [{ type: 'text', text: 'Hello!' }]);
    const received = harness.upstream.received[0]!;
    assert.equal(received.url, '/v1/messages');
    assert.equal(received.headers.authorization ?? received.headers['x-api-key'], received.headers.authorization ? `Bearer ${KEY}` : KEY, 'the client\'s credential');
    assert.equal(received.headers['anthropic-beta'], 'interleaved-thinking-2025-05-14');
    assert.ok(received.headers['anthropic-version']);
    assert.deepEqual(received.json, small, 'a request Herald has nothing to do on goes out as it came');

    const sent = { 'x-api-key': KEY, 'anthropic-version': '2023-06-01', 'anthropic-beta': 'context-management-2025-06-27', 'anthropic-dangerous-direct-browser-access': 'true', 'user-agent': 'claude-cli/2.0', 'x-herald-token': 'not-for-upstream' };
    await rawStream(`${harness.base}/v1/messages?beta=true`, small, sent);
    const raw = harness.upstream.received[1]!;
    assert.equal(raw.url, '/v1/messages?beta=true', 'the query goes along');
    for (const [name, value] of Object.entries(sent)) if (name !== 'x-herald-token') assert.equal(raw.headers[name], value, name);
    assert.equal(raw.headers['x-herald-token'], undefined, 'the gateway\'s own token stays with the gateway');
  });

  it('streams thinking, text and parallel tool calls event for event, byte for byte', async () => {
    const events = anthropicEvents({
      blocks: [
        { type: 'thinking', thinking: 'Two files to read.', signature: 'sig-abc' },
        { type: 'text', text: 'Reading both.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } },
        { type: 'tool_use', id: 'toolu_2', name: 'Read', input: { path: 'b.ts' } },
      ],
    });
    harness = await startHarness({ kind: 'stream', events });
    const streamed = await client(harness).messages.stream({ ...small, thinking: { type: 'enabled', budget_tokens: 1024 } }).finalMessage();
    assert.deepEqual(streamed.content.map((block) => block.type), ['thinking', 'text', 'tool_use', 'tool_use']);
    assert.deepEqual(streamed.content.filter((block) => block.type === 'tool_use').map((block) => block.type === 'tool_use' && block.input), [{ path: 'a.ts' }, { path: 'b.ts' }]);
    assert.equal(streamed.stop_reason, 'tool_use');

    const raw = await rawStream(`${harness.base}/v1/messages`, { ...small, stream: true }, { 'x-api-key': KEY, 'anthropic-version': '2023-06-01' });
    const expected = events.map((event) => `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`).join('');
    assert.equal(raw.text, expected, 'nothing Herald had to change: the provider\'s own bytes');
    assert.equal(raw.headers.get('request-id'), 'req_1', 'the provider\'s headers reach the client');
  });

  it('streams a provider\'s whole answer to a stream request, and a cached answer, as Anthropic would have streamed them', async () => {
    const blocks = [{ type: 'thinking' as const, thinking: 'Hmm.', signature: 'sig-z' }, { type: 'text' as const, text: 'Paris.' }];
    // An answer with thinking in it is not kept for the cache (Herald cannot store every part of it); a text answer is.
    harness = await startHarness((request) => ({ kind: 'json', body: anthropicMessage({ blocks: request.body.includes('Italy') ? [{ type: 'text', text: 'Rome.' }] : blocks }) }));
    const question = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Capital of France?' }] };
    const whole = await client(harness).messages.stream(question).finalMessage();
    assert.deepEqual(whole.content, blocks);
    assert.equal(whole.stop_reason, 'end_turn');
    const text = { model: 'claude-sonnet-4-5', max_tokens: 256, messages: [{ role: 'user' as const, content: 'Capital of Italy?' }] };
    await client(harness).messages.create(text);
    const cached = await client(harness).messages.stream(text).finalMessage();
    assert.deepEqual(cached.content, [{ type: 'text', text: 'Rome.' }], 'the cached answer, streamed');
    assert.equal(harness.upstream.received.length, 2, 'the repeat never reached the provider');
    assert.equal(records(harness).at(-1)!.status, 'served-from-cache');
  });

  it('forwards images untouched', async () => {
    harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'A cat.' }] }) });
    const image = { type: 'image' as const, source: { type: 'base64' as const, media_type: 'image/png' as const, data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' } };
    await client(harness).messages.create({ ...small, messages: [{ role: 'user', content: [image, { type: 'text', text: 'What is this?' }] }] });
    assert.deepEqual((harness.upstream.received[0]!.json!.messages as { content: unknown[] }[])[0]!.content[0], image);
  });

  for (const [status, type, headers] of [
    [400, 'invalid_request_error', {}],
    [401, 'authentication_error', {}],
    [429, 'rate_limit_error', { 'retry-after': '17', 'anthropic-ratelimit-requests-remaining': '0', 'anthropic-ratelimit-requests-reset': '2026-01-01T00:00:17Z' }],
    [500, 'api_error', {}],
  ] as const) {
    it(`passes an upstream ${status} through: status, headers and body as the provider sent them`, async () => {
      const body = JSON.stringify({ type: 'error', error: { type, message: `upstream says ${status}` }, request_id: 'req_x' });
      harness = await startHarness({ kind: 'raw', status, body, headers: { ...headers, 'request-id': 'req_x' } });
      await assert.rejects(client(harness).messages.create(small), (error: unknown) => {
        assert.ok(error instanceof Anthropic.APIError);
        assert.equal(error.status, status);
        assert.equal((error.error as { error: { message: string } }).error.message, `upstream says ${status}`);
        for (const [name, value] of Object.entries(headers)) assert.equal(error.headers?.get(name), value, name);
        return true;
      });
      const raw = await rawStream(`${harness.base}/v1/messages`, small, { 'x-api-key': KEY });
      assert.equal(raw.text, body, 'the body byte for byte');
      const kept = records(harness);
      assert.equal(kept.at(-1)?.httpStatus, status);
      assert.equal(kept.at(-1)?.status, 'failed');
    });
  }

  it('aborts the upstream request when the client goes away mid-stream', async () => {
    const events = anthropicEvents({ blocks: [{ type: 'text', text: 'A long answer that keeps coming and coming.' }] });
    harness = await startHarness({ kind: 'stream', events: events.slice(0, 4), hang: true });
    const controller = new AbortController();
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': KEY }, body: JSON.stringify({ ...small, stream: true }), signal: controller.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /message_start/, 'the stream started');
    controller.abort();
    await harness.upstream.waitForAbort();
    assert.equal(harness.upstream.received[0]!.aborted, true);
  });

  it('answers malformed JSON with a 400 and an oversized body with a 413, both in Anthropic\'s error shape', async () => {
    harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'x' }] }) }, ['--max-body-mb', '1']);
    const bad = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model": "x", ' });
    assert.equal(bad.status, 400);
    const badBody = (await bad.json()) as { type: string; error: { type: string; message: string } };
    assert.equal(badBody.type, 'error');
    assert.equal(badBody.error.type, 'invalid_request_error');
    assert.match(badBody.error.message, /^Herald: the request body is not valid JSON/);
    await assert.rejects(client(harness).messages.create({ ...small, messages: [{ role: 'user', content: 'x'.repeat(1_100_000) }] }), (error: unknown) => {
      assert.ok(error instanceof Anthropic.APIError);
      assert.equal(error.status, 413);
      assert.equal((error.error as { error: { type: string } }).error.type, 'request_too_large');
      return true;
    });
    assert.equal(harness.upstream.received.length, 0, 'neither reached the provider');
  });

  it('passes count_tokens and the models list through untouched', async () => {
    harness = await startHarness((request) => ({ kind: 'json', body: request.url.startsWith('/v1/models') ? { data: [{ id: 'claude-sonnet-4-5', type: 'model' }], has_more: false } : { input_tokens: 42 } }));
    const counted = await client(harness).messages.countTokens({ model: 'claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(counted.input_tokens, 42);
    const models = await client(harness).models.list();
    assert.deepEqual(models.data.map((model) => model.id), ['claude-sonnet-4-5']);
    assert.deepEqual(harness.upstream.received.map((request) => request.url.split('?')[0]), ['/v1/messages/count_tokens', '/v1/models']);
    assert.equal(harness.upstream.received[0]!.headers.authorization, `Bearer ${KEY}`);
  });

  describe('in-turn retrieve', () => {
    /** Round 1 asks Herald for the masked original (after some text), round 2 answers with it. */
    function retrieveScript(stream: boolean) {
      return (request: { json: Record<string, unknown> | undefined }) => {
        const answered = JSON.stringify(request.json).includes('"tool_use_id":"toolu_h"');
        const usage = { input: answered ? 1001 : 1000, output: answered ? 11 : 10, cacheRead: 900 };
        if (!answered) {
          const blocks = [{ type: 'thinking' as const, thinking: 'Need the log.', signature: 'sig-1' }, { type: 'text' as const, text: 'Let me look at the log. ' }, { type: 'tool_use' as const, id: 'toolu_h', name: 'herald_retrieve', input: { handle: handleIn(request.json) } }];
          return stream ? { kind: 'stream' as const, events: anthropicEvents({ id: 'msg_round1', blocks, usage }) } : { kind: 'json' as const, body: anthropicMessage({ id: 'msg_round1', blocks, usage }) };
        }
        const blocks = [{ type: 'text' as const, text: 'Batch 1299 took 897 ms.' }];
        return stream ? { kind: 'stream' as const, events: anthropicEvents({ id: 'msg_round2', blocks, usage }) } : { kind: 'json' as const, body: anthropicMessage({ id: 'msg_round2', blocks, usage }) };
      };
    }

    for (const stream of [true, false]) {
      it(`answers herald_retrieve inside the turn and the client sees one ${stream ? 'stream' : 'message'} (block indexes, usage, stop reason)`, async () => {
        harness = await startHarness(retrieveScript(stream));
        const body = { ...anthropicConversation(), thinking: { type: 'enabled', budget_tokens: 1024 } } as unknown as Anthropic.MessageCreateParamsNonStreaming;
        const message = stream ? await client(harness).messages.stream(body).finalMessage() : await client(harness).messages.create(body);
        assert.deepEqual(message.content.map((block) => block.type), ['thinking', 'text', 'text']);
        assert.deepEqual(message.content.slice(1).map((block) => block.type === 'text' && block.text), ['Let me look at the log. ', 'Batch 1299 took 897 ms.']);
        assert.equal(message.id, 'msg_round1', 'one message id for the client');
        assert.equal(message.stop_reason, 'end_turn', 'no tool_use stop for a call the client never saw');
        assert.equal(message.usage.output_tokens, 10 + 11, 'the usage of both rounds');
        assert.ok(!JSON.stringify(message).includes('herald_retrieve'));

        const [first, second] = harness.upstream.bodies('/v1/messages') as { tools: { name: string }[]; messages: { role: string; content: { type: string; content?: string; signature?: string }[] }[] }[];
        assert.ok(first!.tools.some((tool) => tool.name === 'herald_retrieve'), 'offered because the request carries a marker');
        assert.ok(!JSON.stringify(first!.messages).includes(BIG_OUTPUT), 'the old output went out masked');
        const answer = second!.messages.at(-1)!.content[0]!;
        assert.equal(answer.type, 'tool_result');
        assert.equal(answer.content, BIG_OUTPUT, 'the original, byte for byte');
        const assistant = second!.messages.at(-2)!;
        assert.deepEqual(assistant.content.map((block) => block.type), ['thinking', 'text', 'tool_use'], 'round 1 goes back whole, thinking first');
        assert.equal(assistant.content[0]!.signature, 'sig-1');
        const record = records(harness).at(-1)!;
        assert.equal(record.retrievals, 1);
        assert.deepEqual(record.usage, { inputTokens: 2001, outputTokens: 21, cacheReadTokens: 1800, cacheWriteTokens: 0 });
        if (!stream) return;
        const raw = await rawStream(`${harness.base}/v1/messages`, { ...body, stream: true }, { 'x-api-key': KEY });
        const events = raw.text.split('\n\n').filter(Boolean).map((event) => JSON.parse(event.split('\ndata: ')[1]!) as { type: string; index?: number });
        assert.deepEqual(events.filter((event) => event.type === 'content_block_start').map((event) => event.index), [0, 1, 2]);
        assert.deepEqual(events.filter((event) => event.type === 'content_block_stop').map((event) => event.index), [0, 1, 2]);
        assert.equal(events.filter((event) => event.type === 'message_start').length, 1);
        assert.equal(events.filter((event) => event.type === 'message_stop').length, 1);
        assert.equal(events.at(-1)!.type, 'message_stop');
      });
    }

    it('does not offer herald_retrieve when the client has its own tool of that name', async () => {
      harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'tool_use', id: 'toolu_c', name: 'herald_retrieve', input: { handle: 'mine' } }] }) });
      const body = anthropicConversation() as unknown as Anthropic.MessageCreateParamsNonStreaming;
      const own = { ...body, tools: [...(body.tools ?? []), { name: 'herald_retrieve', description: 'the client\'s', input_schema: { type: 'object' as const } }] };
      const message = await client(harness).messages.create(own);
      assert.equal(harness.upstream.received.length, 1);
      assert.deepEqual(message.content.map((block) => block.type === 'tool_use' && block.input), [{ handle: 'mine' }], 'the client\'s own call reaches it');
    });
  });
});
