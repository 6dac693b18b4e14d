/**
 * No secret in any log or record: the gateway's token in a `/herald/<token>/` path, keys in
 * query parameters, provider keys and bearer values never reach a log line, the decisions file,
 * `/herald/decisions`, the in-memory records or the stash folder, whatever happens to the
 * request (a client gone mid-body, the upstream down, reset or silent).
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { REDACTED, redactRecord, redactSecrets } from '../../../src/gateway/redact';
import { allFileText, anthropicConversation, decisionsFileLines, records, startHarness, type Harness } from './harness';
import { anthropicEvents } from './providerAnswers';

const TOKEN = 'gwtok-SECRET-5a7c9e';
const KEYS = ['qkey-SECRET-1', 'qkey-SECRET-2', 'qkey-SECRET-3', 'qkey-SECRET-4'];
const PROVIDER_KEY = 'sk-ant-api03-SECRETSECRETSECRET';

async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A client that sends its headers and part of its body, then goes away. */
function disconnectMidBody(port: number, path: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n{"model":"gpt-4o","mess`);
      setTimeout(() => {
        socket.destroy();
        resolve();
      }, 50);
    });
    socket.on('error', () => resolve());
  });
}

describe('gateway: no secret in any log or record', function () {
  this.timeout(30_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('keeps the token, query keys and provider keys out of every log line, record and file', async () => {
    const down = await closedPort();
    harness = await startHarness((request) => {
      if (request.url.includes(KEYS[2]!)) return { kind: 'broken', contentType: 'application/json', body: '{"id":', then: 'reset' };
      if (request.url.includes(KEYS[3]!)) return { kind: 'silent' };
      return { kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'fine' }] }) };
    }, ['--token', TOKEN, '--openai-base-url', `http://127.0.0.1:${down}/v1`, '--upstream-timeout', '5,0.5,0.5']);
    const port = harness.serve.port;
    const answers: string[] = [];
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const response = await fetch(`${harness!.base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      answers.push(await response.text());
      return response.status;
    };
    await disconnectMidBody(port, `/herald/${TOKEN}/v1/chat/completions?key=${KEYS[0]}`);
    assert.equal(await post(`/herald/${TOKEN}/v1/chat/completions?key=${KEYS[1]}`, { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] }), 502, 'the upstream is down');
    assert.equal(await post(`/herald/${encodeURIComponent(TOKEN)}/v1/messages?key=${KEYS[2]}`, anthropicConversation(), { 'x-api-key': PROVIDER_KEY }), 502, 'the upstream reset');
    assert.equal(await post(`/v1/messages?api_key=${KEYS[3]}`, anthropicConversation(), { 'x-herald-token': TOKEN, authorization: `Bearer ${PROVIDER_KEY}` }), 504, 'the upstream went silent');
    assert.equal(await post(`/v1/messages`, { ...anthropicConversation(), stream: true }, { 'x-herald-token': TOKEN, 'x-api-key': PROVIDER_KEY }), 200);
    const listed = await (await fetch(`${harness.base}/herald/${TOKEN}/herald/decisions`)).text();
    await new Promise((resolve) => setTimeout(resolve, 100));
    const served = JSON.stringify(records(harness));
    const output = harness.output();
    await harness.serve.stop();
    const lines = decisionsFileLines(harness);
    assert.ok(lines.some((line) => typeof line.error === 'string' && /could not be reached/.test(line.error)), 'the failure is recorded (so the scan reads real records)');
    assert.ok(output.includes('gateway-failed') || output.includes('could not answer'), 'the disconnect was logged');
    const everything = { output, listed, served, file: JSON.stringify(lines), folder: allFileText(harness.folder), answers: answers.join('\n') };
    for (const [where, text] of Object.entries(everything)) {
      for (const secret of [TOKEN, encodeURIComponent(TOKEN), ...KEYS, PROVIDER_KEY]) assert.ok(!text.includes(secret), `"${secret}" must not be in ${where}`);
    }
    assert.ok(output.includes(REDACTED), 'the redaction is what kept them out');
  });

  describe('redactSecrets', () => {
    it('redacts the token in a path, key parameters, bearer values and key shapes; leaves the rest', () => {
      assert.equal(redactSecrets('POST /herald/abc-123/v1/messages'), `POST /herald/${REDACTED}/v1/messages`);
      assert.equal(redactSecrets('GET /herald/decisions and /herald/health'), 'GET /herald/decisions and /herald/health');
      assert.equal(redactSecrets('http://h/v1/x?api-version=2024&key=S1&api_key=S2#frag'), `http://h/v1/x?api-version=2024&key=${REDACTED}&api_key=${REDACTED}#frag`);
      assert.equal(redactSecrets('authorization: Bearer abc.def-ghi'), `authorization: Bearer ${REDACTED}`);
      assert.equal(redactSecrets('key sk-proj-0123456789abcdefXYZ and AIzaSyA0123456789abcdefghijklmnopqrstu'), `key ${REDACTED} and ${REDACTED}`);
      assert.equal(redactSecrets('a hrk_0123456789abcdefghijklmnop token'), `a ${REDACTED} token`);
      assert.equal(redactSecrets('the secret is t%2Fo%20k%2Fx', ['t/o k/x']), `the secret is ${REDACTED}`, 'a known secret, percent-encoded too');
      assert.equal(redactSecrets('3 retrievals, 412 lines elided · retrieve hr_k2p4q7m3x9a5b6c1'), '3 retrievals, 412 lines elided · retrieve hr_k2p4q7m3x9a5b6c1');
    });
    it('redacts every string of a record', () => {
      const record = { id: 'g1', error: 'the upstream http://x/v1?key=S could not be reached', nested: [{ reason: 'Bearer tok123' }], tokens: 12 };
      assert.deepEqual(redactRecord(record), { id: 'g1', error: `the upstream http://x/v1?key=${REDACTED} could not be reached`, nested: [{ reason: `Bearer ${REDACTED}` }], tokens: 12 });
    });
  });

  it('keeps the decisions file readable by its owner only, an existing one included', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-decisions-'));
    const file = path.join(folder, 'decisions.jsonl');
    fs.writeFileSync(file, '', { mode: 0o644 });
    fs.chmodSync(file, 0o644);
    try {
      harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'fine' }] }) }, ['--decisions', file]);
      await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' }, body: JSON.stringify({ ...anthropicConversation(), stream: true }) });
      await harness.serve.stop();
      assert.equal(fs.statSync(file).mode & 0o777, 0o600);
      assert.ok(fs.readFileSync(file, 'utf8').length > 0, 'the record was written');
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
