/**
 * Neutral requests as the bodies endpoints expect, and their streamed answers as chunks.
 *
 * A request that came from VS Code carries tool results inside user messages (several per
 * message, next to text), which neither wire format allows: OpenAI wants one `tool` message
 * per result, Anthropic wants `tool_result` blocks before any text. The core converters
 * round-trip their own formats exactly; these writers translate between formats instead.
 *
 * What Copilot's agent puts into a request (microsoft/vscode-copilot-chat,
 * `src/platform/endpoint/vscode-node/extChatEndpoint.ts` `convertToApiChatMessage`): cache
 * breakpoints as a `LanguageModelDataPart` of mime type `cache_control` (bytes "ephemeral",
 * `src/platform/endpoint/common/endpointTypes.ts`), its own Responses-API state as a
 * `stateful_marker` data part, and thinking as `LanguageModelThinkingPart`s; and in
 * `modelOptions` its internal `{ _capturingTokenCorrelationId, _otelTraceContext }`. None of
 * these may reach an endpoint as text or as an unknown body field: a breakpoint becomes
 * Anthropic's `cache_control` on the block before it (merged with Herald's own, at most four),
 * a stateful marker is dropped, signed thinking goes to Anthropic as a thinking block and is
 * dropped for OpenAI, and only model options an API documents are passed on.
 */
import type { ChatRequest, Part, ResultContentPart } from '../../core/chat/types';
import type { ResponseChunk } from '../../core/flow/forwardTarget';
import { anthropicUsage, openAIUsage, type ProviderUsage } from '../../core/costs/usage';

/** Copilot's mime types for data parts that are instructions to the wire, not content (`CustomDataPartMimeTypes`). */
export const CACHE_CONTROL_MIME = 'cache_control';
export const STATEFUL_MARKER_MIME = 'stateful_marker';
/** Anthropic accepts at most four cache breakpoints per request. */
const MAX_CACHE_BREAKPOINTS = 4;

type Json = Record<string, unknown>;

/** An OpenAI chat-completions body, streaming. */
export function toOpenAIBody(request: ChatRequest, model: string, maxOutputTokens?: number): Json {
  const messages: Json[] = [];
  for (const message of request.messages) {
    if (message.role === 'assistant') {
      const text = message.parts.filter((part) => part.type === 'text').map(textOf).join('');
      const calls = message.parts.flatMap((part) => (part.type === 'tool_call' ? [{ id: part.id, type: 'function', function: { name: part.name, arguments: argumentsText(part.arguments) } }] : []));
      messages.push({ role: 'assistant', content: text.length > 0 ? text : null, ...(calls.length > 0 ? { tool_calls: calls } : {}) });
      continue;
    }
    const content: Json[] = [];
    for (const part of message.parts) {
      if (part.type === 'tool_result') messages.push({ role: 'tool', tool_call_id: part.callId, content: resultText(part.content) });
      else if (part.type === 'text') content.push({ type: 'text', text: part.text });
      else if (part.type === 'data' && part.mimeType.startsWith('image/')) content.push({ type: 'image_url', image_url: { url: dataUrl(part.data, part.mimeType, part.encoding) } });
    }
    if (content.length > 0) messages.push({ role: message.role === 'system' ? 'system' : 'user', content: content.every((block) => block.type === 'text') ? content.map((block) => block.text).join('') : content });
  }
  // include_usage: the last event carries the provider's usage (prompt, cached, completion tokens).
  const body: Json = { model, messages, stream: true, stream_options: { include_usage: true } };
  if (request.tools.length > 0) body.tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description ?? '', parameters: tool.inputSchema ?? { type: 'object', properties: {} } } }));
  if (maxOutputTokens !== undefined) body.max_tokens = maxOutputTokens;
  return { ...body, ...modelOptionsFor('openai', request.options) };
}

