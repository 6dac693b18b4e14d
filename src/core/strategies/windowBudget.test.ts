import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { parseRequest, type ChatRequest } from '../chat';
import { partText } from '../chat/types';
import { Pipeline } from '../pipeline';
import { MemoryBlobStore, Stash } from '../stash';
import { findMarkers } from '../stash/marker';
import { TokenCounter } from '../tokens';
import { describeWithData, loadTrajectory, sharedPath, trajectoryNames, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { createWindowBudget } from './windowBudget';

const tokens = new TokenCounter();

function setup(options: Record<string, unknown> = {}): { pipeline: Pipeline; stash: Stash } {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline([createWindowBudget()], { options: { window_budget: options } }, { stash, tokens });
  return { pipeline, stash };
}

function logText(system: string, lines: number): string {
  return fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8').split('\n').slice(0, lines).join('\n');
}

/** A tool-calling conversation: each step reads one real log; the last question is about SSH. */
function toolConversation(): ChatRequest {
  const systems = ['Hadoop', 'OpenSSH', 'Zookeeper', 'Apache', 'HealthApp', 'Proxifier'];
  const messages: unknown[] = [
    { role: 'system', content: 'You are an operations agent.' },
    { role: 'user', content: 'Collect the logs of every service.' },
  ];
  systems.forEach((system, index) => {
    messages.push({ role: 'assistant', content: `Reading the ${system} log next, to see whether ${system} reported anything unusual during the incident window. I will compare its timestamps with the other services and note every component that logged a problem.`, tool_calls: [{ id: `call_${index}`, type: 'function', function: { name: 'read_log', arguments: JSON.stringify({ path: `${system}.log` }) } }] });
    messages.push({ role: 'tool', tool_call_id: `call_${index}`, content: logText(system, 150) });
  });
  messages.push({ role: 'assistant', content: 'All logs are collected.' });
  messages.push({ role: 'user', content: 'Which sshd sessions had invalid user logins and failed passwords from which rhost?' });
  return parseRequest({ model: 'gpt-4o', messages });
}

function texts(request: ChatRequest): string[] {
  return request.messages.map((message) => message.parts.map(partText).join('\n'));
}

const withData = describeWithData;

withData('window_budget', () => {
  it('does nothing without a budget, and nothing when the request fits', async () => {
    const request = toolConversation();
    const noBudget = await setup().pipeline.run(request);
    assert.equal(noBudget.decisions[0]!.action, 'no-budget');
    assert.equal(noBudget.request, request);
    const fits = await setup().pipeline.run(request, { windowTokens: 1_000_000 });
    assert.equal(fits.decisions[0]!.action, 'within-budget');
    assert.equal(fits.request, request);
  });

  it('uses 95% of the reported window, crops the middle, keeps setup, recent turns and tool ids, and expands back', async () => {
    const request = toolConversation();
    const total = tokens.countRequest(request);
    const windowTokens = Math.floor(total * 0.7);
    const { pipeline, stash } = setup({ keepRecent: 2 });
    const result = await pipeline.run(request, { windowTokens });
    const decision = result.decisions[0]!;
    assert.equal(decision.action, 'history-cropped', decision.reason);
    assert.equal(decision.details?.budget, Math.floor(windowTokens * 0.95));
    assert.ok(result.tokensAfter <= Math.floor(windowTokens * 0.95), `${result.tokensAfter} tokens after cropping`);
    const before = texts(request);
    const after = texts(result.request);
    assert.deepEqual(after.slice(0, 2), before.slice(0, 2), 'setup stays');
    assert.deepEqual(after.slice(-2), before.slice(-2), 'recent turns stay');
    // A call and its result are cropped together, and every tool call keeps its id and arguments.
    for (let index = 2; index < 14; index += 2) {
      const callCropped = findMarkers(after[index]!).length > 0;
      const resultCropped = findMarkers(after[index + 1]!).length > 0;
      assert.equal(callCropped, resultCropped, `unit at ${index}: call and result cropped together`);
      assert.deepEqual(result.request.messages[index]!.parts.filter((part) => part.type === 'tool_call'), request.messages[index]!.parts.filter((part) => part.type === 'tool_call'));
    }
    for (let index = 0; index < before.length; index++) assert.equal(await stash.expandText(after[index]!), before[index]);
  });

  it('weighs relevance against recency: the relevant old log survives, and a zero weight crops oldest first', async () => {
    const request = toolConversation();
    const maxTokens = Math.floor(tokens.countRequest(request) * 0.55);
    const byRelevance = await setup({ maxTokens, keepRecent: 2, relevanceWeight: 1 }).pipeline.run(request);
    const relevant = texts(byRelevance.request);
    // Message 5 is the OpenSSH log the question is about.
    assert.equal(findMarkers(relevant[5]!).length, 0, byRelevance.decisions[0]!.reason);
    assert.ok(relevant.some((text) => findMarkers(text).length > 0));
    const byAge = await setup({ maxTokens, keepRecent: 2, relevanceWeight: 0 }).pipeline.run(request);
    const aged = texts(byAge.request);
    const croppedUnits = [2, 4, 6, 8, 10, 12].map((index) => findMarkers(aged[index + 1]!).length > 0);
    const firstKept = croppedUnits.indexOf(false);
    assert.ok(firstKept > 0, 'something was cropped');
    assert.ok(croppedUnits.slice(firstKept).every((cropped) => !cropped), `oldest first: ${croppedUnits.join(',')}`);
  });

  it('on a real trajectory: every request fits, crops are replayed byte for byte, and the cache breaks only on crop events', async () => {
    const bodies = turnRequests(loadTrajectory(trajectoryNames()[4]!));
    const largest = Math.max(...bodies.map((body) => tokens.countRequest(parseRequest(body))));
    const maxTokens = Math.floor(largest * 0.6);
    const { pipeline, stash } = setup({ maxTokens });
    const summary = await replay(pipeline, stash, bodies, tokens);
    assert.equal(summary.losslessTurns, summary.turns.length);
    let cropEvents = 0;
    summary.turns.forEach((turn, index) => {
      const decision = turn.decisions[0]!;
      // Over budget is allowed only once nothing croppable is left (setup, recent turns and failures stay).
      const exhausted = decision.details?.cropped === decision.details?.candidates;
      assert.ok(turn.tokensAfter <= maxTokens || exhausted, `turn ${index}: ${turn.tokensAfter} > ${maxTokens} (${decision.reason})`);
      const frozenCrops = Number(decision.details?.croppedFrozen ?? 0);
      if (frozenCrops > 0) cropEvents++;
      if (!turn.prefixStable) assert.ok(frozenCrops > 0, `turn ${index} changed the cached prefix without a crop event`);
    });
    assert.ok(summary.turns.some((turn) => turn.decisions[0]!.action === 'crops-replayed'), 'earlier crops are replayed');
    assert.ok(cropEvents >= 1 && cropEvents < summary.turns.length / 3, `${cropEvents} crop events in ${summary.turns.length} turns`);
  });

  it('rejects out-of-range and unknown options', async () => {
    const result = await setup({ windowShare: 1.5 }).pipeline.run(toolConversation(), { windowTokens: 10 });
    assert.equal(result.decisions[0]!.status, 'failed');
    assert.match(result.decisions[0]!.reason, /"windowShare" must be between 0 and 1/);
    assert.throws(() => setup({ nope: 1 }), /unknown option "nope"/);
  });
});
