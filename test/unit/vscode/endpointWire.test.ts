import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import type { ResponseChunk } from '../../../src/core/flow/forwardTarget';
import { anthropicChunks, openAIChunks, serverSentData, toAnthropicBody, toOpenAIBody } from '../../../src/vscode/endpoints/endpointWire';
import { EndpointTarget, type FetchFunction } from '../../../src/vscode/endpoints/endpointTarget';

/** A byte stream cut at the given sizes, to prove events are reassembled across chunk borders. */
async function* bytes(text: string, size: number): AsyncGenerator<Uint8Array> {
  const encoded = new TextEncoder().encode(text);
  for (let start = 0; start < encoded.length; start += size) yield encoded.slice(start, start + size);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const found: T[] = [];
  for await (const item of items) found.push(item);
  return found;
}

const openAIStream = [
  { choices: [{ delta: { role: 'assistant', content: 'Héllo' } }] },
  { choices: [{ delta: { content: ' wörld' } }] },
  { choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', function: { name: 'run', arguments: '{"comm' } }] } }] },
  { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: 'and":"ls"}' } }] } }] },
].map((event) => `data: ${JSON.stringify(event)}\n\n`).join('') + 'data: [DONE]\n\n';

const request: ChatRequest = {
  format: 'vscode',
  messages: [
    { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], contentShape: 'parts' },
    { role: 'user', parts: [{ type: 'text', text: 'List files' }], contentShape: 'parts' },
    { role: 'assistant', parts: [{ type: 'tool_call', id: 'a', name: 'run', arguments: { command: 'ls' } }, { type: 'tool_call', id: 'b', name: 'run', arguments: { command: 'pwd' } }], contentShape: 'parts' },
    {
      role: 'user',
      parts: [
        { type: 'tool_result', callId: 'a', content: [{ type: 'text', text: 'a.ts' }], contentShape: 'parts' },
        { type: 'tool_result', callId: 'b', content: [{ type: 'text', text: '/work' }], contentShape: 'parts' },
        { type: 'text', text: 'Now explain.' },
      ],
      contentShape: 'parts',
    },
  ],
  tools: [{ name: 'run', description: 'Runs', inputSchema: { type: 'object', properties: {} } }],
  options: {},
};

describe('endpoint wire formats', () => {
  for (const size of [1, 7, 4096]) {
    it(`reassembles OpenAI stream events cut every ${size} bytes (multi-byte characters included)`, async () => {
      const chunks = await collect(openAIChunks(serverSentData(bytes(openAIStream, size))));
      assert.deepEqual(chunks, [
        { type: 'text', text: 'Héllo' },
        { type: 'text', text: ' wörld' },
        { type: 'tool_call', id: 'call_1', name: 'run', input: { command: 'ls' } },
      ] satisfies ResponseChunk[]);
    });
  }

  it('reads Anthropic events: text deltas as they come, a tool call when its block stops', async () => {
    const events = [
      { type: 'message_start', message: {} },
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'tu_1', name: 'run', input: {} } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"command"' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: ':"ls"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_stop' },
    ].map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('');
    assert.deepEqual(await collect(anthropicChunks(serverSentData(bytes(events, 5)))), [
      { type: 'text', text: 'Hi' },
      { type: 'tool_call', id: 'tu_1', name: 'run', input: { command: 'ls' } },
    ]);
  });

  it('throws the endpoint\'s error message from a stream error event', async () => {
    await assert.rejects(collect(anthropicChunks(serverSentData(bytes('data: {"type":"error","error":{"message":"overloaded"}}\n\n', 3)))), /overloaded/);
    await assert.rejects(collect(openAIChunks(serverSentData(bytes('data: {"error":{"message":"bad key"}}\n\n', 3)))), /bad key/);
  });

  it('writes an OpenAI body with one tool message per result, before the text that followed them', () => {
    const body = toOpenAIBody(request, 'gpt-x', 500);
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'List files' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'run', arguments: '{"command":"ls"}' } }, { id: 'b', type: 'function', function: { name: 'run', arguments: '{"command":"pwd"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: 'a.ts' },
      { role: 'tool', tool_call_id: 'b', content: '/work' },
      { role: 'user', content: 'Now explain.' },
    ]);
    assert.equal(body.model, 'gpt-x');
    assert.equal(body.stream, true);
    assert.equal(body.max_tokens, 500);
    assert.deepEqual(body.tools, [{ type: 'function', function: { name: 'run', description: 'Runs', parameters: { type: 'object', properties: {} } } }]);
  });

  it('writes an Anthropic body: system on top, results first in their user turn', () => {
    const body = toAnthropicBody(request, 'claude-x');
    assert.equal(body.system, 'Be brief.');
    assert.deepEqual(body.messages, [
      { role: 'user', content: [{ type: 'text', text: 'List files' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'run', input: { command: 'ls' } }, { type: 'tool_use', id: 'b', name: 'run', input: { command: 'pwd' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'a.ts' }, { type: 'tool_result', tool_use_id: 'b', content: '/work' }, { type: 'text', text: 'Now explain.' }] },
    ]);
    assert.deepEqual(body.tools, [{ name: 'run', description: 'Runs', input_schema: { type: 'object', properties: {} } }]);
  });
});

