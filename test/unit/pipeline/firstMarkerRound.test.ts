/** `firstMarkerRound`: a session's first marker priced as a certain retrieve round; what does not pay for it waits, undecided. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { cachePricesOf, FIRST_MARKER_DEFERRAL_REQUESTS, firstMarkerGain } from '../../../src/core/pipeline/cacheEconomics';
import { Pipeline, type PipelineConfig, type RunOptions } from '../../../src/core/pipeline/pipeline';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { pipelineConfigOf } from '../../../src/vscode/optimizer/optimizer';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';
import { newStash } from './fakes';

const ANTHROPIC = cachePricesOf({ format: 'anthropic' });
const OPENAI = cachePricesOf({ format: 'openai' });

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const call = (id: string, command: string): ChatMessage => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name: 'Bash', arguments: { command } }], contentShape: 'parts' });
const result = (id: string, value: string): ChatMessage => ({ role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: value }], contentShape: 'parts' }], contentShape: 'parts' });
/** An agent's tools block: the bulk of each request (a retrieve round re-reads it), as Claude Code's is. */
const TOOLS = [
  { name: 'Bash', description: 'Runs a shell command and returns its output.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  ...Array.from({ length: 30 }, (_, index) => ({
    name: `tool_${index}`,
    description: Array.from({ length: 12 }, (__, line) => `Use tool_${index} to inspect resource kind ${line} of the workspace; pass the path and an optional filter expression.`).join(' '),
    inputSchema: { type: 'object', properties: { path: { type: 'string' }, filter: { type: 'string' } } },
  })),
];

/** A build log of mostly repeated progress lines (command_digest's meat) with one real error. */
function buildLog(lines: number): string {
  const out: string[] = [];
  for (let index = 0; index < lines; index++) out.push(index === Math.floor(lines / 2) ? `src/app.ts(${index},7): error TS2322: Type 'string' is not assignable to type 'number'.` : `[${String(index).padStart(5, '0')}] compiling module_${index % 37}.ts ... ok`);
  return out.join('\n');
}

/** A session that runs `cat build.log` and then `ls`, request by request. */
function session(logLines: number): ChatRequest[] {
  const messages: ChatMessage[] = [text('user', 'Which modules does the build compile?'), call('c1', 'cat build.log'), result('c1', buildLog(logLines)), call('c2', 'ls'), result('c2', 'README.md\nsrc\npackage.json')];
  return [3, 5].map((end) => ({ format: 'anthropic', messages: messages.slice(0, end), tools: TOOLS, options: {} }));
}

function pipeline(config: PipelineConfig = {}): Pipeline {
  return new Pipeline(createStrategies(), config, { stash: newStash(), tokens: new TokenCounter() });
}

const ENDPOINT: RunOptions = { targetKind: 'endpoint' };
/** The text of a tool result (the cache breakpoint Herald may put on it is not content). */
const outputText = (request: ChatRequest, index: number): string =>
  request.messages[index]!.parts.flatMap((part) => (part.type === 'tool_result' ? part.content.flatMap((inner) => (inner.type === 'text' ? [inner.text] : [])) : [])).join('\n');

