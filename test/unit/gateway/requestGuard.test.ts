/**
 * Who may talk to the gateway: only requests for its own Host (a DNS-rebinding page is
 * refused), no browser origin it was not told to allow, JSON bodies only on the API routes,
 * and once a token is set every request presents it, loopback included, on every route.
 */
import { strict as assert } from 'node:assert';
import * as http from 'node:http';
import { RecordingLogger } from '../../../src/core/ports';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { createGateway } from '../../../src/gateway';
import { hostNameOf, isLoopback } from '../../../src/gateway/requestGuard';
import { chatCompletion } from './providerAnswers';
import { startHarness, type Harness } from './harness';

interface Raw {
  readonly status: number;
  readonly headers: http.IncomingHttpHeaders;
  readonly text: string;
}

/** A request with exactly these headers (fetch would not let a test set Host). */
function raw(harness: Harness, path: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: harness.serve.port, path, method: options.method ?? 'GET', headers: options.headers ?? {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text: Buffer.concat(chunks).toString('utf8') }));
    });
    request.on('error', reject);
    request.end(options.body);
  });
}

const CHAT = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }] });
const MESSAGES = JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: 'hello' }] });

describe('gateway: who may talk to it', function () {
  this.timeout(30_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('answers its own Host names only: a rebinding page gets 421 on every route, the provider is never called', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) });
    const port = harness.serve.port;
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, 'LOCALHOST', `[::1]:${port}`]) {
      assert.equal((await raw(harness, '/herald/health', { headers: { host } })).status, 200, host);
    }
    for (const [path, method, body] of [['/herald/decisions', 'GET', undefined], ['/herald/health', 'GET', undefined], ['/v1/chat/completions', 'POST', CHAT], ['/v1/models', 'GET', undefined], ['/', 'HEAD', undefined]] as const) {
      const answer = await raw(harness, path, { method, headers: { host: `rebind.evil.example:${port}`, 'content-type': 'application/json', authorization: 'Bearer k' }, ...(body ? { body } : {}) });
      assert.equal(answer.status, 421, `${method} ${path}`);
    }
    const refused = await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { host: 'rebind.evil.example', 'content-type': 'application/json' }, body: CHAT });
    assert.match((JSON.parse(refused.text) as { error: { message: string } }).error.message, /--allowed-host/);
    assert.equal(harness.upstream.received.length, 0);
  });

  it('answers a name given with --allowed-host', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) }, ['--allowed-host', 'gateway.team.example,proxy.internal']);
    assert.equal((await raw(harness, '/herald/health', { headers: { host: 'gateway.team.example:443' } })).status, 200);
    assert.equal((await raw(harness, '/herald/health', { headers: { host: 'proxy.internal' } })).status, 200);
    assert.equal((await raw(harness, '/herald/health', { headers: { host: 'other.team.example' } })).status, 421);
  });

  it('refuses a browser\'s cross-origin POST, text/plain or JSON, before reading it', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) });
    for (const type of ['text/plain', 'application/json']) {
      const answer = await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { 'content-type': type, origin: 'https://evil.example' }, body: CHAT });
      assert.equal(answer.status, 403, type);
      assert.match(answer.text, /--allowed-origin/);
    }
    assert.equal((await raw(harness, '/herald/decisions', { headers: { origin: 'null' } })).status, 403);
    assert.equal(harness.upstream.received.length, 0);
  });

  it('serves an origin given with --allowed-origin, with CORS headers and its preflight answered', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) }, ['--allowed-origin', 'https://app.example']);
    const preflight = await raw(harness, '/v1/chat/completions', { method: 'OPTIONS', headers: { origin: 'https://app.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type, authorization' } });
    assert.equal(preflight.status, 204);
    assert.equal(preflight.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal(preflight.headers['access-control-allow-headers'], 'content-type, authorization');
    const answer = await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { origin: 'https://app.example', 'content-type': 'application/json', authorization: 'Bearer k' }, body: CHAT });
    assert.equal(answer.status, 200);
    assert.equal(answer.headers['access-control-allow-origin'], 'https://app.example');
    assert.equal((await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { origin: 'https://other.example', 'content-type': 'application/json' }, body: CHAT })).status, 403);
  });

  it('takes JSON bodies only on the API routes: 415 in each API\'s own error shape', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) });
    const chat = await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: CHAT });
    assert.equal(chat.status, 415);
    assert.equal(typeof (JSON.parse(chat.text) as { error: { message: string } }).error.message, 'string');
    for (const path of ['/v1/messages', '/v1/messages/count_tokens']) {
      const messages = await raw(harness, path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: MESSAGES });
      assert.equal(messages.status, 415, path);
      assert.equal((JSON.parse(messages.text) as { type: string }).type, 'error', 'Anthropic\'s error shape');
    }
    assert.equal((await raw(harness, '/v1/responses', { method: 'POST', body: CHAT })).status, 415, 'no content type at all');
    assert.equal(harness.upstream.received.length, 0);
    assert.equal((await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8', authorization: 'Bearer k' }, body: CHAT })).status, 200);
  });

  it('once a token is set, asks every request for it, loopback included, on every route', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) }, ['--token', 'tok-T']);
    const json = { 'content-type': 'application/json' };
    for (const [path, method, body] of [['/v1/chat/completions', 'POST', CHAT], ['/herald/decisions', 'GET', undefined], ['/herald/health', 'GET', undefined], ['/v1/models', 'GET', undefined], ['/', 'HEAD', undefined]] as const) {
      assert.equal((await raw(harness, path, { method, headers: json, ...(body ? { body } : {}) })).status, 401, `${method} ${path} without the token`);
      assert.equal((await raw(harness, path, { method, headers: { ...json, 'x-herald-token': 'wrong' }, ...(body ? { body } : {}) })).status, 401, `${method} ${path} with a wrong token`);
    }
    assert.equal(harness.upstream.received.length, 0);
    assert.equal((await raw(harness, '/v1/chat/completions', { method: 'POST', headers: { ...json, 'x-herald-token': 'tok-T' }, body: CHAT })).status, 200);
    assert.equal((await raw(harness, '/herald/tok-T/v1/chat/completions', { method: 'POST', headers: json, body: CHAT })).status, 200);
    assert.equal((await raw(harness, '/herald/tok-T/herald/decisions')).status, 200);
    assert.equal((await raw(harness, '/herald/decisions', { headers: { 'x-herald-token': 'tok-T' } })).status, 200);
    assert.equal((await raw(harness, '/herald/tok-T', { method: 'HEAD' })).status, 200, 'Claude Code\'s probe of a base URL with the token in it');
  });

  it('answers a path with a broken percent-encoding with 400, token or not', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) }, ['--token', 'tok-T']);
    const answer = await raw(harness, '/herald/%E0%A4%A/v1/chat/completions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: CHAT });
    assert.equal(answer.status, 400);
    assert.match(answer.text, /percent-encoding/);
  });

  it('answers Claude Code\'s HEAD / probe as the provider does: 200, empty', async () => {
    harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) });
    const answer = await raw(harness, '/', { method: 'HEAD' });
    assert.equal(answer.status, 200);
    assert.equal(answer.text, '');
    assert.equal(harness.upstream.received.length, 0);
  });

  it('tells loopback addresses from names that only look like them', () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '[::1]', '::ffff:127.0.0.1', 'localhost']) assert.ok(isLoopback(address), address);
    for (const address of ['127.attacker.invalid', '127.0.0.1.evil.example', '0.0.0.0', '::', '10.0.0.1', '::ffff:10.0.0.1', 'example.com', '', undefined]) assert.ok(!isLoopback(address), String(address));
    assert.throws(() => createGateway({ host: '127.attacker.invalid', optimizer: { tokens: new TokenCounter(), forTenant: () => ({ optimize: undefined, afterResponse: async () => undefined, retrieve: async () => undefined }) }, tenantKey: new Uint8Array(32), logger: new RecordingLogger() }), /give it a token/);
  });

  it('reads a Host header\'s name without port, brackets or trailing dot', () => {
    assert.equal(hostNameOf('Example.COM:8787'), 'example.com');
    assert.equal(hostNameOf('[::1]:8787'), '::1');
    assert.equal(hostNameOf('localhost.'), 'localhost');
    assert.equal(hostNameOf(undefined), undefined);
  });
});
