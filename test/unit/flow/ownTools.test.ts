import { strict as assert } from 'node:assert';
import { partText, type ChatRequest } from '../../../src/core/chat/types';
import { RecordingLogger } from '../../../src/core/ports';
import type { OwnToolRound, ResponseChunk } from '../../../src/core/flow/forwardTarget';
import type { OwnTool } from '../../../src/core/flow/ownTool';
import { OWN_TOOLS } from '../../../src/core/flow/ownTools';
import { RETRIEVE_TOOL_NAME } from '../../../src/core/flow/retrieveTool';
import { runRequestFlow, type RequestFlowInput } from '../../../src/core/flow/requestFlow';
import { FakeTarget, type Script } from './fakeTarget';

const MARKER_TEXT = 'see [herald: 20 lines elided · retrieve hr_aaaaaaaaaaaaaaaa]';

function request(text = 'Hello', tools: ChatRequest['tools'] = [{ name: 'run' }]): ChatRequest {
  return { format: 'neutral', messages: [{ role: 'user', parts: [{ type: 'text', text }], contentShape: 'parts' }], tools, options: {} };
}

/** A second own tool, as the tool catalog will be: offered on a word, answered with text and a revision. */
function probeTool(log: string[] = []): OwnTool {
  return {
    name: 'herald_probe',
    offer: (context) => (partText(context.request.messages[0]!.parts[0]!).includes('probe') ? { name: 'herald_probe', description: 'probe' } : undefined),
    answer: async (input, context) => {
      log.push(`${JSON.stringify(input)} caller tools: ${context.original.tools.map((tool) => tool.name).join(',')}`);
      return { text: 'probe answer', revise: (next) => ({ ...next, tools: [...next.tools, { name: 'loaded_by_probe' }] }) };
    },
  };
}

function run(scripts: Script[], overrides: Partial<RequestFlowInput> = {}, target = new FakeTarget(scripts)) {
  const reported: ResponseChunk[] = [];
  const input: RequestFlowInput = {
    id: 'r1',
    request: request(),
    target,
    optimize: undefined,
    retrieve: async (handle) => (handle === 'hr_aaaaaaaaaaaaaaaa' ? 'the original' : undefined),
    report: (chunk) => reported.push(chunk),
    signal: new AbortController().signal,
    retrieveRounds: 4,
    logger: new RecordingLogger(),
    countTokens: () => 1,
    ...overrides,
  };
  return { target, reported, promise: runRequestFlow(input) };
}

const wire = (name: string, extra: object = {}) => ({ type: 'wire' as const, wire: [{ event: name, data: name }], ...extra });

describe('Herald\'s own tools (the registry)', () => {
  it('offers a registered tool only when its rule says so, answers it in the turn and counts it per tool', async () => {
    const log: string[] = [];
    const quiet = run([[{ type: 'text', text: 'hi' }]], { ownTools: [...OWN_TOOLS, probeTool(log)] });
    await quiet.promise;
    assert.deepEqual(quiet.target.received[0]!.tools.map((tool) => tool.name), ['run'], 'no markers, no probe word: nothing offered');

    const asked = run([[{ type: 'tool_call', id: 'p1', name: 'herald_probe', input: { what: 'x' } }], [{ type: 'text', text: 'done' }]], { request: request('probe this'), ownTools: [...OWN_TOOLS, probeTool(log)] });
    const record = await asked.promise;
    assert.deepEqual(asked.target.received[0]!.tools.map((tool) => tool.name), ['run', 'herald_probe']);
    assert.deepEqual(asked.reported, [{ type: 'text', text: 'done' }], 'the caller never sees the probe call');
    const followUp = asked.target.received[1]!;
    assert.equal(partText(followUp.messages.at(-1)!.parts[0]!), 'probe answer');
    assert.deepEqual(followUp.tools.map((tool) => tool.name), ['run', 'herald_probe', 'loaded_by_probe'], 'the answer revised the next round');
    assert.deepEqual(log, ['{"what":"x"} caller tools: run'], 'the tool saw the caller\'s own tools');
    assert.deepEqual(record.ownToolCalls, { herald_probe: 1 });
    assert.equal(record.retrievals, 0);
  });

  it('answers an own tool a strategy already put in the request without offering it twice', async () => {
    const inRequest = { ...request('probe'), tools: [{ name: 'run' }, { name: 'herald_probe', description: 'from a strategy' }] };
    const flow = run([[{ type: 'tool_call', id: 'p1', name: 'herald_probe', input: {} }], [{ type: 'text', text: 'ok' }]], {
      request: request('probe'),
      ownTools: [probeTool()],
      optimize: async () => ({ request: inRequest, decisions: [], tokensBefore: 1, tokensAfter: 1, durationMs: 0, replayedMessages: 0, sessionId: 's', holdout: false, savedByStrategy: {}, elisions: [] }),
    });
    await flow.promise;
    assert.equal(flow.target.received[0]!.tools.filter((tool) => tool.name === 'herald_probe').length, 1);
    assert.equal(flow.target.received.length, 2, 'answered in the turn');
  });

  it('answers with the failure when an own tool throws, and the turn goes on', async () => {
    const failing: OwnTool = { name: 'herald_fail', offer: () => ({ name: 'herald_fail' }), answer: async () => { throw new Error('disk gone'); } };
    const flow = run([[{ type: 'tool_call', id: 'f', name: 'herald_fail', input: {} }], [{ type: 'text', text: 'fine' }]], { ownTools: [failing] });
    await flow.promise;
    const answer = flow.target.received[1]!.messages.at(-1)!.parts[0]!;
    assert.ok(answer.type === 'tool_result' && answer.isError === true);
    assert.match(partText(answer), /herald_fail failed \(disk gone\)/);
  });

  it('lets a target write the next round in its own wire shape', async () => {
    class WireTarget extends FakeTarget {
      rounds: OwnToolRound[] = [];
      continueAfter(current: ChatRequest, round: OwnToolRound): ChatRequest {
        this.rounds.push(round);
        return { ...current, options: { ...current.options, continued: this.rounds.length } };
      }
    }
    const target = new WireTarget([[{ type: 'text', text: 'Let me look. ' }, { type: 'tool_call', id: 'x', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }], [{ type: 'text', text: 'ok' }]]);
    const flow = run([], { request: request(MARKER_TEXT) }, target);
    await flow.promise;
    assert.equal(target.rounds.length, 1);
    assert.equal(target.rounds[0]!.text, 'Let me look. ');
    assert.deepEqual(target.rounds[0]!.calls.map((call) => [call.call.id, call.answer]), [['x', 'the original']]);
    assert.equal(target.received[1]!.options.continued, 1);
    assert.equal(target.received[1]!.messages.length, 1, 'no neutral messages appended behind the target\'s back');
  });
});

