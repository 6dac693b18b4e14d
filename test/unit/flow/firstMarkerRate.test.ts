/** How often a client's model asks for a session's first marker: learned by the flow, handed to the pipeline. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest, ToolDefinition } from '../../../src/core/chat/types';
import { FirstMarkerRate, FirstMarkerRates } from '../../../src/core/flow/firstMarkerRate';
import { runRequestFlow } from '../../../src/core/flow/requestFlow';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { findMarkers } from '../../../src/core/stash/marker';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { FakeTarget, type Script } from './fakeTarget';

describe('FirstMarkerRate', () => {
  it('starts cautious, falls with sessions whose markers went unasked, and rises when the model asks', () => {
    const rate = new FirstMarkerRate();
    assert.equal(rate.risk(), 1, 'no evidence: every first marker is taken to bring a round');
    for (let index = 0; index < 9; index++) rate.shown(`s${index}`);
    rate.shown('s0');
    assert.equal(rate.risk(), 1 / 10, 'nine sessions, none asked (a session counts once)');
    rate.asked('s3');
    rate.asked('s3');
    assert.equal(rate.risk(), 2 / 10, 'one session asked (once, however often)');
    rate.asked('new');
    assert.equal(rate.risk(), 3 / 11, 'a retrieve in a session not seen yet counts it too');
  });

  it('is bounded: the oldest session leaves with what it counted', () => {
    const rate = new FirstMarkerRate(3);
    rate.asked('a');
    rate.shown('b');
    rate.shown('c');
    assert.equal(rate.risk(), 2 / 4);
    rate.shown('d');
    assert.equal(rate.risk(), 1 / 4, "'a' and its retrieve are forgotten");
  });

  it('keeps tenants apart, and gives an anonymous request a fresh, cautious record', () => {
    const rates = new FirstMarkerRates();
    for (let index = 0; index < 4; index++) rates.of('team-a').shown(`s${index}`);
    assert.equal(rates.of('team-a').risk(), 1 / 5);
    assert.equal(rates.of('team-b').risk(), 1, "another tenant's sessions do not set this one's prices");
    rates.of('anon', true).shown('x');
    assert.equal(rates.of('anon', true).risk(), 1);
  });
});

/** An agent's tools: most of each request, as Claude Code's are (a round re-reads them). */
const TOOLS: ToolDefinition[] = [
  { name: 'Bash', description: 'Runs a shell command.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  ...Array.from({ length: 30 }, (_, index) => ({
    name: `tool_${index}`,
    description: Array.from({ length: 12 }, (__, line) => `Use tool_${index} to inspect resource kind ${line} of the workspace; pass the path and an optional filter expression.`).join(' '),
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
  })),
];
const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const call = (id: string, command: string): ChatMessage => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'Bash', arguments: { command } }], contentShape: 'parts' });
const result = (id: string, value: string): ChatMessage => ({ role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: value }], contentShape: 'parts' }], contentShape: 'parts' });
const log = (lines: number): string => Array.from({ length: lines }, (_, index) => (index === lines >> 1 ? `src/app.ts(${index},7): error TS2322: Type 'string' is not assignable to type 'number'.` : `[${String(index).padStart(5, '0')}] compiling module_${index % 37}.ts ... ok`)).join('\n');
/** A session's first request: a question and the build log a command printed. */
const session = (name: string, lines: number): ChatRequest => ({ format: 'anthropic', messages: [text('user', `Which modules does build ${name} compile?`), call('c1', 'cat build.log'), result('c1', log(lines))], tools: TOOLS, options: {} });

/** A model that asks for the first marker it sees, or never does. */
function model(asks: boolean): Script {
  return (request) => {
    const handle = asks ? findMarkers(JSON.stringify(request.messages))[0]?.handle : undefined;
    return handle ? [{ type: 'tool_call', id: 'r1', name: 'herald_retrieve', input: { handle } }] : [{ type: 'text', text: 'A type error in src/app.ts.' }];
  };
}

function flow(asks: boolean) {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline(createStrategies(), { firstMarkerRound: true }, { stash, tokens });
  const target = new FakeTarget(Array.from({ length: 60 }, () => model(asks)));
  const firstMarkerRate = new FirstMarkerRate();
  const risks: number[] = [];
  const send = (request: ChatRequest) =>
    runRequestFlow({
      id: 'r', request, target, retrieveRounds: 4, logger: new RecordingLogger(), signal: new AbortController().signal, report: () => undefined, firstMarkerRate,
      optimize: (next, windowTokens, signal, targetKind, firstMarkerRisk) => {
        risks.push(firstMarkerRisk ?? Number.NaN);
        return pipeline.run(next, { windowTokens, signal, ...(targetKind ? { targetKind } : {}), ...(firstMarkerRisk !== undefined ? { firstMarkerRisk } : {}) });
      },
      retrieve: (handle) => stash.retrieve(handle),
      countTokens: (next) => tokens.countRequest(next),
    });
  const digested = (request: ChatRequest): boolean => findMarkers(JSON.stringify(request.messages)).length > 0;
  return { send, target, risks, firstMarkerRate, digested };
}

describe('the flow learns how often its model asks for a first marker', () => {
  it('hands the pipeline the rate it measured: a model that never asks soon gets its short sessions digested, one that asks keeps them whole', async () => {
    const quiet = flow(false);
    assert.equal((await quiet.send(session('s0', 120))).retrievals, 0);
    assert.equal(quiet.digested(quiet.target.received[0]!), false, 'cautious at first: a 120-line log goes out whole');
    // Sessions with logs large enough to pay for a round show markers; the model does not ask.
    for (let index = 1; index <= 9; index++) await quiet.send(session(`big${index}`, 6000));
    assert.ok(quiet.target.received.slice(1).every((request) => quiet.digested(request)), 'the large logs are digested');
    await quiet.send(session('s1', 120));
    assert.equal(quiet.risks[quiet.risks.length - 1], 1 / 10, 'the pipeline was told the measured rate');
    assert.ok(quiet.digested(quiet.target.received[quiet.target.received.length - 1]!), 'now a short session\'s log is digested too');

    const asking = flow(true);
    for (let index = 1; index <= 9; index++) await asking.send(session(`big${index}`, 6000));
    assert.equal(asking.firstMarkerRate.risk(), 1, 'every session that showed a marker asked for it');
    await asking.send(session('s1', 120));
    assert.equal(asking.digested(asking.target.received[asking.target.received.length - 1]!), false, 'a short session still goes out whole');
  });
});
