import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData } from '../../../test/support/sharedData';
import { createReasoningBudget } from './reasoningBudget';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

/** True when the turn's fresh input (after the last assistant message) holds a failed tool result. */
function freshFailed(body: Record<string, unknown>): boolean {
  const messages = body.messages as { role: string; content: unknown }[];
  const last = messages[messages.length - 1]!;
  return Array.isArray(last.content) && last.content.some((block: { is_error?: boolean }) => block.is_error === true);
}

describe('reasoning_budget', () => {
  it('is off by default', () => {
    assert.equal(createReasoningBudget().defaultEnabled, false);
  });

  it('lowers a client thinking budget on routine turns, pins it for the session and backs off on failed turns (Anthropic)', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-14508'), 'anthropic', { extra: { max_tokens: 64000, thinking: { type: 'enabled', budget_tokens: 31999 } } });
    assert.ok(bodies.some(freshFailed) && bodies.some((body, index) => index >= 2 && !freshFailed(body)), 'the trajectory has failed and clean turns');
    const { pipeline } = pipelineOf([createReasoningBudget()]);
    let pinned = false;
    for (const [index, body] of bodies.entries()) {
      const result = await pipeline.run(parseRequest(body));
      const budget = (serializeRequest(result.request).thinking as { budget_tokens: number }).budget_tokens;
      if (freshFailed(body)) assert.equal(budget, 31999, `turn ${index}: a failed tool result keeps the client's budget`);
      else if (index >= 2) pinned = true;
      if (!freshFailed(body)) assert.equal(budget, pinned ? 8192 : 31999, `turn ${index}`);
    }
    // A new user question is not routine, but the pinned budget is replayed so the cache key stays put.
    const question = structuredClone(bodies[bodies.length - 1]!);
    (question.messages as unknown[]).push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, { role: 'user', content: 'Now explain the fix.' });
    const asked = await pipeline.run(parseRequest(question));
    assert.equal((asked.request.options.thinking as { budget_tokens: number }).budget_tokens, 8192);
  });

  it('never adds, removes or raises a value, and clamps OpenAI effort and verbosity only on routine turns', async function () {
    skipWithoutData(this);
    const trajectory = loadTrajectory('astropy__astropy-14508');
    const clean = (bodies: Record<string, unknown>[]): Record<string, unknown> => bodies.find((body, index) => index >= 3 && !(body.messages as { role: string; content: string }[]).at(-1)!.content.startsWith('Traceback'))!;
    const run = async (extra: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const { pipeline } = pipelineOf([createReasoningBudget()]);
      return serializeRequest((await pipeline.run(parseRequest(clean(toolCallingTurns(trajectory, 'openai', { model: 'gpt-5', extra }))))).request);
    };
    const high = await run({ reasoning_effort: 'high', verbosity: 'high' });
    assert.equal(high.reasoning_effort, 'low');
    assert.equal(high.verbosity, 'low');
    assert.equal((await run({ reasoning_effort: 'minimal' })).reasoning_effort, 'minimal', 'never raised');
    const none = await run({});
    assert.equal('reasoning_effort' in none || 'verbosity' in none || 'thinking' in none, false, 'never added');
    assert.equal((await run({ reasoning_effort: 'turbo' })).reasoning_effort, 'turbo', 'unknown values are left alone');

    const question = { model: 'gpt-5', reasoning_effort: 'high', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'why?' }, { role: 'assistant', content: 'because' }, { role: 'user', content: 'and then?' }] };
    const { pipeline } = pipelineOf([createReasoningBudget()]);
    assert.equal((await pipeline.run(parseRequest(question))).request.options.reasoning_effort, 'high', 'a new question is not routine');
  });

  it('drops the pin when the model changes', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-14508'), 'anthropic', { extra: { max_tokens: 64000, thinking: { type: 'enabled', budget_tokens: 20000 } } });
    const routine = bodies.findIndex((body, index) => index >= 2 && !freshFailed(body));
    const { pipeline } = pipelineOf([createReasoningBudget()]);
    await pipeline.run(parseRequest(bodies[routine]!));
    const question = structuredClone(bodies[routine]!);
    (question.messages as unknown[]).push({ role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, { role: 'user', content: 'Now explain the fix.' });
    assert.equal(((await pipeline.run(parseRequest(question))).request.options.thinking as { budget_tokens: number }).budget_tokens, 8192);
    const switched = await pipeline.run(parseRequest({ ...question, model: 'claude-opus-4-1' }));
    assert.equal((switched.request.options.thinking as { budget_tokens: number }).budget_tokens, 20000, 'a new model starts unpinned');
  });
});
