/**
 * Copilot's request shape through the default pipeline, on Copilot's own export and on a
 * session assembled in its shape: parallel tool calls, cache breakpoints and stateful markers,
 * a system prompt that changes between prompts, a summary request, thinking parts.
 */
import { strict as assert } from 'node:assert';
import { contentKey } from '../../../src/core/chat/cacheHints';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { freshStartOf, Pipeline, type PipelineResult } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { CACHE_CONTROL_MIME, copilotShapedSession, loadCopilotExport, STATEFUL_MARKER_MIME, type ClientSession } from '../../support/clients';
import { sharedPrefix } from '../../support/clients/clientReplay';
import { expandsBack } from '../../support/replay';
import { describeWithData, loadTrajectory, trajectoryNames } from '../../support/sharedData';

const json = (value: unknown): string => JSON.stringify(value);

/** Every data part and opaque part of a message, where it stands: what must pass through untouched. */
function passThrough(message: ChatMessage): string[] {
  const found: string[] = [];
  message.parts.forEach((part, index) => {
    if (part.type === 'data' || part.type === 'opaque') found.push(`${index}:${json(part)}`);
    if (part.type === 'tool_result') part.content.forEach((inner, at) => (inner.type === 'data' || inner.type === 'opaque') && found.push(`${index}.${at}:${json(inner)}`));
  });
  return found;
}

interface Replayed {
  readonly input: ChatRequest;
  readonly result: PipelineResult;
  readonly optimized: ChatRequest;
}

async function replay(session: ClientSession): Promise<{ turns: Replayed[]; stash: Stash }> {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens: new TokenCounter() });
  const turns: Replayed[] = [];
  for (const entry of session.requests) {
    const result = await pipeline.run(entry.request);
    turns.push({ input: entry.request, result, optimized: session.roundTrip(result.request) });
  }
  return { turns, stash };
}

describeWithData('Copilot\'s request shape through the pipeline (shared data)', function () {
  this.timeout(120_000);
  let exported: ClientSession;
  let assembled: ClientSession;
  let gpt: ClientSession;
  let runs: { exported: Replayed[]; assembled: Replayed[]; gpt: Replayed[]; stashes: Stash[] };

  before(async () => {
    exported = loadCopilotExport();
    assembled = copilotShapedSession(loadTrajectory(trajectoryNames()[0]!), 0);
    gpt = copilotShapedSession(loadTrajectory(trajectoryNames()[1]!), 1);
    const [a, b, c] = [await replay(exported), await replay(assembled), await replay(gpt)];
    runs = { exported: a.turns, assembled: b.turns, gpt: c.turns, stashes: [a.stash, b.stash, c.stash] };
  });

  it('passes cache breakpoints, stateful markers and thinking parts through untouched, where the client put them', () => {
    let checked = 0;
    for (const turn of [...runs.exported, ...runs.assembled, ...runs.gpt]) {
      turn.input.messages.forEach((message, index) => {
        const expected = passThrough(message);
        checked += expected.length;
        assert.deepEqual(passThrough(turn.optimized.messages[index]!), expected, `message ${index}`);
      });
    }
    const all = json([...runs.exported, ...runs.assembled, ...runs.gpt].map((turn) => turn.input.messages));
    assert.ok(all.includes(CACHE_CONTROL_MIME) && all.includes(STATEFUL_MARKER_MIME), 'the sessions carry breakpoints and markers');
    assert.ok(runs.assembled.at(-1)!.input.messages.some((message) => message.parts.some((part) => part.type === 'opaque')), 'and thinking parts');
    assert.ok(checked > 100);
  });

  it('keeps its history decisions when Copilot moves a breakpoint off a history message', () => {
    // The fourth request's tool result lost the breakpoint it had in the third: its decision is replayed, not taken again.
    const [, , third, fourth] = runs.exported;
    assert.notEqual(json(third!.input.messages[4]), json(fourth!.input.messages[4]), 'the client changed the message\'s bytes');
    assert.equal(contentKey(third!.input.messages[4]!), contentKey(fourth!.input.messages[4]!), 'but not its content');
    assert.ok(fourth!.result.replayedMessages >= freshStartOf(third!.input.messages), `replayed ${fourth!.result.replayedMessages}`);
    for (const turns of [runs.assembled, runs.gpt]) {
      turns.forEach((turn, index) => {
        const previous = turns[index - 1];
        if (!previous) return;
        const clientKept = sharedPrefix(previous.input, turn.input);
        if (clientKept < freshStartOf(previous.input.messages)) return;
        assert.ok(turn.result.replayedMessages >= freshStartOf(previous.input.messages), `request ${index}: replayed ${turn.result.replayedMessages} of ${freshStartOf(previous.input.messages)} decided`);
      });
    }
  });

  it('treats a batch of parallel tool results as fresh input, then as history replayed byte for byte', () => {
    let batches = 0;
    runs.assembled.forEach((turn, index) => {
      const freshStart = freshStartOf(turn.input.messages);
      const fresh = turn.input.messages.slice(freshStart);
      if (fresh.length < 2 || !fresh.every((message) => message.parts.every((part) => part.type === 'tool_result'))) return;
      batches++;
      // Fresh: every result of the batch reaches the model as it came.
      fresh.forEach((message, at) => assert.equal(json(turn.optimized.messages[freshStart + at]), json(message), `request ${index}, result ${at}`));
      // History next turn: decided once, then repeated byte for byte.
      const next = runs.assembled[index + 1];
      const after = runs.assembled[index + 2];
      if (!next || !after || next.input.messages.length <= turn.input.messages.length) return;
      for (let at = freshStart; at < turn.input.messages.length; at++) assert.equal(contentKey(after.optimized.messages[at]!), contentKey(next.optimized.messages[at]!));
    });
    assert.ok(batches >= 1, 'the session has a batch of parallel results');
  });

  it('keeps the prefix as stable as the client does, across the system prompt change, and every request expands back', async () => {
    for (const [turns, stash] of [[runs.exported, runs.stashes[0]!], [runs.assembled, runs.stashes[1]!], [runs.gpt, runs.stashes[2]!]] as const) {
      for (let index = 1; index < turns.length; index++) {
        const previous = turns[index - 1]!;
        const turn = turns[index]!;
        // The previous fresh input (a whole batch of parallel results) is decided again as history now.
        const expected = Math.min(sharedPrefix(previous.input, turn.input), freshStartOf(previous.input.messages));
        assert.ok(sharedPrefix(previous.optimized, turn.optimized) >= expected, `request ${index} repeats ${expected} messages`);
        if (json(previous.input.tools) === json(turn.input.tools)) assert.equal(json(turn.optimized.tools), json(previous.optimized.tools), `request ${index}: the tools block is unchanged`);
        assert.ok(await expandsBack(turn.input, turn.optimized, stash, turn.result.elisions), `request ${index} expands back`);
      }
    }
    const systems = new Set(runs.assembled.map((turn) => contentKey(turn.input.messages[0]!)));
    assert.equal(systems.size, 2, 'the session changed its system prompt');
  });

  it('offers the tools on a summary request and leaves its instruction intact', () => {
    for (const turns of [runs.assembled, runs.gpt]) {
      const index = assembled.requests.findIndex((entry) => entry.summarization);
      const summary = turns === runs.assembled ? turns[index]! : turns[gpt.requests.findIndex((entry) => entry.summarization)]!;
      assert.ok(summary.optimized.tools.length > 0);
      assert.equal(json(summary.optimized.messages.at(-1)), json(summary.input.messages.at(-1)));
    }
  });
});
