import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { CONTEXT_MANAGEMENT_BETA, createProviderContextTrim } from '../../../src/core/strategies/providerContextTrim';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { EndpointTarget, type FetchFunction } from '../../../src/vscode/endpoints/endpointTarget';
import { modelOptionsFor, toAnthropicBody, toOpenAIBody } from '../../../src/vscode/endpoints/endpointWire';

function ask(options: Record<string, unknown>, format: ChatRequest['format'] = 'vscode'): ChatRequest {
  return {
    format,
    messages: [
      { role: 'system', parts: [{ type: 'text', text: 'Be brief.' }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'text', text: 'Hello' }], contentShape: 'parts' },
    ],
    tools: [{ name: 'run', description: 'Runs', inputSchema: { type: 'object' } }],
    options,
  };
}

function recordingFetch(answer: string): { bodies: Record<string, unknown>[]; headers: Record<string, string>[]; fetch: FetchFunction } {
  const bodies: Record<string, unknown>[] = [];
  const headers: Record<string, string>[] = [];
  return {
    bodies,
    headers,
    fetch: async (_url, init) => {
      bodies.push(JSON.parse(init.body ?? '{}') as Record<string, unknown>);
      headers.push(init.headers);
      return { ok: true, status: 200, statusText: 'OK', body: (async function* () { yield new TextEncoder().encode(answer); })(), text: async () => answer };
    },
  };
}

const anthropicEndpoint = { name: 'claude', kind: 'anthropic' as const, url: 'http://127.0.0.1:9/v1', model: 'claude-x', maxInputTokens: 200_000, maxOutputTokens: 4096, toolCalling: true, imageInput: false };

describe('endpoint model options and Anthropic betas', () => {
  it('forwards modelOptions to OpenAI bodies, camelCase mapped, without overriding what Herald writes', () => {
    const body = toOpenAIBody(ask({ modelOptions: { temperature: 0.2, maxTokens: 77, topP: 0.9, stop: 'END', model: 'other', stream: false, logprobs: true } }), 'gpt-x', 100);
    assert.equal(body.temperature, 0.2);
    assert.equal(body.max_tokens, 77, 'the caller\'s max tokens win over the endpoint default');
    assert.equal(body.top_p, 0.9);
    assert.equal(body.stop, 'END');
    assert.equal(body.logprobs, true, 'unknown names pass as written');
    assert.equal(body.model, 'gpt-x');
    assert.equal(body.stream, true);
  });

  it('forwards modelOptions to Anthropic bodies in its spelling and drops what Anthropic rejects', () => {
    const body = toAnthropicBody(ask({ modelOptions: { temperature: 0, max_tokens: 50, stop: 'END', seed: 3, presencePenalty: 1, system: 'x' } }), 'claude-x');
    assert.equal(body.temperature, 0);
    assert.equal(body.max_tokens, 50);
    assert.deepEqual(body.stop_sequences, ['END']);
    assert.equal(body.seed, undefined);
    assert.equal(body.presence_penalty, undefined);
    assert.equal(body.system, 'Be brief.');
    assert.deepEqual(modelOptionsFor('openai', { modelOptions: 'not an object' }), {});
  });

  it('sends provider_context_trim\'s beta as the anthropic-beta header, with context_management in the body and no betas field', async () => {
    const pipeline = new Pipeline([createProviderContextTrim()], { options: { provider_context_trim: { triggerTokens: 1 } } }, { stash: new Stash({ store: new MemoryBlobStore() }), tokens: new TokenCounter() });
    const optimized = await pipeline.run(ask({ modelOptions: { temperature: 0.1 } }, 'anthropic'), { windowTokens: 200_000 });
    assert.ok(Array.isArray(optimized.request.options.betas), 'the strategy asked for its beta');
    const fake = recordingFetch('data: {"type":"message_stop"}\n\n');
    const target = new EndpointTarget(anthropicEndpoint, async () => 'key', fake.fetch);
    for await (const chunk of target.send(optimized.request, new AbortController().signal)) void chunk;
    assert.equal(fake.headers[0]!['anthropic-beta'], CONTEXT_MANAGEMENT_BETA);
    assert.equal(fake.bodies[0]!.betas, undefined);
    assert.ok(fake.bodies[0]!.context_management, 'the edit travels in the body');
    assert.equal(fake.bodies[0]!.temperature, 0.1);
    assert.equal(target.information.wireFormat, 'anthropic');
  });

  it('sends no anthropic-beta header when nothing asked for one', async () => {
    const fake = recordingFetch('data: {"type":"message_stop"}\n\n');
    for await (const chunk of new EndpointTarget(anthropicEndpoint, async () => 'key', fake.fetch).send(ask({}), new AbortController().signal)) void chunk;
    assert.equal(fake.headers[0]!['anthropic-beta'], undefined);
  });

  it('carries cache_optimizer breakpoints as cache_control on Anthropic blocks, tools and the system prompt', () => {
    const hint = { type: 'ephemeral' };
    const request = ask({});
    const marked: ChatRequest = {
      ...request,
      messages: request.messages.map((message) => ({ ...message, parts: message.parts.map((part) => (part.type === 'text' ? { ...part, extra: { cache_control: hint } } : part)) })),
      tools: request.tools.map((tool) => ({ ...tool, extra: { cache_control: hint } })),
    };
    const body = toAnthropicBody(marked, 'claude-x');
    assert.deepEqual(body.system, [{ type: 'text', text: 'Be brief.', cache_control: hint }]);
    assert.deepEqual((body.messages as { content: unknown[] }[])[0]!.content, [{ type: 'text', text: 'Hello', cache_control: hint }]);
    assert.deepEqual((body.tools as Record<string, unknown>[])[0]!.cache_control, hint);
  });
});
