import { strict as assert } from 'node:assert';
import { findToolOutputs } from '../chat/toolOutput';
import { findMarkers } from '../stash/marker';
import { itWithData, loadTrajectory, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { createObservationMask } from './observationMask';
import { isFailureOutput } from './shared/failure';
import { assertNoPromptText, createRig, numberedLines, partTexts, runTurns, turnBodies } from '../../../test/support/strategyTestKit';

const LISTING = Array.from({ length: 40 }, (_, index) => `./packages/module_${index}/src/component_${index}.py`).join('\n');
const SOURCE = numberedLines(30, 'checkout');
const FAILING = ['============ FAILURES ============', '___ test_refund_rounding ___', 'E   assert 999 == 1000', 'tests/test_billing.py:88: AssertionError', '====== 1 failed, 126 passed in 3.41s ======', ...Array.from({ length: 20 }, (_, index) => `tests/test_api.py::test_case_${index} PASSED`)].join('\n');

function call(id: string, command: string): unknown {
  return { role: 'assistant', content: `Running ${command.split(' ')[0]}.`, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] };
}

function conversation(): unknown[] {
  return [
    { role: 'system', content: 'You are a coding agent.' },
    { role: 'user', content: 'The refund total is off by one cent. Fix it.' },
    call('c1', 'find . -name "*.py"'),
    { role: 'tool', tool_call_id: 'c1', content: LISTING },
    call('c2', 'cat src/checkout.ts'),
    { role: 'tool', tool_call_id: 'c2', content: SOURCE },
    { role: 'assistant', content: 'checkout_17 and checkout_18 compute the rounding; line 17 passes 112 and line 18 passes 119. Running the tests next.', tool_calls: [{ id: 'c3', type: 'function', function: { name: 'bash', arguments: '{"command":"pytest"}' } }] },
    { role: 'tool', tool_call_id: 'c3', content: FAILING },
    call('c4', 'find . -name "*.py"'),
    { role: 'tool', tool_call_id: 'c4', content: LISTING.replace('module_0', 'module_zero') },
  ];
}

describe('observation_mask', () => {
  it('masks a result the next reply did not build on, trims one it used in part; keeps failures and the fresh input', async () => {
    const rig = createRig([createObservationMask()]);
    const result = await runTurns(rig, turnBodies(conversation()));
    const texts = partTexts(result.request);
    assert.match(texts[3]!, /^\[herald: observation masked: 40 lines · retrieve hr_[a-z2-7]{16}\]$/);
    assert.equal(await rig.stash.expandText(texts[3]!), LISTING);
    // The reply quoted checkout_17, checkout_18, 112 and 119 from lines 17-18: those and two on each side stay.
    const lines = SOURCE.split('\n');
    assert.match(texts[5]!, /^\[herald: observation trimmed to the 6 of 30 lines the reply used · retrieve hr_[a-z2-7]{16}\]\n/);
    assert.equal(texts[5]!.split('\n').slice(1).join('\n'), ['… 14 lines …', ...lines.slice(14, 20), '… 10 lines …'].join('\n'));
    assert.equal(await rig.stash.expandText(texts[5]!), SOURCE);
    assert.equal(texts[7], FAILING, 'failing test output is never masked');
    assert.equal(texts[9], LISTING.replace('module_0', 'module_zero'), 'fresh input is never masked');
    assertNoPromptText(result.decisions, [LISTING, SOURCE, FAILING]);
    const decision = result.decisions.find((entry) => entry.strategy === 'observation_mask')!;
    assert.equal(decision.status, 'unchanged', 'the last decision replays the masked prefix and decides only the new turn');
  });

  it('keeps a result the reply used whole when trimming is off, or when the reply used most of it', async () => {
    const whole = await runTurns(createRig([createObservationMask()], { observation_mask: { trimInUse: false } }), turnBodies(conversation()));
    assert.equal(partTexts(whole.request)[5], SOURCE);
    const busy = conversation().map((message, index) =>
      index === 6 ? { ...(message as object), content: `Every line matters: ${Array.from({ length: 30 }, (_, line) => `checkout_${line + 1}`).join(', ')}.` } : message,
    );
    const result = await runTurns(createRig([createObservationMask()]), turnBodies(busy));
    assert.equal(partTexts(result.request)[5], SOURCE);
  });

  it('keeps Anthropic is_error results and defers to provider-side clearing', async () => {
    const big = numberedLines(40, 'report');
    const messages = [
      { role: 'user', content: 'Check the report.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'read', input: { path: 'a.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: big, is_error: true }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't2', name: 'read', input: { path: 'b.txt' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't2', content: big.replace(/report/g, 'ledger') }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Nothing to see.' }] },
      { role: 'user', content: 'OK.' },
    ];
    const extra = { model: 'claude-sonnet-4', system: 'Be brief.', max_tokens: 256 };
    const rig = createRig([createObservationMask()]);
    const texts = partTexts((await runTurns(rig, turnBodies(messages, extra))).request);
    assert.equal(texts[3], big, 'is_error results stay');
    assert.match(texts[5]!, /^\[herald: observation masked/);

    const clearing = { ...extra, context_management: { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 3 } }] } };
    const deferred = await runTurns(createRig([createObservationMask()]), turnBodies(messages, clearing));
    assert.equal(partTexts(deferred.request)[5], big.replace(/report/g, 'ledger'));
    assert.equal(deferred.decisions[0]!.action, 'masking-deferred');
  });

  it('on a cold start keeps the last keepRecentTurns turns', async () => {
    const messages = [...conversation(), { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'Thanks.' }];
    const cold = await createRig([createObservationMask()], { observation_mask: { keepRecentTurns: 4 } }).run({ model: 'gpt-4o', messages });
    assert.equal(partTexts(cold.request)[3], LISTING, 'four turns from the end: kept');
    const warm = await createRig([createObservationMask()], { observation_mask: { keepRecentTurns: 3 } }).run({ model: 'gpt-4o', messages });
    assert.match(partTexts(warm.request)[3]!, /^\[herald: observation masked/);
    assert.match(partTexts(warm.request)[9]!, /^module|^\.\//, 'one turn from the end: kept');
  });

  itWithData('on a real trajectory: masks some outputs, never a failure, prefix-stable and lossless', async () => {
    const rig = createRig([createObservationMask()]);
    const bodies = turnRequests(loadTrajectory('django__django-10973'));
    const summary = await replay(rig.pipeline, rig.stash, bodies, rig.tokens);
    assert.equal(summary.prefixStableTurns, summary.turns.length);
    assert.equal(summary.losslessTurns, summary.turns.length);
    const optimized = summary.turns[summary.turns.length - 1]!.optimized;
    let masked = 0;
    for (const segment of findToolOutputs(optimized)) {
      const marker = findMarkers(segment.text)[0];
      if (!marker) continue;
      masked++;
      const original = (await rig.stash.retrieve(marker.handle))!;
      assert.ok(!isFailureOutput({ ...segment, text: original }), 'a failure was masked');
    }
    assert.ok(masked >= 1);
  });
});
