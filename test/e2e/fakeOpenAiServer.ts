/**
 * A local OpenAI-compatible endpoint for the end-to-end test. It records every chat request,
 * and when the request carries a Herald marker and offers `herald_retrieve`, it asks for that
 * handle with a tool call first (as a real model would), then answers with the length of what
 * it got back, so the test can see the original was delivered byte for byte inside one turn.
 * A request whose last user message says NO_RETRIEVE is answered straight away. A request that
 * offers the caller's tool AGENT_TOOL and holds no tool result is answered with a call to it, as
 * an agent's model answers a step.
 * It keeps each request's headers too, so the test can see the API key Herald sent. Asked for
 * usage (`stream_options.include_usage`), it ends with a usage event as OpenAI does, billed from
 * what it received (`billedUsage`), and keeps what it reported in `usages`; `GET /models` lists
 * its one model.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export const FAKE_MODEL = 'fake-model';
/** Output tokens the fake reports: a tool call, and a text answer. */
export const FAKE_OUTPUT = { toolCall: 15, answer: 30 };
/** The price the test sets for the fake model (USD per million tokens), so its usage becomes money. */
export const FAKE_PRICE = { input: 2, cachedInput: 0.5, cacheWrite: 0, output: 8 };
/** What the fake's last user message says to be answered without a retrieve round. */
export const NO_RETRIEVE = 'NO_RETRIEVE';
/** The caller's tool the fake calls when a request offers it (an agent step whose answer is a tool call). */
export const AGENT_TOOL = 'e2e_run_tests';

/** OpenAI's usage object as the fake reports it. */
export interface FakeUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly total_tokens: number;
  readonly prompt_tokens_details: { readonly cached_tokens: number };
}

/** The part of a chat request the fake reads and bills. */
export interface ChatBody {
  messages: { role: string; content: unknown; tool_call_id?: string }[];
  tools?: { function: { name: string } }[];
  stream_options?: { include_usage?: boolean };
}

export interface FakeServer {
  readonly url: string;
  readonly requests: Record<string, unknown>[];
  /** What the fake reported as usage for each chat request, in the order of `requests`. */
  readonly usages: FakeUsage[];
  /** The headers of each chat request, in the order of `requests` (names in lower case). */
  readonly headers: http.IncomingHttpHeaders[];
  /** The handle the fake model asked for, once it did. */
  askedHandle(): string | undefined;
  close(): Promise<void>;
}

const MARKER = /\[herald: [^\]\n]{1,400}? · retrieve (hr_[a-z2-7]{16})\]/;

export async function startFakeServer(): Promise<FakeServer> {
  const requests: Record<string, unknown>[] = [];
  const usages: FakeUsage[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
  // What the fake's cache holds: the text of every request it billed.
  const cached: string[] = [];
  let asked: string | undefined;
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      if (request.method === 'GET' && request.url?.endsWith('/models')) {
        response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: FAKE_MODEL, object: 'model' }] }));
        return;
      }
      if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
        response.writeHead(404).end();
        return;
      }
      const parsed = JSON.parse(body) as ChatBody;
      requests.push(parsed as unknown as Record<string, unknown>);
      headers.push({ ...request.headers });
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (value: unknown): boolean => response.write(`data: ${JSON.stringify(value)}\n\n`);
      const toolResult = parsed.messages.find((message) => message.role === 'tool');
      const offersRetrieve = (parsed.tools ?? []).some((tool) => tool.function.name === 'herald_retrieve');
      const marker = parsed.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''))).join('\n').match(MARKER);
      const lastUser = [...parsed.messages].reverse().find((message) => message.role === 'user');
      const noRetrieve = JSON.stringify(lastUser?.content ?? '').includes(NO_RETRIEVE);
      let completion: number;
      if (!toolResult && (parsed.tools ?? []).some((tool) => tool.function.name === AGENT_TOOL)) {
        send({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Running the tests. ' } }] });
        send({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: `call_e2e_agent_${requests.length}`, type: 'function', function: { name: AGENT_TOOL, arguments: JSON.stringify({ command: 'pytest -x' }) } }] } }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
        completion = FAKE_OUTPUT.toolCall;
      } else if (!toolResult && offersRetrieve && marker && !noRetrieve) {
        asked = marker[1];
        send({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Let me look at the original. ' } }] });
        send({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_e2e_1', type: 'function', function: { name: 'herald_retrieve', arguments: '' } }] } }] });
        send({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ handle: asked }) } }] } }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
        completion = FAKE_OUTPUT.toolCall;
      } else {
        const length = typeof toolResult?.content === 'string' ? toolResult.content.length : 0;
        const words = ['E2E', 'answer:', `the original had ${length} characters.`];
        for (const word of words) send({ choices: [{ index: 0, delta: { content: `${word} ` } }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
        completion = FAKE_OUTPUT.answer;
      }
      const usage = billedUsage(parsed, cached, completion);
      usages.push(usage);
      if (parsed.stream_options?.include_usage) send({ choices: [], usage });
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    usages,
    headers,
    askedHandle: () => asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * What a provider that caches prefixes automatically bills for this request, and the request
 * joins `cached`: the prompt as a quarter of the characters of its tools and messages, and, as
 * read from the cache, the longest prefix it shares with a request billed before, counted as
 * OpenAI does (nothing under 1,024 tokens, then in steps of 128).
 */
export function billedUsage(body: Pick<ChatBody, 'messages' | 'tools'>, cached: string[], completion: number): FakeUsage {
  const text = billedText(body);
  const prompt = Math.ceil(text.length / 4);
  let shared = 0;
  for (const earlier of cached) {
    const limit = Math.min(earlier.length, text.length);
    let length = 0;
    while (length < limit && earlier.charCodeAt(length) === text.charCodeAt(length)) length++;
    shared = Math.max(shared, length);
  }
  const sharedTokens = Math.floor(shared / 4);
  const read = sharedTokens < 1024 ? 0 : 1024 + Math.floor((sharedTokens - 1024) / 128) * 128;
  cached.push(text);
  return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion, prompt_tokens_details: { cached_tokens: Math.min(read, prompt) } };
}

/** The text the fake bills a request by: its tools, then its messages. */
export function billedText(body: Pick<ChatBody, 'messages' | 'tools'>): string {
  return JSON.stringify({ tools: body.tools ?? [], messages: body.messages });
}