/** An Anthropic messages body, streaming. System messages become the top-level `system`. */
export function toAnthropicBody(request: ChatRequest, model: string, maxOutputTokens = 4096): Json {
  const system: Json[] = [];
  const messages: Json[] = [];
  const push = (role: 'user' | 'assistant', blocks: Json[]): void => {
    if (blocks.length === 0) return;
    const last = messages[messages.length - 1];
    // Anthropic requires alternating roles: merge consecutive messages of one role.
    if (last && last.role === role) (last.content as Json[]).push(...blocks);
    else messages.push({ role, content: blocks });
  };
  for (const message of request.messages) {
    if (message.role === 'system') {
      const hinted = message.parts.some((part) => cacheHintOf(part).cache_control !== undefined);
      system.push({ type: 'text', text: message.parts.map(textOf).join(''), ...(hinted ? { cache_control: EPHEMERAL_HINT } : {}) });
      continue;
    }
    const results: Json[] = [];
    const others: Json[] = [];
    const thinking: Json[] = [];
    for (const part of message.parts) {
      if (part.type === 'data' && part.mimeType === CACHE_CONTROL_MIME) {
        // Copilot's breakpoint caps the content before it: the last block written so far (in this message or the one before).
        const last = [...results, ...others].at(-1) ?? lastBlock(messages);
        if (last) last.cache_control = EPHEMERAL_HINT;
        continue;
      }
      if (message.role === 'assistant') {
        const block = thinkingBlock(part);
        if (block) {
          thinking.push(block);
          continue;
        }
      }
      // cache_optimizer marks its breakpoints in the parts' extra; they travel as the blocks' cache_control.
      const hint = cacheHintOf(part);
      if (part.type === 'tool_result') results.push({ type: 'tool_result', tool_use_id: part.callId, content: resultText(part.content), ...(part.isError ? { is_error: true } : {}), ...hint });
      else if (part.type === 'text' && part.text.length > 0) others.push({ type: 'text', text: part.text, ...hint });
      else if (part.type === 'tool_call') others.push({ type: 'tool_use', id: part.id, name: part.name, input: argumentsObject(part.arguments), ...hint });
      else if (part.type === 'data' && part.encoding === 'base64' && part.mimeType.startsWith('image/')) others.push({ type: 'image', source: { type: 'base64', media_type: part.mimeType, data: part.data }, ...hint });
    }
    // Anthropic wants an assistant turn's thinking first, as it produced it.
    push(message.role === 'assistant' ? 'assistant' : 'user', [...thinking, ...results, ...others]);
  }
  const body: Json = { model, messages, max_tokens: maxOutputTokens, stream: true };
  if (system.length > 0) {
    // A plain string unless a block carries a cache breakpoint, which only the block form can hold.
    body.system = system.some((block) => block.cache_control !== undefined) ? system : system.map((block) => block.text).join('\n\n');
  }
  if (request.tools.length > 0) body.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description ?? '', input_schema: tool.inputSchema ?? { type: 'object', properties: {} }, ...(tool.extra?.cache_control !== undefined ? { cache_control: tool.extra.cache_control } : {}) }));
  // Fields strategies add for Anthropic (provider_context_trim, reasoning_budget); `betas` leaves the body as a header.
  for (const field of ANTHROPIC_REQUEST_FIELDS) if (request.options[field] !== undefined) body[field] = request.options[field];
  const written = { ...body, ...modelOptionsFor('anthropic', request.options) };
  limitCacheBreakpoints(written);
  return written;
}

/** The last content block written so far, for a breakpoint that opens a message. */
function lastBlock(messages: readonly Json[]): Json | undefined {
  const content = messages.at(-1)?.content;
  return Array.isArray(content) ? (content.at(-1) as Json | undefined) : undefined;
}

/**
 * Keeps the last four breakpoints in prompt order (tools, system, messages): the caller's and
 * Herald's together may exceed Anthropic's limit, and a later breakpoint caches a longer prefix.
 */
function limitCacheBreakpoints(body: Json): void {
  const holders: Json[] = [];
  for (const tool of (body.tools as Json[] | undefined) ?? []) if (tool.cache_control !== undefined) holders.push(tool);
  if (Array.isArray(body.system)) for (const block of body.system as Json[]) if (block.cache_control !== undefined) holders.push(block);
  for (const message of body.messages as Json[]) for (const block of (message.content as Json[]) ?? []) if (block.cache_control !== undefined) holders.push(block);
  for (const holder of holders.slice(0, Math.max(0, holders.length - MAX_CACHE_BREAKPOINTS))) delete holder.cache_control;
}

/**
 * A VS Code thinking part (`LanguageModelThinkingPart`: `value`, `id`, `metadata`) as Anthropic's
 * block: signed thinking as `thinking`, redacted thinking as `redacted_thinking`. Thinking without a
 * signature cannot be replayed to Anthropic (it rejects unsigned blocks) and is left out, never
 * turned into text.
 */
