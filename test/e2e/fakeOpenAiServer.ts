/**
 * A loopback OpenAI-compatible chat-completions server for the end-to-end test. It records
 * every request body, and plays a model that uses Herald's in-turn retrieval: when a request
 * offers `herald_retrieve` and carries a marker, it first asks for that handle; once the
 * original comes back as a tool result, it answers in text, quoting the original's length.
 * It keeps each request's headers too, so the test can see the API key Herald sent. Asked for
 * usage (`stream_options.include_usage`), it ends with a usage event as OpenAI does, with fixed
 * figures the test can price; `GET /models` lists its one model.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

/** The usage every answer reports (as OpenAI's last stream event): part of the prompt served from the cache. */
export const FAKE_USAGE = { prompt_tokens: 3000, completion_tokens: 40, total_tokens: 3040, prompt_tokens_details: { cached_tokens: 2048 } };
export const FAKE_MODEL = 'fake-model';

export interface FakeServer {
  readonly url: string;
  readonly requests: Record<string, unknown>[];
  /** The headers of each chat request, in the order of `requests` (names in lower case). */
  readonly headers: http.IncomingHttpHeaders[];
  /** The handle the fake model asked for, once it did. */
  readonly askedHandle: () => string | undefined;
  close(): Promise<void>;
}

const MARKER = /\[herald: [^\]\n]{1,400}? · retrieve (hr_[a-z2-7]{16})\]/;

export async function startFakeServer(): Promise<FakeServer> {
  const requests: Record<string, unknown>[] = [];
  const headers: http.IncomingHttpHeaders[] = [];
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
      const parsed = JSON.parse(body) as { messages: { role: string; content: unknown; tool_call_id?: string }[]; tools?: { function: { name: string } }[]; stream_options?: { include_usage?: boolean } };
      requests.push(parsed as unknown as Record<string, unknown>);
      headers.push({ ...request.headers });
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      const send = (value: unknown): boolean => response.write(`data: ${JSON.stringify(value)}\n\n`);
      const toolResult = parsed.messages.find((message) => message.role === 'tool');
      const offersRetrieve = (parsed.tools ?? []).some((tool) => tool.function.name === 'herald_retrieve');
      const marker = parsed.messages.map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content ?? ''))).join('\n').match(MARKER);
      if (!toolResult && offersRetrieve && marker) {
        asked = marker[1];
        send({ choices: [{ index: 0, delta: { role: 'assistant', content: 'Let me look at the original. ' } }] });
        send({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_e2e_1', type: 'function', function: { name: 'herald_retrieve', arguments: '' } }] } }] });
        send({ choices: [{ index: 0, delta: { tool_calls: [{ index: 0, function: { arguments: JSON.stringify({ handle: asked }) } }] } }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
      } else {
        const length = typeof toolResult?.content === 'string' ? toolResult.content.length : 0;
        const words = ['E2E', 'answer:', `the original had ${length} characters.`];
        for (const word of words) send({ choices: [{ index: 0, delta: { content: `${word} ` } }] });
        send({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
      }
      if (parsed.stream_options?.include_usage) send({ choices: [], usage: FAKE_USAGE });
      response.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    headers,
    askedHandle: () => asked,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
