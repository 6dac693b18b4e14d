/**
 * A ModelPort over HTTP: an OpenAI-compatible `/chat/completions` endpoint or Anthropic's
 * `/v1/messages`. Used by the CLI (the filter's judge and quality check, the library's plan)
 * when the user names an endpoint; the key comes from the environment, never from a file.
 */
import type { ModelCompletionRequest, ModelPort } from '../ports';

export interface HttpModelOptions {
  readonly kind: 'openai' | 'anthropic';
  /** Base URL, e.g. `http://127.0.0.1:8080/v1` or `https://api.anthropic.com`. */
  readonly baseUrl: string;
  readonly model: string;
  readonly apiKey?: string;
  /** Per-call time limit in ms. Default 60000. */
  readonly timeoutMs?: number;
  readonly fetch?: typeof fetch;
}

export function createHttpModel(options: HttpModelOptions): ModelPort {
  const send = options.fetch ?? fetch;
  let base = options.baseUrl;
  while (base.endsWith('/')) base = base.slice(0, -1);
  return {
    name: `${options.kind}:${options.model}`,
    async complete(request: ModelCompletionRequest): Promise<string> {
      const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
      const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
      const { url, headers, body } = options.kind === 'anthropic' ? anthropicCall(base, options, request) : openAiCall(base, options, request);
      const response = await send(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
      const text = await response.text();
      if (!response.ok) throw new Error(`Herald: ${options.kind} endpoint answered ${response.status}: ${text.slice(0, 300)}`);
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new Error(`Herald: ${options.kind} endpoint answered with invalid JSON`);
      }
      return options.kind === 'anthropic' ? anthropicText(parsed) : openAiText(parsed);
    },
  };
}

function openAiCall(base: string, options: HttpModelOptions, request: ModelCompletionRequest) {
  const messages = [...(request.system ? [{ role: 'system', content: request.system }] : []), { role: 'user', content: request.prompt }];
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (options.apiKey) headers.authorization = `Bearer ${options.apiKey}`;
  return { url: `${base}/chat/completions`, headers, body: { model: options.model, messages, max_tokens: request.maxTokens ?? 1024, temperature: 0 } };
}

function anthropicCall(base: string, options: HttpModelOptions, request: ModelCompletionRequest) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
  if (options.apiKey) headers['x-api-key'] = options.apiKey;
  const body: Record<string, unknown> = { model: options.model, max_tokens: request.maxTokens ?? 1024, messages: [{ role: 'user', content: request.prompt }], temperature: 0 };
  if (request.system) body.system = request.system;
  return { url: `${base}/v1/messages`, headers, body };
}

function openAiText(value: unknown): string {
  const choices = (value as { choices?: { message?: { content?: unknown } }[] }).choices;
  const content = choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw new Error('Herald: the endpoint\'s answer has no choices[0].message.content');
  return content;
}

function anthropicText(value: unknown): string {
  const blocks = (value as { content?: { type?: string; text?: unknown }[] }).content;
  if (!Array.isArray(blocks)) throw new Error('Herald: the endpoint\'s answer has no content blocks');
  return blocks.filter((block) => block.type === 'text' && typeof block.text === 'string').map((block) => block.text as string).join('');
}
