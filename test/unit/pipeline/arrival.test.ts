import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest, replaceSegments, type ChatRequest } from '../../../src/core/chat';
import { messageText } from '../../../src/core/chat/types';
import { expandRequest, MessageMemo, Pipeline, sitesFrom, type Strategy } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { findMarkers } from '../../../src/core/stash/marker';
import { createCommandDigest } from '../../../src/core/strategies/commandDigest';
import { createObservationMask } from '../../../src/core/strategies/observationMask';
import { createRelevanceFilter } from '../../../src/core/strategies/relevanceFilter';
import { editableSegments } from '../../../src/core/strategies/shared/segmentSelection';
import { TokenCounter } from '../../../src/core/tokens';
import { expandsBack } from '../../support/replay';
import { elideLongOutputs } from './fakes';

function newStash(): Stash {
  return new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(3) });
}

const LOG = Array.from({ length: 30 }, (_, index) => `10:00:${String(index).padStart(2, '0')} INFO tick ${index}`).join('\n');

/** Digests every fresh tool output to its first line and a marker, as an arrival decision would. */
function digestFresh(): Strategy {
  return {
    id: 'digest_fresh',
    defaultEnabled: true,
    touchesFresh: true,
    apply(request, context) {
      const replacements = new Map<string, string>();
      for (const segment of findToolOutputs(request)) {
        if (segment.messageIndex < context.freshStart || context.stash.hasIssuedMarker(segment.text)) continue;
        const first = segment.text.split('\n')[0]!;
        replacements.set(segment.key, context.stash.elide({ original: segment.text, summary: 'digest', kind: 'digest_fresh', render: (marker) => `${first}\n${marker}` }).replacement);
      }
      return { request: replaceSegments(request, replacements), action: replacements.size > 0 ? 'digested' : 'nothing-to-do', reason: 'test' };
    },
  };
}

/** Appends a note to the last message every turn, like a cache hint or an advisory note. */
function tailNote(): Strategy {
  return {
    id: 'tail_note',
    defaultEnabled: true,
    touchesFresh: true,
    annotatesTail: true,
    apply(request) {
      const last = request.messages[request.messages.length - 1]!;
      const messages = [...request.messages.slice(0, -1), { ...last, extra: { ...(last.extra ?? {}), note: 'tail' } }];
      return { request: { ...request, messages }, action: 'annotated', reason: 'test' };
    },
  };
}

function turnMessages(count: number): Record<string, unknown>[] {
  const messages: Record<string, unknown>[] = [{ role: 'system', content: 'You are an agent.' }, { role: 'user', content: 'Check the ticks.' }];
  for (let index = 0; index < count; index++) {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'bash', arguments: `{"command":"tail -n 30 app${index}.log"}` } }] });
    messages.push({ role: 'tool', tool_call_id: `c${index}`, content: LOG.replace(/tick/g, `tick${index}`) });
  }
  return messages;
}

function turn(count: number): ChatRequest {
  return parseRequest({ model: 'gpt-4o', messages: turnMessages(count) });
}