function thinkingBlock(part: Part): Json | undefined {
  if (part.type === 'opaque' && isThinkingDescriptor(part.raw)) {
    const { text, signature, redactedData } = part.raw.heraldThinking;
    if (redactedData) return { type: 'redacted_thinking', data: redactedData };
    return signature ? { type: 'thinking', thinking: text, signature } : undefined;
  }
  if (part.type !== 'opaque' || !/thinking/i.test(part.kind)) return undefined;
  const raw = part.raw as { value?: unknown; metadata?: Record<string, unknown> } | null;
  const metadata = raw?.metadata ?? {};
  const text = Array.isArray(raw?.value) ? raw.value.join('') : typeof raw?.value === 'string' ? raw.value : '';
  if (typeof metadata.redactedData === 'string') return { type: 'redacted_thinking', data: metadata.redactedData };
  if (typeof metadata.signature === 'string' && metadata.signature.length > 0) return { type: 'thinking', thinking: text, signature: metadata.signature };
  return undefined;
}

/** Request-level fields the strategies set in `request.options` that an Anthropic body carries. */
const ANTHROPIC_REQUEST_FIELDS = ['context_management', 'thinking', 'betas'] as const;

/** Body fields Herald writes itself; a model option never overrides them. */
const RESERVED_FIELDS = new Set(['model', 'messages', 'stream', 'stream_options', 'tools', 'system']);

/** The usual camelCase spellings callers use in `modelOptions`, and the wire names per format. */
const OPTION_ALIASES: Record<string, { readonly openai: string; readonly anthropic: string }> = {
  temperature: { openai: 'temperature', anthropic: 'temperature' },
  topP: { openai: 'top_p', anthropic: 'top_p' },
  top_p: { openai: 'top_p', anthropic: 'top_p' },
  topK: { openai: 'top_k', anthropic: 'top_k' },
  maxTokens: { openai: 'max_tokens', anthropic: 'max_tokens' },
  max_tokens: { openai: 'max_tokens', anthropic: 'max_tokens' },
  maxOutputTokens: { openai: 'max_tokens', anthropic: 'max_tokens' },
  stop: { openai: 'stop', anthropic: 'stop_sequences' },
  stopSequences: { openai: 'stop', anthropic: 'stop_sequences' },
  stop_sequences: { openai: 'stop', anthropic: 'stop_sequences' },
  presencePenalty: { openai: 'presence_penalty', anthropic: 'presence_penalty' },
  frequencyPenalty: { openai: 'frequency_penalty', anthropic: 'frequency_penalty' },
  seed: { openai: 'seed', anthropic: 'seed' },
  reasoningEffort: { openai: 'reasoning_effort', anthropic: 'reasoning_effort' },
  responseFormat: { openai: 'response_format', anthropic: 'response_format' },
};

/** Body fields each API documents that a caller may set through `modelOptions`, besides the aliases above. */
const DOCUMENTED_FIELDS: Record<'openai' | 'anthropic', ReadonlySet<string>> = {
  openai: new Set(['temperature', 'top_p', 'max_tokens', 'max_completion_tokens', 'stop', 'presence_penalty', 'frequency_penalty', 'seed', 'logit_bias', 'logprobs', 'top_logprobs', 'n', 'user', 'response_format', 'parallel_tool_calls', 'tool_choice', 'reasoning_effort', 'verbosity', 'service_tier', 'prediction', 'metadata', 'store']),
  anthropic: new Set(['temperature', 'top_p', 'top_k', 'max_tokens', 'stop_sequences', 'metadata', 'tool_choice', 'service_tier', 'thinking']),
};

/**
 * The caller's `LanguageModelChatRequestOptions.modelOptions` as body fields: known camelCase
 * names mapped to the wire's, and fields the API documents passed as written. Anything else is
 * left out: OpenAI and Anthropic reject unknown fields, and callers put their own bookkeeping
 * there (Copilot's agent sends `{ _capturingTokenCorrelationId, _otelTraceContext }` to every
 * extension-provided model, `extChatEndpoint.ts`). Copilot's own provider does the same: it
 * passes only a fixed list of options on (`LanguageModelOptions` in `languageModelAccess.ts`).
 */
export function modelOptionsFor(kind: 'openai' | 'anthropic', options: Record<string, unknown>): Json {
  return modelOptionsWithDropped(kind, options).fields;
}

