/**
 * What Copilot's agent puts into a request to an extension's model, as its source shows it
 * (microsoft/vscode-copilot-chat `src/platform/endpoint/vscode-node/extChatEndpoint.ts`): the
 * internal model options, cache_control and stateful_marker data parts, thinking parts. None may
 * reach an endpoint as text or as an unknown body field.
 */
import { strict as assert } from 'node:assert';
import type { ChatRequest, Part } from '../../../src/core/chat/types';
import type { ResponseChunk } from '../../../src/core/flow/forwardTarget';
import { anthropicChunks, modelOptionsWithDropped, openAIChunks, toAnthropicBody, toOpenAIBody } from '../../../src/vscode/endpoints/endpointWire';
import { fromVscode } from '../../../src/vscode/chat/messageConversion';
import { EndpointTarget } from '../../../src/vscode/endpoints/endpointTarget';
import { FakeData, FakeThinking, fakeKit } from './fakePartKit';

/** The options Copilot's agent sends every extension-provided model (extChatEndpoint.ts, makeChatRequest2). */
const COPILOT_MODEL_OPTIONS = { _capturingTokenCorrelationId: '3f2a9c1e-0000-4000-8000-000000000000', _otelTraceContext: { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' } };

const ephemeral = (): Part => ({ type: 'data', mimeType: 'cache_control', data: Buffer.from('ephemeral').toString('base64'), encoding: 'base64' });
const statefulMarker = (): Part => ({ type: 'data', mimeType: 'stateful_marker', data: Buffer.from('gpt-5\\resp_0123456789').toString('base64'), encoding: 'base64' });
const thinking = (signature?: string): Part => ({ type: 'opaque', kind: 'LanguageModelThinkingPart', raw: { value: 'Let me check the tests first.', id: 'th_1', ...(signature ? { metadata: { signature } } : {}) } });

function requestWith(parts: { system?: Part[]; user: Part[]; assistant?: Part[]; next?: Part[] }, modelOptions?: Record<string, unknown>): ChatRequest {
  return {
    format: 'vscode',
    messages: [
      ...(parts.system ? [{ role: 'system' as const, parts: parts.system, contentShape: 'parts' as const }] : []),
      { role: 'user', parts: parts.user, contentShape: 'parts' },
      ...(parts.assistant ? [{ role: 'assistant' as const, parts: parts.assistant, contentShape: 'parts' as const }] : []),
      ...(parts.next ? [{ role: 'user' as const, parts: parts.next, contentShape: 'parts' as const }] : []),
    ],
    tools: [],
    options: modelOptions ? { modelOptions } : {},
  };
}

async function collect(items: AsyncIterable<ResponseChunk>): Promise<ResponseChunk[]> {
  const found: ResponseChunk[] = [];
  for await (const item of items) found.push(item);
  return found;
}

async function* events(list: readonly unknown[]): AsyncGenerator<string> {
  for (const event of list) yield typeof event === 'string' ? event : JSON.stringify(event);
}

describe("Copilot's agent on an endpoint's wire", () => {
  it("never passes Copilot's internal model options into an OpenAI or Anthropic body", () => {
    const request = requestWith({ user: [{ type: 'text', text: 'hi' }] }, { ...COPILOT_MODEL_OPTIONS, temperature: 0.2 });
    const openai = toOpenAIBody(request, 'gpt-4.1', 1000);
    const anthropic = toAnthropicBody(request, 'claude-sonnet-4-5', 1000);
    for (const body of [openai, anthropic]) {
      assert.equal(body._capturingTokenCorrelationId, undefined);
      assert.equal(body._otelTraceContext, undefined);
      assert.ok(!JSON.stringify(body).includes('_otelTraceContext') && !JSON.stringify(body).includes('3f2a9c1e'), 'no trace of them anywhere in the body');
      assert.equal(body.temperature, 0.2, 'a documented option still passes');
    }
    assert.deepEqual(modelOptionsWithDropped('openai', request.options).dropped.sort(), ['_capturingTokenCorrelationId', '_otelTraceContext']);
  });

  it('passes documented options (camelCase mapped) and drops fields the API does not document', () => {
    const { fields, dropped } = modelOptionsWithDropped('openai', { modelOptions: { reasoningEffort: 'low', response_format: { type: 'json_object' }, madeUpField: 1, model: 'other' } });
    assert.deepEqual(fields, { reasoning_effort: 'low', response_format: { type: 'json_object' } });
    assert.deepEqual(dropped.sort(), ['madeUpField', 'model']);
    assert.deepEqual(modelOptionsWithDropped('anthropic', { modelOptions: { topK: 5, seed: 1 } }).fields, { top_k: 5 });
  });

  it("turns Copilot's cache_control data parts into Anthropic breakpoints on the block before them", () => {
    const request = requestWith({ system: [{ type: 'text', text: 'You are an agent.' }, ephemeral()], user: [{ type: 'text', text: 'Fix the bug.' }, ephemeral()] });
    const body = toAnthropicBody(request, 'claude-sonnet-4-5', 1000) as { system: { text: string; cache_control?: unknown }[]; messages: { content: { type: string; text?: string; cache_control?: unknown }[] }[] };
    assert.deepEqual(body.messages[0]!.content, [{ type: 'text', text: 'Fix the bug.', cache_control: { type: 'ephemeral' } }]);
    assert.ok(!JSON.stringify(body).includes('ZXBoZW1lcmFs') && !JSON.stringify(body).includes('[cache_control'), 'the marker never travels as text or data');
  });

  it("merges them with Herald's own and keeps at most four (the last ones)", () => {
    const hinted = (text: string): Part => ({ type: 'text', text, extra: { cache_control: { type: 'ephemeral' } } });
    const request = requestWith({ user: [hinted('one'), { type: 'text', text: 'two' }, ephemeral(), hinted('three')], assistant: [{ type: 'text', text: 'four' }, ephemeral()], next: [hinted('five'), { type: 'text', text: 'six' }, ephemeral()] });
    const body = toAnthropicBody(request, 'claude-sonnet-4-5', 1000) as { messages: { content: { text?: string; cache_control?: unknown }[] }[] };
    const marked = body.messages.flatMap((message) => message.content).filter((block) => block.cache_control !== undefined).map((block) => block.text);
    assert.deepEqual(marked, ['three', 'four', 'five', 'six']);
  });

  it('drops stateful_marker parts for both APIs, never as text', () => {
    const request = requestWith({ user: [{ type: 'text', text: 'q' }], assistant: [{ type: 'text', text: 'a' }, statefulMarker()], next: [{ type: 'text', text: 'q2' }] });
    for (const body of [toOpenAIBody(request, 'gpt-5', 100), toAnthropicBody(request, 'claude-sonnet-4-5', 100)]) {
      const text = JSON.stringify(body);
      assert.ok(!text.includes('stateful_marker') && !text.includes('resp_0123456789') && !text.includes(Buffer.from('gpt-5\\resp_0123456789').toString('base64')), text);
    }
  });

  it('keeps signed thinking for Anthropic, first in its turn; leaves unsigned thinking out; never sends thinking to OpenAI', () => {
    const request = requestWith({ user: [{ type: 'text', text: 'q' }], assistant: [{ type: 'text', text: 'Running the tests.' }, thinking('sig-abc')], next: [{ type: 'text', text: 'q2' }] });
    const body = toAnthropicBody(request, 'claude-sonnet-4-5', 100) as { messages: { role: string; content: Record<string, unknown>[] }[] };
    assert.deepEqual(body.messages[1]!.content, [{ type: 'thinking', thinking: 'Let me check the tests first.', signature: 'sig-abc' }, { type: 'text', text: 'Running the tests.' }]);
    const unsigned = toAnthropicBody(requestWith({ user: [{ type: 'text', text: 'q' }], assistant: [{ type: 'text', text: 'A.' }, thinking()], next: [{ type: 'text', text: 'q2' }] }), 'claude-sonnet-4-5', 100);
    assert.ok(!JSON.stringify(unsigned).includes('Let me check'), 'an unsigned block would be rejected; it is not turned into text either');
    assert.ok(!JSON.stringify(toOpenAIBody(request, 'gpt-4.1', 100)).includes('Let me check'));
  });

  it("carries VS Code's data parts through the converter as data, so the wire writers see their mime types", () => {
    const request = fromVscode([{ role: 2, content: [fakeKit.text('hi'), new FakeData(new TextEncoder().encode('ephemeral'), 'cache_control'), new FakeThinking('hm', 'th_1')], name: undefined }], undefined, fakeKit);
    assert.equal(request.messages[0]!.parts[1]!.type, 'data');
    assert.equal((request.messages[0]!.parts[1] as { mimeType: string }).mimeType, 'cache_control');
    assert.equal(request.messages[0]!.parts[2]!.type, 'opaque', 'thinking stays the very object VS Code gave');
    assert.match((request.messages[0]!.parts[2] as { kind: string }).kind, /Thinking/);
  });
});

describe('usage figures from the streams', () => {
  it('asks OpenAI for usage and reads the last event', async () => {
    assert.deepEqual(toOpenAIBody(requestWith({ user: [{ type: 'text', text: 'q' }] }), 'gpt-4.1').stream_options, { include_usage: true });
    const chunks = await collect(openAIChunks(events([{ choices: [{ delta: { content: 'ok' } }] }, { choices: [], usage: { prompt_tokens: 2048, completion_tokens: 7, total_tokens: 2055, prompt_tokens_details: { cached_tokens: 1024 } } }, '[DONE]'])));
    assert.deepEqual(chunks, [{ type: 'text', text: 'ok' }, { type: 'usage', usage: { inputTokens: 1024, cacheReadTokens: 1024, cacheWriteTokens: 0, outputTokens: 7 } }]);
  });

  it("merges Anthropic's message_start and message_delta usage into one figure", async () => {
    const chunks = await collect(
      anthropicChunks(
        events([
          { type: 'message_start', message: { usage: { input_tokens: 20, cache_read_input_tokens: 5000, cache_creation_input_tokens: 700, output_tokens: 1 } } },
          { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'done' } },
          { type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 42 } },
          { type: 'message_stop' },
        ]),
      ),
    );
    assert.deepEqual(chunks.at(-1), { type: 'usage', usage: { inputTokens: 20, cacheReadTokens: 5000, cacheWriteTokens: 700, outputTokens: 42 } });
  });
});

