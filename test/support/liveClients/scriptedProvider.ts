/**
 * A provider on loopback that plays a scripted agent, for driving the real agent CLIs: Anthropic
 * Messages (`/v1/messages`, `count_tokens`), OpenAI Responses (`/v1/responses`) and Chat
 * Completions (`/v1/chat/completions`), streaming as the real ones do. Each request that carries
 * a task tag and offers tools is answered with the task's next step (see agentScript.ts);
 * anything else (a client's side request) with a short text.
 *
 * It bills every request with the cache model in `src/core/costs/cacheBilling.ts` (Anthropic's
 * rule for Messages, by model; OpenAI's for the others), keeps one cache per model as the
 * provider would for this session, returns that bill as the response's `usage` (so the client
 * and Herald see what a provider would bill), and records every request body it received.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { wireBodyBlocks, type CountText, type WireApi } from '../../../src/core/costs/billingBlocks';
import { anthropicCacheRule, OPENAI_CACHE_RULE, ProviderCache, type CacheRule, type RequestBill } from '../../../src/core/costs/cacheBilling';
import { defaultTokenCounter } from '../../../src/core/tokens/tokenCounter';
import { nextReply, taskIdOf, type AgentCall, type ConversationView, type TaskScript } from './agentScript';
import { isJson, viewOf, type Json } from './wireViews';
import { writeAnthropic, writeChat, writeResponses, type ReplyContent, type ReplyFrame } from './wireReplies';

/** One request the provider received, and what it answered. */
export interface ProviderRecord {
  readonly index: number;
  /** When it arrived (ms since the epoch). */
  readonly receivedAt: number;
  readonly api: WireApi | 'count_tokens' | 'other';
  readonly method: string;
  readonly path: string;
  readonly model: string;
  readonly body: unknown;
  /** The task the request belongs to (absent: a side request). */
  readonly task?: string;
  /** `call`: a step of the task; `retrieve`: Herald's retrieve; `answer`: the final answer; `side`: a request without a task; `error`: refused. */
  readonly kind: 'call' | 'retrieve' | 'answer' | 'side' | 'error';
  readonly step?: number;
  readonly call?: AgentCall;
  readonly text?: string;
  /** What the request was billed, as its usage said. */
  readonly bill?: RequestBill;
  readonly outputTokens?: number;
}

export interface ScriptedProviderOptions {
  readonly tasks: readonly TaskScript[];
  /** The workspace the client runs in: tool calls name files by absolute path under it. */
  readonly workspace: string;
  /** Token count of a text (default: o200k). */
  readonly count?: CountText;
  /**
   * Whether the agent calls `herald_retrieve`: `first` (the default) on the first marker of a
   * session, the worst case for Herald's cost (a whole request resent); `never`, a model that
   * does without the originals, as most do.
   */
  readonly retrieves?: 'first' | 'never';
}

const SIDE_ANSWER = 'OK.';

export class ScriptedProvider {
  readonly records: ProviderRecord[] = [];
  private readonly server: http.Server;
  private readonly caches = new Map<string, ProviderCache>();
  private readonly retrieved = new Set<string>();
  private readonly count: CountText;
  private port = 0;

  constructor(private readonly options: ScriptedProviderOptions) {
    this.count = options.count ?? ((text) => defaultTokenCounter.count(text));
    this.server = http.createServer((request, response) => {
      this.handle(request, response).catch((error: unknown) => {
        if (!response.headersSent) {
          response.writeHead(500, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ type: 'error', error: { type: 'api_error', message: `scripted provider: ${error instanceof Error ? error.message : String(error)}` } }));
        } else response.end();
      });
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (this.server.address() as AddressInfo).port;
    return this.port;
  }

  /** `http://127.0.0.1:<port>`: Anthropic clients' base URL; OpenAI clients add `/v1`. */
  url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private cacheFor(api: WireApi, model: string): ProviderCache {
    const key = `${api}:${model}`;
    let cache = this.caches.get(key);
    if (!cache) {
      const rule: CacheRule = api === 'anthropic' ? anthropicCacheRule(model) : OPENAI_CACHE_RULE;
      cache = new ProviderCache(rule);
      this.caches.set(key, cache);
    }
    return cache;
  }

