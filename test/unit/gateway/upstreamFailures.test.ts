/**
 * One client request, one upstream call (plus Herald's own in-turn rounds): once the provider
 * was called, its failure is the client's answer, in the API's own error shape (or the stream's
 * error event), and the request is never sent again. Timeouts answer 504. A request nested
 * too deep for Herald to write goes to the provider untouched (fail-open), never a 500.
 */
import { strict as assert } from 'node:assert';
import { anthropicConversation, chatConversation, responsesConversation, startHarness, type Harness } from './harness';
import type { Answer } from './fakeUpstream';
import { anthropicEvents, anthropicMessage } from './providerAnswers';

const JSON_HEADERS = { 'content-type': 'application/json', 'x-api-key': 'sk-one' };

const BROKEN: readonly { readonly name: string; readonly answer: Answer }[] = [
  { name: 'truncated JSON', answer: { kind: 'broken', contentType: 'application/json', body: '{"id":"msg_1","type":"message","content":[{"type":"te', then: 'end' } },
  { name: 'a body that is not JSON', answer: { kind: 'broken', contentType: 'text/plain', body: 'upstream says hello', then: 'end' } },
  { name: 'an HTML page', answer: { kind: 'broken', contentType: 'text/html', body: '<html><body>Sign in to the proxy</body></html>', then: 'end' } },
  { name: 'a reset after its headers', answer: { kind: 'broken', contentType: 'application/json', body: '{"id":', then: 'reset' } },
];

describe('gateway: one upstream call per request', function () {
  this.timeout(30_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  for (const { name, answer } of BROKEN) {
    it(`a 200 with ${name}: called once, the client gets a 502 in the API's shape`, async () => {
      harness = await startHarness(answer);
      const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(anthropicConversation()) });
      const body = (await response.json()) as { type: string; error: { type: string; message: string } };
      assert.equal(harness.upstream.received.length, 1, 'never a second call');
      assert.equal(response.status, 502);
      assert.equal(body.type, 'error', 'Anthropic\'s error shape');
      assert.match(body.error.message, /^Herald: the upstream's answer .* broke off or could not be read/);
    });
  }

  it('a broken answer on Chat Completions and Responses: called once, 502 in each API\'s shape', async () => {
    harness = await startHarness(BROKEN[0]!.answer);
    const chat = await fetch(`${harness.base}/v1/chat/completions`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(chatConversation()) });
    const responses = await fetch(`${harness.base}/v1/responses`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ ...responsesConversation(), store: false }) });
    assert.equal(chat.status, 502);
    assert.equal(responses.status, 502);
    assert.ok(((await chat.json()) as { error: { message: string } }).error.message.startsWith('Herald:'));
    assert.ok(((await responses.json()) as { error: { message: string } }).error.message.startsWith('Herald:'));
    assert.equal(harness.upstream.received.length, 2, 'one call each');
  });

  it('a stream that resets after its first events: called once, the client\'s stream ends with an error event', async () => {
    const opening = anthropicEvents({ blocks: [{ type: 'text', text: 'partial answer that never ends' }] }).slice(0, 4);
    const body = opening.map((event) => `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`).join('');
    harness = await startHarness({ kind: 'broken', contentType: 'text/event-stream', body, then: 'reset' });
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ ...anthropicConversation(), stream: true }) });
    const text = await response.text();
    assert.equal(harness.upstream.received.length, 1);
    assert.match(text, /event: error\ndata: .*Herald: the upstream's answer/);
    assert.ok(!text.includes('message_stop'), 'no clean end');
  });

  it('the provider\'s own error status still comes back as it came, once', async () => {
    harness = await startHarness({ kind: 'raw', status: 529, body: JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }), headers: { 'retry-after': '7' } });
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(anthropicConversation()) });
    assert.equal(response.status, 529);
    assert.equal(response.headers.get('retry-after'), '7');
    assert.equal(harness.upstream.received.length, 1);
  });

  it('no status line within --upstream-timeout: a 504 in the API\'s shape, one call', async () => {
    harness = await startHarness({ kind: 'silent' }, ['--upstream-timeout', '0.3']);
    const response = await fetch(`${harness.base}/v1/chat/completions`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(chatConversation()) });
    const body = (await response.json()) as { error: { message: string } };
    assert.equal(response.status, 504);
    assert.match(body.error.message, /did not start its answer within the gateway's first byte timeout/);
    assert.equal(harness.upstream.received.length, 1);
  });

  it('headers, then silence: a 504 after the idle timeout, one call', async () => {
    harness = await startHarness({ kind: 'broken', contentType: 'application/json', body: '', then: 'hang' }, ['--upstream-timeout', '5,5,0.3']);
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify(anthropicConversation()) });
    const body = (await response.json()) as { error: { message: string } };
    assert.equal(response.status, 504);
    assert.match(body.error.message, /went silent in the middle of its answer within the gateway's idle timeout/);
    assert.equal(harness.upstream.received.length, 1);
  });

  it('a stream gone silent mid-answer: the stream ends with an error event, one call', async () => {
    harness = await startHarness({ kind: 'stream', events: anthropicEvents({ blocks: [{ type: 'text', text: 'the start of it' }] }).slice(0, 4), hang: true }, ['--upstream-timeout', '5,5,0.3']);
    const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({ ...anthropicConversation(), stream: true }) });
    const text = await response.text();
    assert.match(text, /event: error\ndata: .*idle timeout/);
    assert.equal(harness.upstream.received.length, 1);
  });

  it('rejects a malformed --upstream-timeout', async () => {
    await assert.rejects(startHarness({ kind: 'silent' }, ['--upstream-timeout', '10,20']), /--upstream-timeout takes seconds/);
  });

  describe('JSON nested deeper than Herald can write', () => {
    const deep = (depth: number): string => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
    const cases = [
      { name: '5,000-deep metadata', body: `{"model":"claude-sonnet-4-5","max_tokens":10,"metadata":${deep(5000)},"messages":[{"role":"user","content":"hi"}]}` },
      { name: 'a 20,000-deep tool_use.input', body: `{"model":"claude-sonnet-4-5","max_tokens":10,"messages":[{"role":"user","content":"run it"},{"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":${deep(20000)}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"done"}]}]}` },
    ];
    for (const { name, body } of cases) {
      it(`${name} goes to the provider untouched (fail-open), never a 500`, async () => {
        harness = await startHarness({ kind: 'json', body: anthropicMessage({ blocks: [{ type: 'text', text: 'fine' }] }) });
        const response = await fetch(`${harness.base}/v1/messages`, { method: 'POST', headers: JSON_HEADERS, body });
        assert.equal(response.status, 200);
        assert.equal(((await response.json()) as { content: { text: string }[] }).content[0]!.text, 'fine');
        assert.equal(harness.upstream.received.length, 1);
        assert.equal(harness.upstream.received[0]!.body, body, 'byte for byte');
      });
    }
  });
});
