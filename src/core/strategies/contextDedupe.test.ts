import { strict as assert } from 'node:assert';
import { findMarkers } from '../stash/marker';
import { itWithData, loadTrajectory, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { createContextDedupe } from './contextDedupe';
import { assertNoPromptText, createRig, numberedLines, partTexts, runTurns, turnBodies } from '../../../test/support/strategyTestKit';

const FILE = numberedLines(60, 'rate');
const EDITED = FILE.replace('const rate_41 = computeThing(280, "rate");', 'const rate_41 = computeThing(281, "rate");');

function readCall(id: string, path: string): unknown {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'read_file', arguments: JSON.stringify({ path }) } }] };
}

/** An agent that reads the same file four times: exact re-read, edited re-read, fresh re-read. */
function openAIConversation(): unknown[] {
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'Fix the rate in src/billing.ts.' },
    readCall('c1', 'src/billing.ts'),
    { role: 'tool', tool_call_id: 'c1', content: FILE },
    readCall('c2', 'src/billing.ts'),
    { role: 'tool', tool_call_id: 'c2', content: FILE },
    readCall('c3', 'src/billing.ts'),
    { role: 'tool', tool_call_id: 'c3', content: EDITED },
    readCall('c4', 'src/billing.ts'),
    { role: 'tool', tool_call_id: 'c4', content: EDITED },
  ];
}

describe('context_dedupe', () => {
  it('collapses an exact re-read to a pointer and an edited re-read to a diff, keeping the first copy and the fresh input', async () => {
    const rig = createRig([createContextDedupe()]);
    const result = await runTurns(rig, turnBodies(openAIConversation()));
    const texts = partTexts(result.request);
    assert.equal(texts[3], FILE, 'the first copy stays verbatim');
    assert.match(texts[5]!, /^\[herald: duplicate of the output at message 3 · retrieve hr_[a-z2-7]{16}\]$/);
    assert.match(texts[7]!, /^\[herald: near-duplicate of the output at message 3: 98% identical, 2 changed lines below · retrieve hr_[a-z2-7]{16}\]\n@@ -41,1 \+41,1 @@\n-.*280.*\n\+.*281.*$/);
    assert.equal(texts[9], EDITED, 'the fresh input is never touched');
    assert.equal(await rig.stash.expandText(texts[5]!), FILE);
    assert.equal(await rig.stash.expandText(texts[7]!), EDITED);
    assertNoPromptText(result.decisions, [FILE, EDITED]);
  });

  it('collapses a re-run command in Anthropic format and leaves a retrieval answer alone', async () => {
    const status = ['On branch main', 'Changes not staged for commit:', '  modified:   src/billing.ts', '  modified:   src/tax.ts', '', 'Untracked files:', '  notes/today.md'].join('\n').repeat(4);
    const conversation = [
      { role: 'user', content: 'What changed?' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'git status' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: status }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'herald_retrieve', input: { handle: 'hr_aaaaaaaaaaaaaaaa' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: status }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't3', name: 'bash', input: { command: 'git status' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't3', content: [{ type: 'text', text: status }] }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Two files are modified.' }] },
      { role: 'user', content: 'Thanks.' },
    ];
    const rig = createRig([createContextDedupe()]);
    const result = await runTurns(rig, turnBodies(conversation, { model: 'claude-sonnet-4', system: 'You are terse.', max_tokens: 512 }));
    const texts = partTexts(result.request);
    // Message 0 is the system prompt; the tool results are messages 3, 5 and 7.
    assert.equal(texts[3], status);
    assert.equal(texts[5], status, 'an original the model retrieved is never collapsed again');
    assert.match(texts[7]!, /^\[herald: duplicate of the output at message 3 · retrieve hr_/);
    assert.equal(await rig.stash.expandText(texts[7]!), status);
  });

  it('on a cold start keeps the last keepRecentTurns turns verbatim', async () => {
    const conversation = [...openAIConversation(), { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks.' }];
    const cold = await createRig([createContextDedupe()]).run({ model: 'gpt-4o', messages: conversation });
    const texts = partTexts(cold.request);
    // Message 9 is one turn from the end, message 7 two: both are recent; message 5 is not.
    assert.match(texts[5]!, /^\[herald: duplicate/);
    assert.equal(texts[7], EDITED);
    assert.equal(texts[9], EDITED);
    const none = await createRig([createContextDedupe()], { context_dedupe: { keepRecentTurns: 0 } }).run({ model: 'gpt-4o', messages: conversation });
    const texts0 = partTexts(none.request);
    // Message 7 is collapsed too, so message 9 points at the copy that is still readable: message 3.
    assert.match(texts0[7]!, /^\[herald: near-duplicate of the output at message 3/);
    assert.match(texts0[9]!, /^\[herald: near-duplicate of the output at message 3/);
  });

  it('leaves outputs alone when near-duplicates are switched off or differ too much', async () => {
    const rig = createRig([createContextDedupe()], { context_dedupe: { nearDupe: false } });
    const result = await runTurns(rig, turnBodies(openAIConversation()));
    assert.equal(partTexts(result.request)[7], EDITED);
    const other = numberedLines(60, 'other');
    const different = openAIConversation().map((message, index) => (index === 7 ? { ...(message as object), content: other } : message));
    const strict = await runTurns(createRig([createContextDedupe()]), turnBodies(different));
    assert.equal(partTexts(strict.request)[7], other);
  });

  itWithData('on a real trajectory: collapses re-runs, prefix-stable and lossless on every turn', async () => {
    const rig = createRig([createContextDedupe()]);
    const summary = await replay(rig.pipeline, rig.stash, turnRequests(loadTrajectory('astropy__astropy-13977')), rig.tokens);
    assert.equal(summary.prefixStableTurns, summary.turns.length);
    assert.equal(summary.losslessTurns, summary.turns.length);
    const last = summary.turns[summary.turns.length - 1]!.optimized;
    const collapsed = partTexts(last).filter((text) => findMarkers(text).some((marker) => marker.summary.includes('duplicate')));
    assert.ok(collapsed.length >= 1, 'the re-run of the same sed range and test file is collapsed');
    assert.ok(summary.tokensAfter < summary.tokensBefore);
  });
});
