/**
 * `herald serve` with the official OpenAI client in front (Chat Completions and the Responses
 * API) and a recording fake provider behind.
 */
import { strict as assert } from 'node:assert';
import OpenAI from 'openai';
import { chatCompletion, chatEvents, responseObject, responsesEvents } from './providerAnswers';
import { BIG_OUTPUT, chatConversation, handleIn, rawStream, records, responsesConversation, startHarness, type Harness } from './harness';

const KEY = 'sk-proj-test-key-0123456789';

function client(harness: Harness): OpenAI {
  return new OpenAI({ apiKey: KEY, baseURL: `${harness.base}/v1`, maxRetries: 0, organization: 'org-test', project: 'proj-test' });
}

const small = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'Say hello.' }] };

/** The SSE events of a raw answer, parsed ([DONE] left out). */
function eventsOf(text: string): Record<string, unknown>[] {
  return text.split('\n\n').filter(Boolean).map((event) => event.split('\n').find((line) => line.startsWith('data: '))!.slice(6)).filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as Record<string, unknown>);
}

describe('gateway: OpenAI Chat Completions through the official client', function () {
  this.timeout(20_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('answers a whole completion and forwards the credential and organization headers unchanged', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'Hello!' }) });
    const completion = await client(harness).chat.completions.create(small);
    assert.equal(completion.choices[0]!.message.content, 'Hello!');
    const received = harness.upstream.received[0]!;
    assert.equal(received.url, '/v1/chat/completions');
    assert.equal(received.headers.authorization, `Bearer ${KEY}`);
    assert.equal(received.headers['openai-organization'], 'org-test');
    assert.equal(received.headers['openai-project'], 'proj-test');
    assert.deepEqual(received.json, small);
  });

  it('streams text and parallel tool calls byte for byte', async () => {
    const events = chatEvents({ text: 'Reading both.', calls: [{ id: 'call_a', name: 'read', arguments: '{"path":"a.ts"}' }, { id: 'call_b', name: 'read', arguments: '{"path":"b.ts"}' }], usage: { prompt: 50, completion: 9 } });
    harness = await startHarness({ kind: 'stream', events });
    const final = await client(harness).chat.completions.stream({ ...small, stream_options: { include_usage: true } }).finalChatCompletion();
    assert.equal(final.choices[0]!.message.content, 'Reading both.');
    assert.deepEqual(final.choices[0]!.message.tool_calls?.map((call) => call.type === 'function' && [call.id, call.function.arguments]), [['call_a', '{"path":"a.ts"}'], ['call_b', '{"path":"b.ts"}']]);
    // Another question: the same one again would be served from semantic_cache.
    const raw = await rawStream(`${harness.base}/v1/chat/completions`, { ...small, messages: [{ role: 'user', content: 'Read both.' }], stream: true }, { authorization: `Bearer ${KEY}` });
    assert.equal(raw.text, events.map((event) => `data: ${typeof event.data === 'string' ? event.data : JSON.stringify(event.data)}\n\n`).join(''));
  });

  it('sends a repeated agent step (an answer that calls a tool) to the provider again instead of serving it from the cache', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'Run it.', calls: [{ id: 'call_r', name: 'bash', arguments: '{"command":"ls"}' }] }) });
    const ask = { model: 'gpt-4o', messages: [{ role: 'user' as const, content: 'List the files.' }], tools: [{ type: 'function' as const, function: { name: 'bash', parameters: { type: 'object' } } }] };
    await client(harness).chat.completions.create(ask);
    const again = await client(harness).chat.completions.stream(ask).finalChatCompletion();
    assert.equal(harness.upstream.received.length, 2, 'semantic_cache serves a tool call only with serveToolCalls');
    assert.deepEqual(again.choices[0]!.message.tool_calls?.map((call) => call.type === 'function' && [call.id, call.function.name, call.function.arguments]), [['call_r', 'bash', '{"command":"ls"}']]);
    assert.equal(again.choices[0]!.finish_reason, 'tool_calls');
  });

  it('forwards images untouched', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'A cat.' }) });
    const image = { type: 'image_url' as const, image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' as const } };
    await client(harness).chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is it?' }, image] }] });
    assert.deepEqual((harness.upstream.received[0]!.json!.messages as { content: unknown[] }[])[0]!.content[1], image);
  });

  for (const status of [400, 401, 429, 500]) {
    it(`passes an upstream ${status} through with its headers and body`, async () => {
      const body = JSON.stringify({ error: { message: `upstream says ${status}`, type: 'x', param: null, code: 'c' } });
      const headers = { 'retry-after': '3', 'x-ratelimit-remaining-requests': '0', 'x-ratelimit-reset-tokens': '6m0s', 'x-request-id': 'req_o' };
      harness = await startHarness({ kind: 'raw', status, body, headers });
      await assert.rejects(client(harness).chat.completions.create(small), (error: unknown) => {
        assert.ok(error instanceof OpenAI.APIError);
        assert.equal(error.status, status);
        assert.equal(error.message.includes(`upstream says ${status}`), true);
        for (const [name, value] of Object.entries(headers)) assert.equal(error.headers?.get(name), value, name);
        return true;
      });
    });
  }

  it('answers malformed JSON with a 400 in OpenAI\'s error shape', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'x' }) });
    const response = await fetch(`${harness.base}/v1/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    assert.equal(response.status, 400);
    const body = (await response.json()) as { error: { message: string; type: string } };
    assert.equal(body.error.type, 'invalid_request_error');
    assert.match(body.error.message, /^Herald: the request body is not valid JSON/);
  });

  it('passes the models list through', async () => {
    harness = await startHarness({ kind: 'json', body: { object: 'list', data: [{ id: 'gpt-4o', object: 'model', created: 1, owned_by: 'openai' }] } });
    const models = await client(harness).models.list();
    assert.deepEqual(models.data.map((model) => model.id), ['gpt-4o']);
    assert.equal(harness.upstream.received[0]!.url, '/v1/models');
  });

  for (const stream of [true, false]) {
    it(`answers herald_retrieve inside the turn; the client sees one ${stream ? 'stream' : 'completion'} with its own calls renumbered`, async () => {
      harness = await startHarness((request) => {
        const answered = JSON.stringify(request.json).includes('"tool_call_id":"call_h"');
        const answer = answered
          ? { id: 'chatcmpl-2', text: 'Batch 1299 is slow.', calls: [{ id: 'call_c', name: 'bash', arguments: '{"command":"top"}' }], usage: { prompt: 2000, completion: 12, cached: 1500 } }
          : { id: 'chatcmpl-1', text: 'Checking. ', calls: [{ id: 'call_h', name: 'herald_retrieve', arguments: JSON.stringify({ handle: handleIn(request.json) }) }], usage: { prompt: 1000, completion: 8 } };
        return stream ? { kind: 'stream', events: chatEvents(answer) } : { kind: 'json', body: chatCompletion(answer) };
      });
      const body = chatConversation() as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming;
      const completion = stream ? await client(harness).chat.completions.stream({ ...(body as unknown as OpenAI.ChatCompletionCreateParamsStreaming), stream_options: { include_usage: true } }).finalChatCompletion() : await client(harness).chat.completions.create(body);
      const message = completion.choices[0]!.message;
      assert.equal(message.content, 'Checking. Batch 1299 is slow.');
      assert.deepEqual(message.tool_calls?.map((call) => call.type === 'function' && call.function.name), ['bash'], 'only the client\'s own call');
      assert.equal(completion.id, 'chatcmpl-1');
      assert.equal(completion.choices[0]!.finish_reason, 'tool_calls');
      assert.equal(completion.usage?.completion_tokens, 20, 'both rounds');
      assert.equal(completion.usage?.prompt_tokens, 3000);
      const [, second] = harness.upstream.bodies('/chat/completions') as { messages: { role: string; content: unknown; tool_calls?: unknown[] }[] }[];
      assert.deepEqual(second!.messages.slice(-2).map((message) => message.role), ['assistant', 'tool']);
      assert.equal(second!.messages.at(-1)!.content, BIG_OUTPUT);
      if (stream) {
        // Another question over the same history: an exact repeat would be answered by semantic_cache, not the provider.
        const asked = { ...body, messages: body.messages.map((message, index) => (index === 1 ? { role: 'user' as const, content: 'Find why the worker is slow since Monday.' } : message)) };
        const raw = await rawStream(`${harness.base}/v1/chat/completions`, { ...asked, stream: true }, { authorization: `Bearer ${KEY}` });
        const chunks = eventsOf(raw.text) as { id: string; choices: { delta: { tool_calls?: { index: number; id?: string }[] }; finish_reason: string | null }[] }[];
        assert.ok(chunks.every((chunk) => chunk.id === 'chatcmpl-1'), 'one completion id');
        const calls = chunks.flatMap((chunk) => chunk.choices[0]?.delta.tool_calls ?? []);
        assert.deepEqual([...new Set(calls.map((call) => call.index))], [0], 'the client\'s call is index 0');
        assert.equal(chunks.filter((chunk) => chunk.choices[0]?.finish_reason).length, 1, 'one finish');
        assert.ok(raw.text.endsWith('data: [DONE]\n\n'));
        assert.ok(!raw.text.includes('herald_retrieve'));
      }
      assert.equal(records(harness).at(-1)!.retrievals, 1);
    });
  }
});

describe('gateway: OpenAI Responses through the official client', function () {
  this.timeout(20_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('streams reasoning, a message and parallel function calls byte for byte, previous_response_id untouched', async () => {
    const events = responsesEvents({ items: [{ type: 'reasoning', id: 'rs_1', summary: 'Read both.', encrypted: 'enc==' }, { type: 'message', id: 'msg_1', text: 'Reading.' }, { type: 'function_call', id: 'fc_1', call_id: 'call_a', name: 'shell', arguments: '{"command":["cat","a"]}' }, { type: 'function_call', id: 'fc_2', call_id: 'call_b', name: 'shell', arguments: '{"command":["cat","b"]}' }] });
    harness = await startHarness({ kind: 'stream', events });
    const request = { model: 'gpt-5', input: 'Read a and b.', previous_response_id: 'resp_prev', reasoning: { effort: 'low' as const, summary: 'auto' as const } };
    const final = await client(harness).responses.stream(request).finalResponse();
    assert.deepEqual(final.output.map((item) => item.type), ['reasoning', 'message', 'function_call', 'function_call']);
    assert.equal(final.output_text, 'Reading.');
    assert.deepEqual(harness.upstream.received[0]!.json, { ...request, stream: true });
    const raw = await rawStream(`${harness.base}/v1/responses`, { ...request, stream: true }, { authorization: `Bearer ${KEY}` });
    assert.equal(raw.text, events.map((event) => `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`).join(''));
  });

  it('streams a cached answer to a stateless request as the Responses API would have, and never one to a stored request', async () => {
    harness = await startHarness((_request, index) => ({ kind: 'json', body: responseObject({ id: `resp_${index}`, items: [{ type: 'message', id: `msg_${index}`, text: `Answer ${index}.` }] }) }));
    const ask = { model: 'gpt-5', input: 'Capital of France?', store: false };
    await client(harness).responses.create(ask);
    const cached = await client(harness).responses.stream(ask).finalResponse();
    assert.equal(cached.output_text, 'Answer 0.');
    assert.equal(harness.upstream.received.length, 1);
    const stored = { model: 'gpt-5', input: 'Capital of Spain?' };
    await client(harness).responses.create(stored);
    const again = await client(harness).responses.create(stored);
    assert.equal(again.id, 'resp_2', 'a stored request always gets the provider\'s own response (its id is what the client keeps)');
  });

  it('answers a whole response', async () => {
    harness = await startHarness({ kind: 'json', body: responseObject({ items: [{ type: 'message', id: 'msg_1', text: 'Hi.' }] }) });
    const response = await client(harness).responses.create({ model: 'gpt-5', input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }] }] });
    assert.equal(response.output_text, 'Hi.');
    assert.equal(((harness.upstream.received[0]!.json!.input as { content: { type: string }[] }[])[0]!.content[1]!.type), 'input_image');
  });

  for (const stream of [true, false]) {
    it(`answers herald_retrieve inside a stateless turn; the client sees one ${stream ? 'stream' : 'response'} (output indexes, sequence numbers, output list)`, async () => {
      harness = await startHarness((request) => {
        const answered = JSON.stringify(request.json).includes('"call_id":"call_h","output"');
        const answer = answered
          ? { id: 'resp_2', items: [{ type: 'message' as const, id: 'msg_2', text: 'Batch 1299 is slow.' }], usage: { input: 2000, output: 12, cached: 1500 } }
          : { id: 'resp_1', items: [{ type: 'reasoning' as const, id: 'rs_1', summary: 'Need the log.', encrypted: 'enc-1' }, { type: 'message' as const, id: 'msg_1', text: 'Checking. ' }, { type: 'function_call' as const, id: 'fc_h', call_id: 'call_h', name: 'herald_retrieve', arguments: JSON.stringify({ handle: handleIn(request.json) }) }], usage: { input: 1000, output: 8 } };
        return stream ? { kind: 'stream', events: responsesEvents(answer) } : { kind: 'json', body: responseObject(answer) };
      });
      const body = responsesConversation() as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
      const response = stream ? await client(harness).responses.stream(body as unknown as OpenAI.Responses.ResponseCreateParamsStreaming).finalResponse() : await client(harness).responses.create(body);
      assert.deepEqual(response.output.map((item) => item.type), ['reasoning', 'message', 'message']);
      assert.equal(response.output_text, 'Checking. Batch 1299 is slow.');
      assert.equal(response.id, 'resp_1');
      assert.equal(response.usage?.output_tokens, 20);
      const [first, second] = harness.upstream.bodies('/responses') as { tools: { name: string }[]; input: Record<string, unknown>[] }[];
      assert.ok(first!.tools.some((tool) => tool.name === 'herald_retrieve'));
      assert.deepEqual(second!.input.slice(-4).map((item) => item.type), ['reasoning', 'message', 'function_call', 'function_call_output']);
      assert.equal(second!.input.at(-4)!.encrypted_content, 'enc-1', 'reasoning goes back with its encrypted content');
      assert.equal(second!.input.at(-1)!.output, BIG_OUTPUT);
      if (stream) {
        const raw = await rawStream(`${harness.base}/v1/responses`, { ...body, stream: true }, { authorization: `Bearer ${KEY}` });
        const events = eventsOf(raw.text) as { type: string; sequence_number: number; output_index?: number; response?: { id: string } }[];
        assert.deepEqual(events.map((event) => event.sequence_number), events.map((_, index) => index), 'no gap in sequence numbers');
        assert.deepEqual(events.filter((event) => event.type === 'response.output_item.added').map((event) => event.output_index), [0, 1, 2]);
        assert.ok(events.filter((event) => event.response).every((event) => event.response!.id === 'resp_1'));
        assert.deepEqual(events.filter((event) => event.type.startsWith('response.') && ['response.created', 'response.completed'].includes(event.type)).map((event) => event.type), ['response.created', 'response.completed']);
        assert.ok(!raw.text.includes('herald_retrieve'));
      }
    });
  }

  it('offers no herald_retrieve on a stored (stateful) request: the ids the client keeps must be the provider\'s', async () => {
    harness = await startHarness({ kind: 'json', body: responseObject({ items: [{ type: 'message', id: 'msg_1', text: 'ok' }] }) });
    const body = { ...responsesConversation(), store: true } as unknown as OpenAI.Responses.ResponseCreateParamsNonStreaming;
    await client(harness).responses.create(body);
    const sent = harness.upstream.bodies('/responses')[0] as { tools: { name: string }[]; input: unknown[] };
    assert.ok(!sent.tools.some((tool) => tool.name === 'herald_retrieve'));
    assert.ok(!JSON.stringify(sent.input).includes(BIG_OUTPUT), 'still optimized');
  });
});
