/**
 * `herald serve`'s upstream call over undici's `request` answers as the fetch it replaced did:
 * the same status, the same relayed headers (hop-by-hop ones dropped, repeated ones joined),
 * the same body bytes, a compressed body inflated; and its failures map to the same errors.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as zlib from 'node:zlib';
import { timedFetch } from '../../../src/gateway/timedFetch';
import { callUpstream, requestOverFetch, UpstreamError, UpstreamUnreachable, type UpstreamResponse } from '../../../src/gateway/upstream';

const EVENTS = 'event: message_start\ndata: {"type":"message_start"}\n\nevent: message_stop\ndata: {"type":"message_stop"}\n\n';

async function bytesOf(response: UpstreamResponse): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

describe('gateway: the upstream call of herald serve', function () {
  this.timeout(20_000);
  let server: http.Server;
  let base = '';
  const seen: { method: string; body: string; headers: http.IncomingHttpHeaders }[] = [];

  before(async () => {
    server = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', body: Buffer.concat(chunks).toString('utf8'), headers: request.headers });
        if (request.url === '/gzip') {
          response.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
          response.end(zlib.gzipSync(EVENTS));
          return;
        }
        if (request.url === '/moved') {
          response.writeHead(307, { location: `${base}/elsewhere`, 'content-type': 'text/plain' });
          response.end('moved');
          return;
        }
        if (request.url === '/error') {
          response.writeHead(429, { 'content-type': 'application/json', 'retry-after': '7' });
          response.end('{"error":{"type":"rate_limit_error"}}');
          return;
        }
        // A fixed date: Node would stamp each answer with the clock, and two calls can straddle a second.
        response.setHeader('date', 'Sat, 05 Dec 2026 12:00:00 GMT');
        response.setHeader('x-repeated', ['one', 'two']);
        response.setHeader('set-cookie', ['a=1', 'b=2']);
        response.writeHead(200, { 'content-type': 'text/event-stream', 'request-id': 'req_1', connection: 'keep-alive', 'keep-alive': 'timeout=5' });
        response.write(EVENTS.slice(0, 20));
        setTimeout(() => response.end(EVENTS.slice(20)), 10);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('answers with the status, relayed headers and body bytes the fetch over the same agent gives, and sends the same request', async () => {
    const timed = timedFetch({ connectMs: 5000, firstByteMs: 5000, idleMs: 5000 });
    try {
      const init = { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'sk-test' }, body: Buffer.from('{"model":"m"}'), signal: new AbortController().signal };
      const viaRequest = await timed.request(`${base}/v1/messages`, init);
      const viaFetch = await requestOverFetch(timed.fetch)(`${base}/v1/messages`, init);
      assert.equal(viaRequest.status, viaFetch.status);
      assert.deepEqual(viaRequest.headers, viaFetch.headers);
      assert.equal(viaRequest.headers['x-repeated'], 'one, two');
      assert.equal(viaRequest.headers.connection, undefined, 'hop-by-hop headers are not relayed');
      assert.equal(viaRequest.contentType, 'text/event-stream');
      assert.equal(await bytesOf(viaRequest), EVENTS);
      assert.equal(await bytesOf(viaFetch), EVENTS);
      assert.deepEqual(seen.slice(-2).map((request) => [request.method, request.body, request.headers['x-api-key']]), [['POST', '{"model":"m"}', 'sk-test'], ['POST', '{"model":"m"}', 'sk-test']]);
    } finally {
      await timed.close();
    }
  });

  it('inflates a body the provider compressed anyway, as fetch does', async () => {
    const timed = timedFetch({ connectMs: 5000, firstByteMs: 5000, idleMs: 5000 });
    try {
      const answer = await timed.request(`${base}/gzip`, { method: 'POST', headers: {}, body: '{}', signal: new AbortController().signal });
      assert.equal(answer.headers['content-encoding'], undefined);
      assert.equal(await bytesOf(answer), EVENTS);
    } finally {
      await timed.close();
    }
  });

  it('a provider error comes back whole with its headers; an unreachable provider is reported as such', async () => {
    const timed = timedFetch({ connectMs: 5000, firstByteMs: 5000, idleMs: 5000 });
    try {
      const signal = new AbortController().signal;
      await assert.rejects(callUpstream(timed.request, `${base}/error`, 'POST', {}, '{}', signal), (error: unknown) => error instanceof UpstreamError && error.status === 429 && error.headers['retry-after'] === '7' && error.body.toString() === '{"error":{"type":"rate_limit_error"}}');
      await assert.rejects(callUpstream(timed.request, 'http://127.0.0.1:1/v1/messages', 'POST', {}, '{}', signal), (error: unknown) => error instanceof UpstreamUnreachable);
    } finally {
      await timed.close();
    }
  });

  it("does not follow a provider's redirect: the client's key goes to the provider it named and nowhere else", async () => {
    const timed = timedFetch({ connectMs: 5000, firstByteMs: 5000, idleMs: 5000 });
    try {
      const before = seen.length;
      const answer = await timed.request(`${base}/moved`, { method: 'POST', headers: { 'x-api-key': 'sk-test' }, body: '{}', signal: new AbortController().signal });
      assert.equal(answer.status, 307);
      assert.equal(answer.headers.location, `${base}/elsewhere`);
      assert.equal(await bytesOf(answer), 'moved');
      assert.equal(seen.length, before + 1, 'one request, to the URL the gateway was given');
    } finally {
      await timed.close();
    }
  });
});