/** {@link modelOptionsFor}, with the names it left out (for the log). */
export function modelOptionsWithDropped(kind: 'openai' | 'anthropic', options: Record<string, unknown>): { fields: Json; dropped: string[] } {
  const modelOptions = options.modelOptions;
  const fields: Json = {};
  const dropped: string[] = [];
  if (typeof modelOptions !== 'object' || modelOptions === null || Array.isArray(modelOptions)) return { fields, dropped };
  for (const [name, value] of Object.entries(modelOptions as Json)) {
    if (value === undefined || value === null) continue;
    const alias = OPTION_ALIASES[name];
    const field = alias ? alias[kind] : name;
    if (RESERVED_FIELDS.has(field) || !DOCUMENTED_FIELDS[kind].has(field)) {
      dropped.push(name);
      continue;
    }
    // Anthropic takes a list of stop sequences; OpenAI takes a string or a list.
    fields[field] = kind === 'anthropic' && field === 'stop_sequences' && typeof value === 'string' ? [value] : value;
  }
  return { fields, dropped };
}

/** Splits a server-sent-events byte stream into the `data:` payloads of its events. */
export async function* serverSentData(stream: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of stream) {
    buffer += decoder.decode(chunk, { stream: true });
    let boundary: number;
    while ((boundary = buffer.search(/\r?\n\r?\n/)) >= 0) {
      const event = buffer.slice(0, boundary);
      buffer = buffer.slice(boundary).replace(/^\r?\n\r?\n/, '');
      const data = event.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
      if (data.length > 0) yield data;
    }
  }
  buffer += decoder.decode();
  const data = buffer.split(/\r?\n/).filter((line) => line.startsWith('data:')).map((line) => line.slice(5).replace(/^ /, '')).join('\n');
  if (data.length > 0) yield data;
}

/** OpenAI streaming deltas as chunks: text as it arrives, each tool call once complete. */
export async function* openAIChunks(events: AsyncIterable<string>): AsyncGenerator<ResponseChunk> {
  const calls = new Map<number, { id: string; name: string; arguments: string }>();
  for await (const data of events) {
    if (data === '[DONE]') break;
    const event = parseJson(data);
    const error = event?.error;
    if (error !== undefined) throw new Error(`Herald: the endpoint reported an error: ${describeWireError(error)}`);
    // With include_usage the last event carries `usage` (and no choices).
    const usage = openAIUsage(event?.usage);
    if (usage) yield { type: 'usage', usage };
    const choice = Array.isArray(event?.choices) ? (event.choices[0] as Json | undefined) : undefined;
    const delta = choice?.delta as Json | undefined;
    if (typeof delta?.content === 'string' && delta.content.length > 0) yield { type: 'text', text: delta.content };
    if (Array.isArray(delta?.tool_calls)) {
      for (const call of delta.tool_calls as Json[]) {
        const index = typeof call.index === 'number' ? call.index : 0;
        const known = calls.get(index) ?? { id: '', name: '', arguments: '' };
        const fn = (call.function ?? {}) as Json;
        if (typeof call.id === 'string') known.id = call.id;
        if (typeof fn.name === 'string') known.name += fn.name;
        if (typeof fn.arguments === 'string') known.arguments += fn.arguments;
        calls.set(index, known);
      }
    }
  }
  for (const [index, call] of [...calls].sort((a, b) => a[0] - b[0])) {
    yield { type: 'tool_call', id: call.id || `call_${index}`, name: call.name, input: argumentsObject(call.arguments) };
  }
}

/**
 * A thinking block of an Anthropic answer, handed on as an `other` chunk: the host turns it into
 * its own thinking part (VS Code: `LanguageModelThinkingPart` with the signature in its
 * metadata), so the next request can give it back as Anthropic requires when thinking is on.
 */
export interface ThinkingDescriptor {
  readonly heraldThinking: { readonly text: string; readonly signature?: string; readonly redactedData?: string };
}

export function isThinkingDescriptor(value: unknown): value is ThinkingDescriptor {
  const inner = (value as { heraldThinking?: unknown } | null)?.heraldThinking;
  return typeof inner === 'object' && inner !== null && typeof (inner as { text?: unknown }).text === 'string';
}