describe('endpoint target', () => {
  const endpoint = { name: 'mine', kind: 'openai' as const, url: 'http://127.0.0.1:9/v1/', model: 'm', maxInputTokens: 1000, maxOutputTokens: 100, toolCalling: true, imageInput: false };

  function recordingFetch(status: number, body: string): { calls: { url: string; headers: Record<string, string>; body: string }[]; fetch: FetchFunction } {
    const calls: { url: string; headers: Record<string, string>; body: string }[] = [];
    return {
      calls,
      fetch: async (url, init) => {
        calls.push({ url, headers: init.headers, body: init.body ?? '' });
        return { ok: status < 400, status, statusText: status < 400 ? 'OK' : 'Too Many Requests', body: bytes(body, 9), text: async () => body };
      },
    };
  }

  it('posts to <url>/chat/completions with the key from secret storage and streams the answer', async () => {
    const fake = recordingFetch(200, openAIStream);
    const target = new EndpointTarget(endpoint, async () => 'sk-test', fake.fetch);
    const chunks = await collect(target.send(request, new AbortController().signal));
    assert.equal(chunks.length, 3);
    assert.equal(fake.calls[0]!.url, 'http://127.0.0.1:9/v1/chat/completions');
    assert.equal(fake.calls[0]!.headers.authorization, 'Bearer sk-test');
    assert.equal(target.information.id, 'endpoint:mine');
  });

  it('uses x-api-key and anthropic-version for Anthropic endpoints, and no key header without a key', async () => {
    const fake = recordingFetch(200, 'data: {"type":"message_stop"}\n\n');
    await collect(new EndpointTarget({ ...endpoint, kind: 'anthropic' }, async () => 'ak', fake.fetch).send(request, new AbortController().signal));
    assert.equal(fake.calls[0]!.url, 'http://127.0.0.1:9/v1/messages');
    assert.equal(fake.calls[0]!.headers['x-api-key'], 'ak');
    assert.ok(fake.calls[0]!.headers['anthropic-version']);
    const keyless = recordingFetch(200, 'data: [DONE]\n\n');
    await collect(new EndpointTarget(endpoint, async () => undefined, keyless.fetch).send(request, new AbortController().signal));
    assert.equal(keyless.calls[0]!.headers.authorization, undefined);
  });

  it("fails with the endpoint's status and message", async () => {
    const fake = recordingFetch(429, '{"error":{"message":"slow down"}}');
    await assert.rejects(collect(new EndpointTarget(endpoint, async () => undefined, fake.fetch).send(request, new AbortController().signal)), /"mine" \(http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions\) answered 429 Too Many Requests: slow down\. Rate-limited/);
  });
});
