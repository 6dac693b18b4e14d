/**
 * What a user of the editor reads and clicks through (issue 28's polish, 28.7, and 27's
 * timeout): every message here is one a person saw wrong in a real VS Code.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createStrategies } from '../../../src/core/strategies/index';
import type { TargetInformation } from '../../../src/core/flow/forwardTarget';
import { billingNote } from '../../../src/core/costs/billing';
import { DEFAULT_PRICES, mergePriceTable } from '../../../src/core/costs/prices';
import { providerInformation } from '../../../src/vscode/chat/modelInformation';
import { modelSelectorOf, rememberedModels, rememberedModelsFile, rememberModels } from '../../../src/vscode/chat/rememberedModels';
import { RecordingLogger } from '../../../src/core/ports';
import { EndpointTimeout, httpError, networkError, sentence } from '../../../src/vscode/endpoints/endpointErrors';
import { keyChangeText } from '../../../src/vscode/endpoints/keyChange';
import { EndpointTarget, type FetchFunction } from '../../../src/vscode/endpoints/endpointTarget';
import { normalizeEndpointUrl } from '../../../src/vscode/endpoints/endpointUrl';
import { builtInPricesText, manifestContributions } from '../../../src/vscode/manifest/contributes';
import { pipelineConfigOf } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';

const endpoint = { name: 'local', kind: 'openai' as const, url: 'http://127.0.0.1:9/v1', model: 'llama3', maxInputTokens: 8000, maxOutputTokens: 1000, toolCalling: true, imageInput: false };
const properties = (manifestContributions(createStrategies({})).contributes as { configuration: { properties: Record<string, { default?: unknown; description?: string; markdownDescription?: string }> } }).configuration.properties;

describe('a new Herald model is in the picker', () => {
  const info = (overrides: Partial<TargetInformation>): TargetInformation => ({ id: 'endpoint:fake', name: 'fake', family: 'fake-model', version: 'openai', maxInputTokens: 100_000, maxOutputTokens: 4096, toolCalling: true, imageInput: false, ...overrides });

  it('marks an endpoint and a Copilot model the user chose to list as user-selectable, and leaves wrapped models of other extensions to Manage Models', () => {
    assert.equal(providerInformation(info({ billing: 'tokens' }), billingNote('tokens')).isUserSelectable, true);
    assert.equal(providerInformation(info({ id: 'lm:copilot/gpt-4.1', billing: 'premium-requests' }), billingNote('premium-requests')).isUserSelectable, true);
    assert.equal(providerInformation(info({ id: 'lm:other/echo', billing: 'unknown' }), billingNote('unknown')).isUserSelectable, false);
  });
});

describe('an endpoint URL typed without its scheme', () => {
  it('takes localhost:18555/v1 as http:// and says so', () => {
    const local = normalizeEndpointUrl('localhost:18555/v1');
    assert.equal(local.ok && local.url, 'http://localhost:18555/v1');
    assert.match(local.ok ? local.note ?? '' : '', /Taken as http:\/\/localhost:18555\/v1/);
    assert.equal((normalizeEndpointUrl('127.0.0.1:11434/v1') as { url: string }).url, 'http://127.0.0.1:11434/v1');
    assert.equal((normalizeEndpointUrl('[::1]:8080/v1') as { url: string }).url, 'http://[::1]:8080/v1');
  });

  it('takes another host as https://, keeps stripping a pasted path, and still refuses what no API speaks', () => {
    const remote = normalizeEndpointUrl('api.openai.com/v1/chat/completions');
    assert.equal(remote.ok && remote.url, 'https://api.openai.com/v1');
    assert.match(remote.ok ? remote.note ?? '' : '', /Taken as https:.*adds \/chat\/completions itself/);
    assert.equal(normalizeEndpointUrl('http://localhost:1/v1').ok && (normalizeEndpointUrl('http://localhost:1/v1') as { note?: string }).note, undefined);
    const ftp = normalizeEndpointUrl('ftp://example.com/v1');
    assert.match(ftp.ok ? '' : ftp.problem, /^ftp is not an API scheme/);
    assert.equal(normalizeEndpointUrl('two words').ok, false);
  });
});

describe('messages end in one full stop', () => {
  it("keeps the provider's own punctuation instead of adding a second", () => {
    const openai = httpError('gpt', 'https://api.openai.com/v1/chat/completions', 401, 'Unauthorized', JSON.stringify({ error: { message: 'Incorrect API key provided: sk-…. You can find your API key at https://platform.openai.com/account/api-keys.' } }));
    assert.match(openai.message, /api-keys\. The API key is missing/);
    assert.doesNotMatch(openai.message, /\.\./);
    const cheerful = httpError('x', 'http://h/v1/chat/completions', 500, '', JSON.stringify({ error: { message: 'Sorry about that!' } }));
    assert.match(cheerful.message, /Sorry about that! The provider had a problem/);
    assert.doesNotMatch(cheerful.message, /!\./);
    const plain = httpError('x', 'http://h/v1/chat/completions', 400, 'Bad Request', '{"error":{"message":"unknown field foo"}}');
    assert.match(plain.message, /unknown field foo\. The endpoint rejected/);
    assert.equal(sentence('done.'), 'done.');
    assert.equal(sentence('done'), 'done.');
    assert.equal(sentence('really?'), 'really?');
    assert.equal(sentence('(see the log.)'), '(see the log.)');
  });
});

describe('an endpoint that accepts and never answers', () => {
  it('says it did not answer within the time Herald waited, and what to check', () => {
    const message = networkError('slow', 'http://127.0.0.1:9/v1/models', new EndpointTimeout(15_000)).message;
    assert.match(message, /^Herald: endpoint "slow" \(http:\/\/127\.0\.0\.1:9\/v1\/models\) did not answer within 15 s\./);
    assert.match(message, /finished starting.*not busy.*URL is the API's own/);
    assert.doesNotMatch(message, /aborted/);
  });

  it('is what "Test the connection" reports from a real server that holds the connection open; a stop by the user says so', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const server = http.createServer(() => undefined);
    server.on('connection', (socket) => sockets.add(socket));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const realFetch: FetchFunction = async (url, init) => {
      const response = await fetch(url, init);
      return { ok: response.ok, status: response.status, statusText: response.statusText, body: null, text: () => response.text() };
    };
    try {
      const target = new EndpointTarget({ ...endpoint, name: 'silent', url: base }, async () => undefined, realFetch);
      const deadline = new AbortController();
      // Herald's deadline, run out as soon as the request is on its way (the server never answers).
      const testing = target.testConnection(deadline.signal);
      setImmediate(() => deadline.abort(new EndpointTimeout(15_000)));
      const timedOut = await testing;
      assert.equal(timedOut.ok, false);
      assert.match(timedOut.message, /"silent" .* did not answer within 15 s/);
      const stopped = new AbortController();
      const cancelled = target.testConnection(stopped.signal);
      setImmediate(() => stopped.abort());
      assert.match((await cancelled).message, /the test of "silent" was stopped/);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('tells a connection that never opened from an answer that never came', () => {
    const connect = Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }) });
    assert.match(networkError('far', 'https://far.example/v1/models', connect).message, /connection could not be opened in time.*firewall/);
  });
});

describe('"Test the connection" and the key', () => {
  const answering = (body: string): FetchFunction => async () => ({ ok: true, status: 200, statusText: '', body: null, text: async () => body });

  it('counts one listed model in the singular', async () => {
    const one = await new EndpointTarget(endpoint, async () => 'k', answering(JSON.stringify({ data: [{ id: 'llama3' }] }))).testConnection(new AbortController().signal);
    assert.match(one.message, /works: it lists 1 model, "llama3" among them/);
    assert.doesNotMatch(one.message, /1 models/);
  });

  it('confirms a stored or removed key and says nothing when the box was dismissed', () => {
    assert.match(keyChangeText('fake', 'stored')!, /API key of "fake" is saved in VS Code's secret storage/);
    assert.match(keyChangeText('fake', 'removed')!, /no API key/);
    assert.equal(keyChangeText('fake', 'unchanged'), undefined);
  });
});

describe('settings say what they do', () => {
  it("names the filter aggressiveness tunes, and that the Herald models' optimizer is not it", () => {
    const text = properties['herald.aggressiveness']!.markdownDescription ?? '';
    assert.match(text, /relevance filter.*herald_filter_context/);
    assert.match(text, /does not change how the \*\*Herald · …\*\* models optimize/);
  });

  it('writes no built-in price into settings.json, lists the built-in prices in the description, and still merges what the user writes', () => {
    assert.deepEqual(properties['herald.prices']!.default, {});
    const description = properties['herald.prices']!.markdownDescription ?? '';
    for (const key of Object.keys(DEFAULT_PRICES)) assert.ok(description.includes(`\`${key}\``), key);
    assert.ok(description.includes(builtInPricesText()));
    const merged = mergePriceTable({ 'gpt-4.1': { input: 1, cachedInput: 0.1, output: 4 } }).table;
    assert.equal(merged['gpt-4.1']!.input, 1, "the user's price wins");
    assert.deepEqual(merged['claude-sonnet-4'], DEFAULT_PRICES['claude-sonnet-4'], 'every other model keeps its built-in price');
  });

  it('says what the cache serves, and keeps it off in the editor unless the user turns it on', () => {
    const enabled = properties['herald.strategy.semanticCache.enabled']!;
    assert.equal(enabled.default, false);
    assert.match(enabled.markdownDescription ?? '', /text answers only.*Retry.*must reach the model/);
    const strategies = createStrategies({});
    assert.equal(pipelineConfigOf(readSettings(() => undefined).settings, strategies).config.enabled?.semantic_cache, false);
    const optedIn = readSettings((key) => (key === 'strategy' ? { semantic_cache: { enabled: true, options: {} } } : undefined)).settings;
    assert.equal(pipelineConfigOf(optedIn, strategies).config.enabled?.semantic_cache, true);
  });
});

describe('the chosen Herald model after a reload', () => {
  const copilot: TargetInformation = { id: 'lm:copilot/gpt-4.1', name: 'GPT-4.1', family: 'gpt-4.1', version: '2025-04-14', detail: 'through copilot', maxInputTokens: 111_000, maxOutputTokens: 4096, toolCalling: true, imageInput: true, billing: 'premium-requests' };

  it("remembers other providers' entries in a file and lists them again before VS Code answers", () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-models-'));
    const file = path.join(folder, 'language-models.json');
    const memory = rememberedModelsFile(file, new RecordingLogger());
    assert.deepEqual(rememberedModels(memory.get()), [], 'nothing before the first listing');
    memory.set(rememberModels([copilot]));
    const written = fs.statSync(file).mtimeMs;
    memory.set(rememberModels([copilot]));
    assert.equal(fs.statSync(file).mtimeMs, written, 'an unchanged list is not written again');
    const nextWindow = rememberedModelsFile(file, new RecordingLogger());
    assert.deepEqual(rememberedModels(nextWindow.get()), [copilot]);
    assert.deepEqual(modelSelectorOf(copilot.id), { vendor: 'copilot', id: 'gpt-4.1' });
    fs.writeFileSync(file, '{"version":1,"models":[{"id":"endpoint:x"}]}');
    assert.deepEqual(rememberedModels(rememberedModelsFile(file, new RecordingLogger()).get()), [], 'a damaged or foreign list is none');
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