describe('Pipeline: fresh input decided on arrival', () => {
  it('replays a fresh message\'s arrival form byte for byte when it becomes history, so no history strategy rewrites it', async () => {
    const stash = newStash();
    const memo = new MessageMemo();
    // elide_long_outputs would mask any undecided history output: it must not see the raw one again.
    const pipeline = new Pipeline([elideLongOutputs(5), digestFresh()], {}, { stash, memo });
    const first = await pipeline.run(turn(1));
    const arrived = messageText(first.request.messages[3]!);
    assert.ok(arrived.startsWith('10:00:00 INFO tick0 0\n[herald: digest · retrieve hr_'), arrived);
    const second = await pipeline.run(turn(2));
    assert.equal(JSON.stringify(second.request.messages[3]), JSON.stringify(first.request.messages[3]), 'history starts from what the provider cached');
    assert.equal((second.savedByStrategy.digest_fresh ?? 0) > 0, true, 'the arrival saving keeps counting while it is replayed');
    assert.equal((second.savedByStrategy.elide_long_outputs ?? 0), 0);
    const expanded = await expandRequest(second.request, stash, sitesFrom(second.elisions));
    assert.equal(messageText(expanded.messages[3]!), LOG.replace(/tick/g, 'tick0'), 'the replayed arrival form still expands back');
    const third = await pipeline.run(turn(3));
    assert.equal(JSON.stringify(third.request.messages[3]), JSON.stringify(first.request.messages[3]), 'and stays so once decided as history');
  });

  it('keeps the arrival form without cache hints: the client\'s moved breakpoints are the ones replayed', async () => {
    const pipeline = new Pipeline([digestFresh()], {}, { stash: newStash(), memo: new MessageMemo() });
    const hinted = (count: number, at: number): ChatRequest => {
      const messages = turnMessages(count);
      messages[at]!.copilot_cache_control = { type: 'ephemeral' };
      return parseRequest({ model: 'gpt-4o', messages });
    };
    const first = await pipeline.run(hinted(1, 3));
    assert.ok(JSON.stringify(first.request.messages[3]).includes('copilot_cache_control'), 'the fresh output carries its breakpoint');
    const arrived = messageText(first.request.messages[3]!);
    const second = await pipeline.run(hinted(2, 5));
    assert.equal(messageText(second.request.messages[3]!), arrived, 'history starts from the arrival form');
    assert.ok(!JSON.stringify(second.request.messages[3]).includes('copilot_cache_control'), 'the breakpoint the client moved away is not replayed');
    assert.ok(JSON.stringify(second.request.messages[5]).includes('copilot_cache_control'), 'the client\'s new breakpoint stays');
  });

  it('leaves tail annotations out of the arrival form: the message becomes history without them', async () => {
    const memo = new MessageMemo();
    const pipeline = new Pipeline([digestFresh(), tailNote()], {}, { stash: newStash(), memo });
    const first = await pipeline.run(turn(1));
    assert.deepEqual(first.request.messages[3]!.extra, { note: 'tail' });
    const second = await pipeline.run(turn(2));
    assert.equal(second.request.messages[3]!.extra, undefined, 'the note stays on the tail only');
    assert.equal(messageText(second.request.messages[3]!), messageText(first.request.messages[3]!));
    assert.deepEqual(second.request.messages[5]!.extra, { note: 'tail' });
  });

  it('masks a digest the conversation moved past whole, stashing the original itself: retrieval stays one hop deep', async () => {
    const events = ['heartbeat', 'lease renewed', 'snapshot taken', 'compaction finished', 'peer joined', 'metrics flushed', 'cache warmed', 'config reloaded', 'token rotated', 'gc pause short'];
    const log = Array.from({ length: 300 }, (_, index) => `2026-06-01 10:${String(Math.floor(index / 60)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')} INFO ${events[index % 10]} on shard ${['alpha', 'beta', 'gamma'][index % 3]} ok`).join('\n');
    const stash = newStash();
    const pipeline = new Pipeline([createCommandDigest(), createObservationMask()], {}, { stash, memo: new MessageMemo() });
    const base = [
      { role: 'user', content: 'Is the cluster healthy?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"journalctl -u cluster"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: log },
    ];
    const first = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: base }));
    assert.ok(findMarkers(messageText(first.request.messages[2]!))[0]!.summary.startsWith('log digest'), 'digested on arrival');
    const next = [...base, { role: 'assistant', content: 'Yes. Now I will look at the billing code.' }, { role: 'user', content: 'Go ahead.' }];
    const second = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: next }));
    const masked = messageText(second.request.messages[2]!);
    const [marker] = findMarkers(masked);
    assert.ok(marker!.summary.startsWith('observation masked'), masked);
    assert.equal(await stash.retrieve(marker!.handle), log, 'the mask stashed the output, not its digest');
    const expanded = await expandRequest(second.request, stash, sitesFrom(second.elisions));
    assert.equal(messageText(expanded.messages[2]!), log);
  });

  it('never takes an output another strategy cut in pieces for a digest: masking it stays lossless', async () => {
    const source = Array.from({ length: 400 }, (_, index) => (index % 10 === 0 ? `    def step_${index}(self, names, opts):` : `        value_${index} = compute(names[${index}], opts)  # walks the path`)).join('\n');
    const stash = newStash();
    const tokens = new TokenCounter();
    const pipeline = new Pipeline([createRelevanceFilter(), createObservationMask()], { options: { relevance_filter: { historyOutputs: true, minLines: 20, minSavedTokens: 20 } } }, { stash, tokens, memo: new MessageMemo() });
    const base = [
      { role: 'user', content: 'Where does step_40 compute its value?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"sed -n 1,400p query.py"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: source },
      { role: 'assistant', content: 'step_40 sets value_41 and value_42 from names.' },
      { role: 'user', content: 'Which values does step_40 set, exactly?' },
    ];
    // The output arrives as fresh input first; on the next turn it is history, cut by the filter, then seen by masking.
    await pipeline.run(parseRequest({ model: 'gpt-4o', messages: base.slice(0, 3) }));
    const request = parseRequest({ model: 'gpt-4o', messages: base });
    const result = await pipeline.run(request);
    assert.ok(findMarkers(messageText(result.request.messages[2]!)).length >= 2, 'the output was cut in pieces');
    assert.ok(await expandsBack(request, result.request, stash, result.elisions), 'every piece expands back');
  });

  it('offers history strategies a whole digest with its original, never an output cut in pieces', () => {
    const stash = newStash();
    const output = LOG;
    const digest = stash.elide({ original: output, summary: 'digest', kind: 'test', render: (marker) => `first line\n${marker}` }).replacement;
    const lines = output.split('\n');
    const piece = stash.elide({ original: lines.slice(5, 20).join('\n'), summary: 'piece', kind: 'test' }).replacement;
    const cut = [...lines.slice(0, 5), piece, ...lines.slice(20)].join('\n');
    const requestWith = (first: string, second: string): ChatRequest => parseRequest({ model: 'gpt-4o', messages: [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'bash', arguments: '{"command":"cat a.log"}' } }, { id: 'b', type: 'function', function: { name: 'bash', arguments: '{"command":"cat b.log"}' } }] },
      { role: 'tool', tool_call_id: 'a', content: first },
      { role: 'tool', tool_call_id: 'b', content: second },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'next' },
    ] });
    const original = requestWith(output, output);
    const offered = editableSegments(requestWith(digest, cut), { frozenCount: 0, freshStart: 5, stash, original }, { includeDigested: true });
    assert.deepEqual(offered.map((segment) => [segment.messageIndex, segment.arrived === output]), [[2, true]], 'only the whole digest, with its original');
    assert.deepEqual(editableSegments(requestWith(digest, cut), { frozenCount: 0, freshStart: 5, stash, original }).map((segment) => segment.messageIndex), [], 'without the option, neither');
  });

  it('memoizes nothing for a fresh message no strategy changed', async () => {
    const memo = new MessageMemo();
    await new Pipeline([], {}, { stash: newStash(), memo }).run(turn(1));
    assert.equal(memo.size, 6, 'the three history messages only (each under its chain and under its own bytes)');
  });
});
