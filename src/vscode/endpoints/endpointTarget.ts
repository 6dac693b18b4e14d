/**
 * A forward target for an endpoint the user configured: an OpenAI-compatible or Anthropic API
 * reached with `fetch`, its key read from SecretStorage at send time (never kept in settings).
 * Failures become {@link EndpointError}s that say which endpoint, which URL, what happened and
 * what to do; the provider's usage figures come back as `usage` chunks for the record.
 */
import type { ChatMessage, ChatRequest, Part } from '../../core/chat/types';
import { takeAnthropicBetas } from '../../core/strategies/providerContextTrim';
import { FAMILY_FACTORS, TokenCounter } from '../../core/tokens/tokenCounter';
import type { ForwardTarget, OwnToolRound, ResponseChunk, TargetInformation } from '../../core/flow/forwardTarget';
import type { EndpointSettings } from '../settings/settingsSchema';
import { EndpointTimeout, httpError, networkError } from './endpointErrors';
import { modelsUrl, requestUrl } from './endpointUrl';
import { anthropicChunks, isThinkingDescriptor, openAIChunks, serverSentData, toAnthropicBody, toOpenAIBody, type ThinkingDescriptor } from './endpointWire';

/** The subset of `fetch` Herald uses, injectable for tests. */
export type FetchFunction = (url: string, init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal }) => Promise<{
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly body: AsyncIterable<Uint8Array> | null;
  /** Response headers (`retry-after`); absent in old fakes. */
  readonly headers?: { get(name: string): string | null };
  text(): Promise<string>;
}>;

/** What "Test the connection" found. */
export interface ConnectionTest {
  readonly ok: boolean;
  /** One line for the user. */
  readonly message: string;
  /** Model ids the endpoint lists, when it lists them. */
  readonly models: readonly string[];
}

const ANTHROPIC_VERSION = '2023-06-01';

export class EndpointTarget implements ForwardTarget {
  readonly information: TargetInformation;
  /** The thinking each request's answer carried, so a round Herald answers itself gives it back (Anthropic requires it with tool use). */
  private readonly thinkingOf = new WeakMap<ChatRequest, ThinkingDescriptor[]>();

  constructor(
    private readonly endpoint: EndpointSettings,
    private readonly readKey: () => Promise<string | undefined>,
    private readonly fetchFunction: FetchFunction,
    private readonly tokens: TokenCounter = new TokenCounter(),
  ) {
    this.information = {
      id: `endpoint:${endpoint.name}`,
      name: endpoint.name,
      // The model id is the most specific family an endpoint tells us (Copilot picks prompts by family prefix, e.g. "claude").
      family: endpoint.model,
      version: endpoint.kind,
      detail: `${endpoint.kind === 'openai' ? 'OpenAI-compatible' : 'Anthropic'} endpoint · ${endpoint.model}`,
      maxInputTokens: endpoint.maxInputTokens,
      maxOutputTokens: endpoint.maxOutputTokens,
      toolCalling: endpoint.toolCalling,
      imageInput: endpoint.imageInput,
      wireFormat: endpoint.kind,
      billing: 'tokens',
    };
  }

