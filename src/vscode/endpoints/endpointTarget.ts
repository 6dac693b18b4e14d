/**
 * A forward target for an endpoint the user configured: an OpenAI-compatible or Anthropic API
 * reached with `fetch`, its key read from SecretStorage at send time (never kept in settings).
 */
import type { ChatRequest } from '../../core/chat/types';
import { takeAnthropicBetas } from '../../core/strategies/providerContextTrim';
import { FAMILY_FACTORS, TokenCounter } from '../../core/tokens/tokenCounter';
import type { ForwardTarget, ResponseChunk, TargetInformation } from '../../core/flow/forwardTarget';
import type { EndpointSettings } from '../settings/settingsSchema';
import { anthropicChunks, openAIChunks, serverSentData, toAnthropicBody, toOpenAIBody } from './endpointWire';

/** The subset of `fetch` Herald uses, injectable for tests. */
export type FetchFunction = (url: string, init: { method: string; headers: Record<string, string>; body: string; signal: AbortSignal }) => Promise<{
  readonly ok: boolean;
  readonly status: number;
  readonly statusText: string;
  readonly body: AsyncIterable<Uint8Array> | null;
  text(): Promise<string>;
}>;

const ANTHROPIC_VERSION = '2023-06-01';

export class EndpointTarget implements ForwardTarget {
  readonly information: TargetInformation;

  constructor(
    private readonly endpoint: EndpointSettings,
    private readonly readKey: () => Promise<string | undefined>,
    private readonly fetchFunction: FetchFunction,
    private readonly tokens: TokenCounter = new TokenCounter(),
  ) {
    this.information = {
      id: `endpoint:${endpoint.name}`,
      name: endpoint.name,
      family: endpoint.model,
      version: endpoint.kind,
      detail: `${endpoint.kind === 'openai' ? 'OpenAI-compatible' : 'Anthropic'} endpoint`,
      maxInputTokens: endpoint.maxInputTokens,
      maxOutputTokens: endpoint.maxOutputTokens,
      toolCalling: endpoint.toolCalling,
      imageInput: endpoint.imageInput,
      wireFormat: endpoint.kind,
    };
  }

  async *send(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponseChunk> {
    const key = await this.readKey();
    const base = this.endpoint.url.replace(/\/+$/, '');
    const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
    let url: string;
    let body: Record<string, unknown>;
    if (this.endpoint.kind === 'openai') {
      url = `${base}/chat/completions`;
      body = toOpenAIBody(request, this.endpoint.model, this.endpoint.maxOutputTokens);
      if (key) headers.authorization = `Bearer ${key}`;
    } else {
      url = `${base}/messages`;
      body = toAnthropicBody(request, this.endpoint.model, this.endpoint.maxOutputTokens);
      headers['anthropic-version'] = ANTHROPIC_VERSION;
      // provider_context_trim asks for its beta in the body; the Messages API takes betas as a header.
      const betas = takeAnthropicBetas(body);
      if (betas) headers['anthropic-beta'] = betas;
      if (key) headers['x-api-key'] = key;
    }
    const response = await this.fetchFunction(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
    if (!response.ok) {
      const detail = (await response.text().catch(() => '')).slice(0, 500);
      throw new Error(`Herald: endpoint "${this.endpoint.name}" answered ${response.status} ${response.statusText}${detail ? `: ${detail}` : ''}`);
    }
    if (!response.body) throw new Error(`Herald: endpoint "${this.endpoint.name}" sent no response body`);
    const events = serverSentData(response.body);
    yield* this.endpoint.kind === 'openai' ? openAIChunks(events) : anthropicChunks(events);
  }

  async countTokens(text: string): Promise<number> {
    // Endpoints publish no token-count API we can rely on; o200k is exact for OpenAI models and scaled for Claude.
    const tokens = this.tokens.count(text);
    return this.endpoint.kind === 'anthropic' ? Math.round(tokens * (FAMILY_FACTORS.claude ?? 1)) : tokens;
  }
}