describe('firstMarkerRound: a session\'s first marker pays for its retrieve round, or waits', () => {
  it('prices a run\'s elisions together against one round: the request re-read and the largest original written', () => {
    const fresh = { before: [100, 3100], after: [100, 500], cachedEnd: 1, requestTokens: 12_000, originalTokens: 3100 };
    // saved 2,600 · (1 + 0.1 · 3) = 3,380 against 0.1 · 12,000 + 3,100 = 4,300
    assert.equal(Math.round(firstMarkerGain({ ...fresh, remainingRequests: 3 }, OPENAI)), 3380 - 4300);
    assert.ok(firstMarkerGain({ ...fresh, remainingRequests: 20 }, OPENAI) > 0, 'a session with many requests left repays it');
    // A cached message rewritten makes the provider write everything cached after it once.
    const cached = { before: [1000, 3000, 5000, 200], after: [1000, 500, 5000, 200], cachedEnd: 3, requestTokens: 9200, originalTokens: 3000, remainingRequests: 10 };
    const expected = 0.1 * 2500 * 10 - (1.25 * 500 - 0.1 * 3000) - (1.25 - 0.1) * 5000 - (0.1 * 9200 + 1.25 * 3000);
    assert.equal(Math.round(firstMarkerGain(cached, ANTHROPIC)), Math.round(expected));
  });

  it('keeps a short session\'s first digest whole when it cannot repay the round, and says so', async () => {
    const [first] = session(120);
    const usual = await pipeline().run(first!, ENDPOINT);
    assert.notEqual(outputText(usual.request, 2), outputText(first!, 2), 'without the option the log is digested (the option is what keeps it)');
    const priced = await pipeline({ firstMarkerRound: true }).run(first!, ENDPOINT);
    assert.equal(outputText(priced.request, 2), outputText(first!, 2), 'the log goes out whole');
    assert.equal(priced.elisions.length, 0);
    const deferred = priced.decisions.filter((decision) => decision.action === 'first-markers-deferred');
    assert.ok(deferred.length > 0, 'a decision says why');
    assert.ok(deferred.every((decision) => typeof decision.details?.firstMarkerGain === 'number' && decision.details.firstMarkerGain <= 0 && decision.tokensAfter === decision.tokensBefore));
  });

  it('leaves what waited undecided: nothing is frozen while the session shows no marker, where the usual rule decides history once', async () => {
    const [first, second] = session(120);
    const usual = pipeline();
    await usual.run(first!, ENDPOINT);
    assert.ok((await usual.run(second!, ENDPOINT)).replayedMessages > 0, 'the usual rule decides history once');
    const priced = pipeline({ firstMarkerRound: true });
    await priced.run(first!, ENDPOINT);
    const next = await priced.run(second!, ENDPOINT);
    assert.equal(next.replayedMessages, 0, 'nothing was frozen while the session had no marker');
    assert.equal(outputText(next.request, 2), outputText(second!, 2), 'and the log, cached whole now, stays whole while rewriting it does not pay');
  });

  it('elides as usual once a run\'s elisions pay for the round (a log that is most of the request)', async () => {
    const [first] = session(6000);
    const priced = await pipeline({ firstMarkerRound: true }).run(first!, ENDPOINT);
    assert.ok(priced.elisions.length > 0, 'the log is digested');
    assert.ok(!priced.decisions.some((decision) => decision.action === 'first-markers-deferred'));
    assert.ok(priced.tokensAfter < priced.tokensBefore / 4);
  });

  it('defers no more once the session has run FIRST_MARKER_DEFERRAL_REQUESTS requests: the log is digested as the usual rule would', async () => {
    const steps: ChatMessage[] = [text('user', 'Which modules does the build compile?')];
    for (let index = 0; index < FIRST_MARKER_DEFERRAL_REQUESTS; index++) steps.push(call(`s${index}`, `ls dir${index}`), result(`s${index}`, `file${index}.ts`));
    steps.push(call('log', 'cat build.log'), result('log', buildLog(120)));
    // A large tools block: a round would re-read it, more than the digest saves over ten requests.
    const tools = [...TOOLS, ...TOOLS.slice(1).map((tool) => ({ ...tool, name: `${tool.name}_more` })), ...TOOLS.slice(1).map((tool) => ({ ...tool, name: `${tool.name}_extra` }))];
    const request: ChatRequest = { format: 'anthropic', messages: steps, tools, options: {} };
    // The tools stay whole (no catalog), so a round re-reads all of them.
    const config: PipelineConfig = { firstMarkerRound: true, enabled: { tool_catalog: false, tool_schema_compression: false } };
    const late = await pipeline(config).run(request, ENDPOINT);
    assert.ok(late.elisions.length > 0 && !late.decisions.some((decision) => decision.action === 'first-markers-deferred'), 'the log is digested');
    const early: ChatRequest = { ...request, messages: [...steps.slice(0, 3), ...steps.slice(-2)] };
    const waited = await pipeline(config).run(early, ENDPOINT);
    assert.ok(waited.decisions.some((decision) => decision.action === 'first-markers-deferred'), 'the same log two requests in still waits');
  });

  it('applies only where a flow can run the round (a target kind is given) and with the cache priced (no fixed share)', async () => {
    const [first] = session(120);
    const offline = await pipeline({ firstMarkerRound: true }).run(first!);
    assert.notEqual(outputText(offline.request, 2), outputText(first!, 2), 'herald optimize: no round, no gate');
    const fixed = await pipeline({ firstMarkerRound: true, cachedRewriteMinSavedShare: 0.4 }).run(first!, ENDPOINT);
    assert.notEqual(outputText(fixed.request, 2), outputText(first!, 2), 'the fixed rule prices no round');
  });

  it('is off in the editor unless herald.cache.firstMarkerRound is set', () => {
    const strategies = createStrategies({});
    const editorConfig = (value: unknown): PipelineConfig => pipelineConfigOf(readSettings((key) => (key === 'cache.firstMarkerRound' ? value : undefined)).settings, strategies).config;
    assert.equal(editorConfig(undefined).firstMarkerRound, undefined);
    assert.equal(editorConfig(true).firstMarkerRound, true);
  });

  it('prices the round at the risk the host measured: a model that rarely asks gets its digest, and one at the usual risk is not gated', async () => {
    const [first] = session(120);
    const measured = await pipeline({ firstMarkerRound: true }).run(first!, { ...ENDPOINT, firstMarkerRisk: 0.1 });
    assert.notEqual(outputText(measured.request, 2), outputText(first!, 2), 'one round in ten is repaid');
    assert.ok(!measured.decisions.some((decision) => decision.action === 'first-markers-deferred'));
    const usual = await pipeline({ firstMarkerRound: true }).run(first!, { ...ENDPOINT, firstMarkerRisk: 0.01 });
    assert.notEqual(outputText(usual.request, 2), outputText(first!, 2));
    const cautious = await pipeline({ firstMarkerRound: true }).run(first!, { ...ENDPOINT, firstMarkerRisk: 1 });
    assert.equal(outputText(cautious.request, 2), outputText(first!, 2), 'every first marker retrieved: it waits');
  });

  it('rejects a value that is not a boolean, naming the option', () => {
    assert.throws(() => pipeline({ firstMarkerRound: 'yes' as unknown as boolean }), /Herald: firstMarkerRound must be true or false/);
  });
});