  async *send(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponseChunk> {
    const key = await this.readKey();
    const url = requestUrl(this.endpoint.kind, this.endpoint.url);
    const headers = this.headers(key);
    let body: Record<string, unknown>;
    if (this.endpoint.kind === 'openai') {
      body = toOpenAIBody(request, this.endpoint.model, this.endpoint.maxOutputTokens);
    } else {
      body = toAnthropicBody(request, this.endpoint.model, this.endpoint.maxOutputTokens);
      // provider_context_trim asks for its beta in the body; the Messages API takes betas as a header.
      const betas = takeAnthropicBetas(body);
      if (betas) headers['anthropic-beta'] = betas;
    }
    headers.accept = 'text/event-stream';
    let response: Awaited<ReturnType<FetchFunction>>;
    try {
      response = await this.fetchFunction(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    } catch (error) {
      // The caller's own stop is not the endpoint's failure: pass it on as it came.
      if (signal.aborted) throw error;
      throw networkError(this.endpoint.name, url, error);
    }
    if (!response.ok) {
      const detail = await response.text().catch(() => '');
      throw httpError(this.endpoint.name, url, response.status, response.statusText, detail, response.headers?.get('retry-after'));
    }
    if (!response.body) throw new Error(`Herald: endpoint "${this.endpoint.name}" (${url}) sent no response body; check that it supports streaming ("stream": true).`);
    const events = serverSentData(response.body);
    const thinking: ThinkingDescriptor[] = [];
    this.thinkingOf.set(request, thinking);
    for await (const chunk of this.endpoint.kind === 'openai' ? openAIChunks(events) : anthropicChunks(events)) {
      if (chunk.type === 'other' && isThinkingDescriptor(chunk.part)) thinking.push(chunk.part);
      yield chunk;
    }
  }

  /** The next round after Herald answered its own calls: the model's thinking, text and calls, then the answers. */
  continueAfter(request: ChatRequest, round: OwnToolRound): ChatRequest {
    const thinking = this.thinkingOf.get(request) ?? [];
    const assistant: ChatMessage = {
      role: 'assistant',
      parts: [
        ...thinking.map((descriptor): Part => ({ type: 'opaque', kind: 'thinking', raw: descriptor })),
        ...(round.text.length > 0 ? [{ type: 'text' as const, text: round.text }] : []),
        ...round.calls.map(({ call }): Part => ({ type: 'tool_call', id: call.id, name: call.name, arguments: call.input })),
      ],
      contentShape: 'parts',
    };
    const answers = round.calls.map(({ call, answer, isError }): Part => ({ type: 'tool_result', callId: call.id, content: [{ type: 'text', text: answer }], contentShape: 'parts', ...(isError ? { isError } : {}) }));
    return { ...request, messages: [...request.messages, assistant, { role: 'user', parts: answers, contentShape: 'parts' }] };
  }

  async countTokens(text: string): Promise<number> {
    // Endpoints publish no token-count API we can rely on; o200k is exact for OpenAI models and scaled for Claude.
    const tokens = this.tokens.count(text);
    return this.endpoint.kind === 'anthropic' ? Math.round(tokens * (FAMILY_FACTORS.claude ?? 1)) : tokens;
  }

  /** Lists the endpoint's models (GET /models, which OpenAI, Anthropic, Ollama, vLLM and LM Studio offer) and says whether the configured model is among them. */
  async testConnection(signal: AbortSignal): Promise<ConnectionTest> {
    const url = modelsUrl(this.endpoint.url);
    let response: Awaited<ReturnType<FetchFunction>>;
    try {
      response = await this.fetchFunction(url, { method: 'GET', headers: this.headers(await this.readKey()), signal });
    } catch (error) {
      // Stopped by the user (not by Herald's deadline, which names how long it waited): say so rather than "aborted".
      if (signal.aborted && !(signal.reason instanceof EndpointTimeout)) return { ok: false, message: `Herald: the test of "${this.endpoint.name}" was stopped before ${url} answered.`, models: [] };
      return { ok: false, message: networkError(this.endpoint.name, url, signal.reason instanceof EndpointTimeout ? signal.reason : error).message, models: [] };
    }
    const text = await response.text().catch(() => '');
    if (!response.ok) {
      // Some servers offer no model list; a 404 there says nothing about chat requests.
      if (response.status === 404 || response.status === 405) return { ok: true, message: `Herald: "${this.endpoint.name}" is reachable at ${url}, but lists no models (${response.status}); a first chat request will tell whether "${this.endpoint.model}" works.`, models: [] };
      return { ok: false, message: httpError(this.endpoint.name, url, response.status, response.statusText, text, response.headers?.get('retry-after')).message, models: [] };
    }
    const models = modelIds(text);
    if (models.length === 0) return { ok: true, message: `Herald: "${this.endpoint.name}" answered at ${url}.`, models };
    const listed = models.includes(this.endpoint.model);
    return {
      ok: listed,
      message: listed
        ? `Herald: "${this.endpoint.name}" works: ${models.length === 1 ? 'it lists 1 model' : `${models.length} models listed`}, "${this.endpoint.model}" among them.`
        : `Herald: "${this.endpoint.name}" is reachable, but does not list the model "${this.endpoint.model}". It lists: ${models.slice(0, 12).join(', ')}${models.length > 12 ? ', …' : ''}. Edit the endpoint to pick one.`,
      models,
    };
  }

  private headers(key: string | undefined): Record<string, string> {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.endpoint.kind === 'openai') {
      if (key) headers.authorization = `Bearer ${key}`;
    } else {
      headers['anthropic-version'] = ANTHROPIC_VERSION;
      if (key) headers['x-api-key'] = key;
    }
    return headers;
  }
}

/** Model ids from a `GET /models` body: OpenAI's and Anthropic's `{ data: [{ id }] }`, or Ollama's `{ models: [{ name }] }`. */
export function modelIds(body: string): string[] {
  try {
    const parsed = JSON.parse(body) as { data?: unknown; models?: unknown };
    const list = Array.isArray(parsed.data) ? parsed.data : Array.isArray(parsed.models) ? parsed.models : [];
    return list.flatMap((entry: unknown) => {
      const record = entry as { id?: unknown; name?: unknown } | null;
      const id = typeof record?.id === 'string' ? record.id : typeof record?.name === 'string' ? record.name : undefined;
      return id ? [id] : [];
    });
  } catch {
    return [];
  }
}