describe('thinking from an Anthropic endpoint, kept intact', () => {
  it('streams a signed thinking block as one part and gives it back, first, on the round Herald answers itself', async () => {
    const stream = [
      { type: 'message_start', message: { usage: { input_tokens: 5, output_tokens: 1 } } },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'The marker hides ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'the log.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'EqQB' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 'toolu_1', name: 'herald_retrieve' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"handle":"hr_aaaaaaaaaaaaaaaa"}' } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_stop' },
    ].map((event) => `data: ${JSON.stringify(event)}\n\n`).join('');
    const target = new EndpointTarget({ name: 'claude', kind: 'anthropic', url: 'http://127.0.0.1:9/v1', model: 'claude-sonnet-4-5', maxInputTokens: 200_000, maxOutputTokens: 1000, toolCalling: true, imageInput: false }, async () => 'k', async () => ({ ok: true, status: 200, statusText: 'OK', body: (async function* () { yield new TextEncoder().encode(stream); })(), text: async () => '' }));
    const request = requestWith({ user: [{ type: 'text', text: 'q' }] });
    const chunks = await collect(target.send(request, new AbortController().signal));
    const thought = chunks.find((chunk) => chunk.type === 'other');
    assert.deepEqual(thought, { type: 'other', part: { heraldThinking: { text: 'The marker hides the log.', signature: 'EqQB' } } });
    const call = chunks.find((chunk) => chunk.type === 'tool_call') as Extract<ResponseChunk, { type: 'tool_call' }>;
    const next = target.continueAfter(request, { text: '', calls: [{ call, answer: 'the log' }] });
    const body = toAnthropicBody(next, 'claude-sonnet-4-5', 100) as { messages: { role: string; content: { type: string }[] }[] };
    assert.deepEqual(body.messages[1]!.content.map((block) => block.type), ['thinking', 'tool_use']);
    assert.deepEqual(body.messages[1]!.content[0], { type: 'thinking', thinking: 'The marker hides the log.', signature: 'EqQB' });
    assert.deepEqual(body.messages[2]!.content.map((block) => block.type), ['tool_result']);
  });
});
