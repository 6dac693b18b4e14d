import { strict as assert } from 'node:assert';
import type { ChatRequest } from '../../../src/core/chat/types';
import { httpError, networkError, retryAfterSeconds } from '../../../src/vscode/endpoints/endpointErrors';
import { EndpointTarget, modelIds, type FetchFunction } from '../../../src/vscode/endpoints/endpointTarget';
import { modelsUrl, normalizeEndpointUrl, requestUrl } from '../../../src/vscode/endpoints/endpointUrl';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';

const endpoint = { name: 'local', kind: 'openai' as const, url: 'http://127.0.0.1:9/v1', model: 'llama3', maxInputTokens: 8000, maxOutputTokens: 1000, toolCalling: true, imageInput: false };
const request: ChatRequest = { format: 'vscode', messages: [{ role: 'user', parts: [{ type: 'text', text: 'hi' }], contentShape: 'parts' }], tools: [], options: {} };

/** A fetch failure as Node's undici reports it: "fetch failed" with the reason in `cause.code`. */
function fetchFailed(code: string): Error {
  return Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(`connect ${code} 127.0.0.1:9`), { code }) });
}

describe('endpoint URLs', () => {
  it('accepts http and https base URLs and strips a pasted request path', () => {
    assert.deepEqual(normalizeEndpointUrl(' https://api.openai.com/v1/ '), { ok: true, url: 'https://api.openai.com/v1' });
    const pasted = normalizeEndpointUrl('http://localhost:11434/v1/chat/completions');
    assert.equal(pasted.ok && pasted.url, 'http://localhost:11434/v1');
    assert.match(pasted.ok ? pasted.note ?? '' : '', /adds \/chat\/completions itself/);
    const anthropic = normalizeEndpointUrl('https://api.anthropic.com/v1/messages');
    assert.equal(anthropic.ok && anthropic.url, 'https://api.anthropic.com/v1');
  });

  it('refuses what no API speaks, with what to enter instead', () => {
    const ftp = normalizeEndpointUrl('ftp://example.com/v1');
    assert.equal(ftp.ok, false);
    assert.match(ftp.ok ? '' : ftp.problem, /ftp is not an API scheme; use https:\/\//);
    assert.match((normalizeEndpointUrl('not a url') as { problem: string }).problem, /not a URL/);
    assert.match((normalizeEndpointUrl('https://sk-secret@api.openai.com/v1') as { problem: string }).problem, /Leave the key out/);
    assert.equal(normalizeEndpointUrl('').ok, false);
  });

  it('builds request and model-list URLs from a base however it was written', () => {
    assert.equal(requestUrl('openai', 'http://h:1/v1/chat/completions'), 'http://h:1/v1/chat/completions');
    assert.equal(requestUrl('anthropic', 'https://api.anthropic.com/v1/'), 'https://api.anthropic.com/v1/messages');
    assert.equal(modelsUrl('http://h:1/v1'), 'http://h:1/v1/models');
  });

  it('refuses a non-http endpoint in settings too', () => {
    const { settings, problems } = readSettings((key) => (key === 'endpoints' ? [{ name: 'x', kind: 'openai', url: 'ftp://example.com/v1', model: 'm' }] : undefined));
    assert.equal(settings.endpoints.length, 0);
    assert.match(problems.join(' '), /endpoints\[0\]/);
  });
});

describe('endpoint errors a user can act on', () => {
  it('names the endpoint, the URL, what happened and what to do', () => {
    const refused = networkError('local', 'http://127.0.0.1:9/v1/chat/completions', fetchFailed('ECONNREFUSED'));
    assert.equal(refused.kind, 'refused');
    assert.match(refused.message, /^Herald: endpoint "local" \(http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions\) refused the connection.*Start the server/);
    assert.equal(networkError('x', 'u', fetchFailed('ENOTFOUND')).kind, 'dns');
    assert.equal(networkError('x', 'u', fetchFailed('CERT_HAS_EXPIRED')).kind, 'tls');
    assert.equal(networkError('x', 'u', fetchFailed('UND_ERR_CONNECT_TIMEOUT')).kind, 'timeout');
    assert.equal(networkError('x', 'u', Object.assign(new Error('timed out'), { name: 'TimeoutError' })).kind, 'timeout');
    assert.match(networkError('x', 'u', new Error('something odd')).message, /could not be reached: something odd/);
  });

  it('turns HTTP statuses into the step to take', () => {
    assert.match(httpError('local', 'u', 401, 'Unauthorized', '{"error":{"message":"Incorrect API key"}}').message, /401 Unauthorized: Incorrect API key\. The API key is missing.*set the key of "local"/);
    assert.match(httpError('local', 'u', 404, 'Not Found', '').message, /URL or the model id is wrong/);
    assert.match(httpError('local', 'u', 429, 'Too Many Requests', '', '17').message, /try again in 17 s/);
    assert.match(httpError('local', 'u', 503, '', 'upstream down').message, /503: upstream down\. The provider had a problem/);
    assert.equal(retryAfterSeconds('Wed, 21 Oct 2026 07:28:00 GMT', Date.parse('Wed, 21 Oct 2026 07:27:30 GMT')), 30);
    assert.equal(retryAfterSeconds(undefined), undefined);
  });

  it('is what a chat request to a down endpoint fails with; a stop by the caller passes through as it came', async () => {
    const refusing: FetchFunction = async () => {
      throw fetchFailed('ECONNREFUSED');
    };
    const target = new EndpointTarget(endpoint, async () => undefined, refusing);
    await assert.rejects(async () => {
      for await (const chunk of target.send(request, new AbortController().signal)) void chunk;
    }, /endpoint "local" \(http:\/\/127\.0\.0\.1:9\/v1\/chat\/completions\) refused the connection/);
    const abort = new AbortController();
    abort.abort();
    const aborted: FetchFunction = async () => {
      throw Object.assign(new Error('This operation was aborted'), { name: 'AbortError' });
    };
    await assert.rejects(async () => {
      for await (const chunk of new EndpointTarget(endpoint, async () => undefined, aborted).send(request, abort.signal)) void chunk;
    }, /This operation was aborted/);
  });
});

describe('Test the connection', () => {
  function answering(status: number, body: string): { urls: string[]; fetch: FetchFunction } {
    const urls: string[] = [];
    return {
      urls,
      fetch: async (url, init) => {
        urls.push(`${init.method} ${url}`);
        return { ok: status < 400, status, statusText: '', body: null, text: async () => body };
      },
    };
  }

  it('lists the models and says whether the configured one is there', async () => {
    const listed = answering(200, JSON.stringify({ data: [{ id: 'llama3' }, { id: 'qwen' }] }));
    const ok = await new EndpointTarget(endpoint, async () => 'k', listed.fetch).testConnection(new AbortController().signal);
    assert.deepEqual(listed.urls, ['GET http://127.0.0.1:9/v1/models']);
    assert.equal(ok.ok, true);
    assert.match(ok.message, /works: 2 models listed, "llama3" among them/);
    const missing = await new EndpointTarget({ ...endpoint, model: 'gpt-4.1' }, async () => 'k', answering(200, JSON.stringify({ data: [{ id: 'llama3' }] })).fetch).testConnection(new AbortController().signal);
    assert.equal(missing.ok, false);
    assert.match(missing.message, /does not list the model "gpt-4\.1"\. It lists: llama3/);
  });

  it('tells a server without a model list from one that refuses the key or is down', async () => {
    assert.equal((await new EndpointTarget(endpoint, async () => undefined, answering(404, '').fetch).testConnection(new AbortController().signal)).ok, true);
    const denied = await new EndpointTarget(endpoint, async () => undefined, answering(401, '{"error":"bad key"}').fetch).testConnection(new AbortController().signal);
    assert.equal(denied.ok, false);
    assert.match(denied.message, /401.*bad key.*set the key/);
    const down = await new EndpointTarget(endpoint, async () => undefined, async () => {
      throw fetchFailed('ECONNREFUSED');
    }).testConnection(new AbortController().signal);
    assert.match(down.message, /refused the connection/);
  });

  it("reads OpenAI's, Anthropic's and Ollama's model lists", () => {
    assert.deepEqual(modelIds('{"data":[{"id":"a"},{"id":"b"}]}'), ['a', 'b']);
    assert.deepEqual(modelIds('{"models":[{"name":"llama3:8b"}]}'), ['llama3:8b']);
    assert.deepEqual(modelIds('not json'), []);
  });
});