/** Anthropic streaming events as chunks. */
export async function* anthropicChunks(events: AsyncIterable<string>): AsyncGenerator<ResponseChunk> {
  const blocks = new Map<number, { id: string; name: string; json: string }>();
  const thinking = new Map<number, { text: string; signature: string; redactedData?: string }>();
  // message_start carries the input and cache counts; message_delta the output count so far (cumulative).
  let usage: ProviderUsage | undefined;
  for await (const data of events) {
    const event = parseJson(data);
    if (!event) continue;
    if (event.type === 'error') throw new Error(`Herald: the endpoint reported an error: ${describeWireError(event.error)}`);
    if (event.type === 'message_start') usage = mergeAnthropicUsage(usage, anthropicUsage((event.message as Json | undefined)?.usage));
    if (event.type === 'message_delta') usage = mergeAnthropicUsage(usage, anthropicUsage(event.usage));
    const index = typeof event.index === 'number' ? event.index : 0;
    if (event.type === 'content_block_start') {
      const block = (event.content_block ?? {}) as Json;
      if (block.type === 'tool_use') blocks.set(index, { id: String(block.id ?? ''), name: String(block.name ?? ''), json: '' });
      if (block.type === 'text' && typeof block.text === 'string' && block.text.length > 0) yield { type: 'text', text: block.text };
      if (block.type === 'thinking') thinking.set(index, { text: typeof block.thinking === 'string' ? block.thinking : '', signature: typeof block.signature === 'string' ? block.signature : '' });
      if (block.type === 'redacted_thinking' && typeof block.data === 'string') thinking.set(index, { text: '', signature: '', redactedData: block.data });
    } else if (event.type === 'content_block_delta') {
      const delta = (event.delta ?? {}) as Json;
      if (delta.type === 'text_delta' && typeof delta.text === 'string') yield { type: 'text', text: delta.text };
      const open = thinking.get(index);
      if (open && delta.type === 'thinking_delta' && typeof delta.thinking === 'string') open.text += delta.thinking;
      if (open && delta.type === 'signature_delta' && typeof delta.signature === 'string') open.signature += delta.signature;
      if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
        const block = blocks.get(index);
        if (block) block.json += delta.partial_json;
      }
    } else if (event.type === 'content_block_stop') {
      const done = thinking.get(index);
      if (done) {
        thinking.delete(index);
        const descriptor: ThinkingDescriptor = { heraldThinking: { text: done.text, ...(done.signature ? { signature: done.signature } : {}), ...(done.redactedData ? { redactedData: done.redactedData } : {}) } };
        yield { type: 'other', part: descriptor };
      }
      const block = blocks.get(index);
      if (block) {
        blocks.delete(index);
        yield { type: 'tool_call', id: block.id, name: block.name, input: argumentsObject(block.json.length > 0 ? block.json : '{}') };
      }
    } else if (event.type === 'message_stop') {
      break;
    }
  }
  if (usage) yield { type: 'usage', usage };
}

/** A later usage object's non-zero counts replace the earlier ones (message_delta repeats or completes message_start's). */
function mergeAnthropicUsage(before: ProviderUsage | undefined, after: ProviderUsage | undefined): ProviderUsage | undefined {
  if (!after) return before;
  if (!before) return after;
  return {
    inputTokens: after.inputTokens || before.inputTokens,
    cacheReadTokens: after.cacheReadTokens || before.cacheReadTokens,
    cacheWriteTokens: after.cacheWriteTokens || before.cacheWriteTokens,
    outputTokens: after.outputTokens || before.outputTokens,
  };
}

const EPHEMERAL_HINT = { type: 'ephemeral' };

function cacheHintOf(part: Part): Json {
  const hint = 'extra' in part ? part.extra?.cache_control : undefined;
  return hint !== undefined ? { cache_control: hint } : {};
}

function textOf(part: Part): string {
  return part.type === 'text' ? part.text : '';
}

function resultText(content: readonly ResultContentPart[]): string {
  return content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('');
}

function dataUrl(data: string, mimeType: string, encoding: 'base64' | 'url'): string {
  return encoding === 'url' ? data : `data:${mimeType};base64,${data}`;
}

function argumentsText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? {});
}

function argumentsObject(value: unknown): object {
  if (typeof value === 'string') {
    const parsed = parseJson(value);
    return parsed ?? { input: value };
  }
  return typeof value === 'object' && value !== null ? value : {};
}

function parseJson(text: string): Json | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : undefined;
  } catch {
    return undefined;
  }
}

function describeWireError(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as Json).message === 'string') return (error as Json).message as string;
  return JSON.stringify(error);
}