  private async handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://provider');
    const raw = await readBody(request);
    const method = request.method ?? 'GET';
    const index = this.records.length;
    const receivedAt = Date.now();
    if (method !== 'POST') {
      this.records.push({ index, receivedAt, api: 'other', method, path: url.pathname, model: '', body: null, kind: 'side' });
      if (url.pathname === '/v1/models') return sendJson(response, 200, { object: 'list', data: [] });
      response.writeHead(200, { 'content-type': 'text/plain' });
      response.end(method === 'HEAD' ? undefined : 'ok');
      return;
    }
    const encoding = request.headers['content-encoding'];
    if (encoding && encoding !== 'identity') {
      this.records.push({ index, receivedAt, api: 'other', method, path: url.pathname, model: '', body: null, kind: 'error', text: `content-encoding ${encoding}` });
      return sendJson(response, 415, { error: { message: `scripted provider: content-encoding ${encoding} is not read` } });
    }
    let body: Json;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (!isJson(parsed)) throw new Error('not an object');
      body = parsed;
    } catch {
      this.records.push({ index, receivedAt, api: 'other', method, path: url.pathname, model: '', body: raw, kind: 'error', text: 'invalid JSON' });
      return sendJson(response, 400, { error: { message: 'scripted provider: the body is not a JSON object' } });
    }
    const model = typeof body.model === 'string' ? body.model : '';
    const stream = body.stream === true;
    if (url.pathname === '/v1/messages/count_tokens') {
      const tokens = wireBodyBlocks('anthropic', body, this.count).reduce((sum, block) => sum + block.tokens, 0);
      this.records.push({ index, receivedAt, api: 'count_tokens', method, path: url.pathname, model, body, kind: 'side' });
      return sendJson(response, 200, { input_tokens: tokens });
    }
    const api: WireApi | undefined = url.pathname === '/v1/messages' ? 'anthropic' : url.pathname === '/v1/responses' ? 'responses' : url.pathname === '/v1/chat/completions' ? 'chat' : undefined;
    if (!api) {
      this.records.push({ index, receivedAt, api: 'other', method, path: url.pathname, model, body, kind: 'error', text: 'unknown path' });
      return sendJson(response, 404, { error: { message: `scripted provider: no route ${url.pathname}` } });
    }
    const view: ConversationView = viewOf(api, body);
    const taskId = taskIdOf(view);
    const task = taskId === undefined ? undefined : this.options.tasks.find((candidate) => candidate.id === taskId);
    const bill = this.cacheFor(api, model).record({ blocks: wireBodyBlocks(api, body, this.count) });
    let content: ReplyContent;
    let record: Omit<ProviderRecord, 'index' | 'receivedAt' | 'api' | 'method' | 'path' | 'model' | 'body' | 'bill' | 'outputTokens'>;
    if (!task || view.tools.length === 0) {
      content = { kind: 'text', text: SIDE_ANSWER };
      record = { kind: 'side', ...(taskId ? { task: taskId } : {}), text: SIDE_ANSWER };
    } else {
      const reply = nextReply(task, view, this.options.workspace, this.retrieved.has(task.id) || this.options.retrieves === 'never');
      const prefix = api === 'anthropic' ? 'toolu' : 'call';
      if (reply.kind === 'retrieve') {
        this.retrieved.add(task.id);
        content = { kind: 'call', id: `${prefix}_retrieve_${task.id}`, call: reply.call };
        record = { kind: 'retrieve', task: task.id, call: reply.call };
      } else if (reply.kind === 'call') {
        content = { kind: 'call', id: `${prefix}_${task.id.replace(/-/g, '_')}_${reply.step}`, call: reply.call };
        record = { kind: 'call', task: task.id, step: reply.step, call: reply.call };
      } else {
        content = { kind: 'text', text: reply.text };
        record = { kind: 'answer', task: task.id, text: reply.text };
      }
    }
    const outputTokens = this.count(content.kind === 'call' ? `${content.call.name}${JSON.stringify(content.call.input)}` : content.text) + 1;
    this.records.push({ index, receivedAt, api, method, path: url.pathname, model, body, ...record, bill, outputTokens });
    const streamOptions = isJson(body.stream_options) ? body.stream_options : {};
    const frame: ReplyFrame = { model, answerId: `live${index}`, bill, outputTokens, stream, includeUsage: streamOptions.include_usage === true };
    if (api === 'anthropic') writeAnthropic(response, content, frame);
    else if (api === 'responses') writeResponses(response, content, frame);
    else writeChat(response, content, frame);
  }
}

function readBody(request: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}