describe('raw provider events through the flow', () => {
  it('passes events through as they arrive when Herald has nothing to answer', async () => {
    const script: ResponseChunk[] = [wire('open', { phase: 'opening' }), wire('start'), { type: 'text', text: 'a', wire: [{ data: 'a' }] }, { type: 'usage', usage: { inputTokens: 10, outputTokens: 2 } }, wire('close', { phase: 'closing' })];
    const flow = run([script]);
    const record = await flow.promise;
    assert.deepEqual(flow.reported, script);
    assert.deepEqual(record.usage, { inputTokens: 10, outputTokens: 2 });
  });

  it('continues one answer over a retrieve round: one opening, the last round\'s closing, Herald\'s call and its events never shown, usage summed', async () => {
    const first: ResponseChunk[] = [
      wire('open-1', { phase: 'opening' }),
      { type: 'text', text: 'Checking. ', wire: [{ data: 't1' }] },
      wire('retrieve-start', { call: { id: 'x', name: RETRIEVE_TOOL_NAME } }),
      { type: 'tool_call', id: 'x', name: RETRIEVE_TOOL_NAME, input: { handle: 'hr_aaaaaaaaaaaaaaaa' }, wire: [{ data: 'retrieve-stop' }] },
      { type: 'usage', usage: { inputTokens: 100, outputTokens: 5, cacheReadTokens: 90 } },
      wire('close-1', { phase: 'closing' }),
    ];
    const second: ResponseChunk[] = [wire('open-2', { phase: 'opening' }), { type: 'text', text: 'Found it.', wire: [{ data: 't2' }] }, { type: 'usage', usage: { inputTokens: 120, outputTokens: 7 } }, wire('close-2', { phase: 'closing' })];
    const flow = run([first, second], { request: request(MARKER_TEXT) });
    const record = await flow.promise;
    const shown = flow.reported.flatMap((chunk) => ('wire' in chunk && chunk.wire ? chunk.wire.map((event) => String(event.data)) : []));
    assert.deepEqual(shown, ['open-1', 't1', 't2', 'close-2']);
    assert.deepEqual(record.usage, { inputTokens: 220, outputTokens: 12, cacheReadTokens: 90 });
    assert.equal(record.retrievals, 1);
  });

  it('holds the caller\'s call (early events included) until the round ends, then sends it before the closing', async () => {
    const script: ResponseChunk[] = [
      wire('open', { phase: 'opening' }),
      wire('run-start', { call: { id: 'y', name: 'run' } }),
      wire('ping'),
      { type: 'tool_call', id: 'y', name: 'run', input: {}, wire: [{ data: 'run-stop' }] },
      wire('close', { phase: 'closing' }),
    ];
    const flow = run([script], { request: request(MARKER_TEXT) });
    await flow.promise;
    const order = flow.reported.flatMap((chunk) => ('wire' in chunk && chunk.wire ? chunk.wire.map((event) => String(event.data)) : []));
    assert.deepEqual(order, ['open', 'ping', 'run-start', 'run-stop', 'close']);
    assert.equal(flow.target.received.length, 1);
  });

  it('streams the caller\'s call events as they arrive when no own tool is offered', async () => {
    const script: ResponseChunk[] = [wire('run-start', { call: { id: 'y', name: 'run' } }), wire('ping'), { type: 'tool_call', id: 'y', name: 'run', input: {}, wire: [] }];
    const flow = run([script]);
    await flow.promise;
    assert.deepEqual(flow.reported, script);
  });
});

describe('herald_retrieve definition', () => {
  it('stays small: it rides in every request of an agent\'s session, and on a short task most of what Herald adds is its tokens', async () => {
    const { RETRIEVE_TOOL } = await import('../../../src/core/flow/retrieveTool');
    const { TokenCounter } = await import('../../../src/core/tokens');
    const tokens = new TokenCounter().countTool(RETRIEVE_TOOL);
    // Counted the way Herald counts a tool: 39 tokens now, 51 for the definition before this limit.
    assert.ok(tokens <= 40, `herald_retrieve costs ${tokens} tokens a request`);
    assert.ok(RETRIEVE_TOOL.description!.includes('hr_'), 'it still says which handle it takes');
    assert.deepEqual((RETRIEVE_TOOL.inputSchema as { required?: string[] }).required, ['handle']);
  });
});
