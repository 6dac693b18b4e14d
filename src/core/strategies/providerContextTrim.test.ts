import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData } from '../../../test/support/sharedData';
import { CONTEXT_MANAGEMENT_BETA, createProviderContextTrim, hasProviderContextTrim, takeAnthropicBetas } from './providerContextTrim';
import { TokenCounter } from '../tokens';
import { createObservationMask } from './observationMask';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

describe('provider_context_trim', () => {
  it('asks Anthropic to clear aged tool results on a large agent request, without touching content', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-12907'), 'anthropic');
    const large = bodies[bodies.length - 1]!;
    const { pipeline } = pipelineOf([createProviderContextTrim()], { provider_context_trim: { triggerTokens: 8000, keepToolUses: 4, clearAtLeastTokens: 2000 } });
    const result = await pipeline.run(parseRequest(large));
    const wire = serializeRequest(result.request);
    assert.deepEqual(wire.context_management, {
      edits: [{ type: 'clear_tool_uses_20250919', trigger: { type: 'input_tokens', value: 8000 }, keep: { type: 'tool_uses', value: 4 }, clear_at_least: { type: 'input_tokens', value: 2000 } }],
    });
    assert.deepEqual(wire.betas, [CONTEXT_MANAGEMENT_BETA]);
    assert.deepEqual(wire.messages, large.messages, 'message content is never read into or changed');
    assert.equal(wire.system, large.system);
    assert.ok(hasProviderContextTrim(result.request));
    assert.equal(result.decisions[0]!.action, 'provider-trim-requested');
  });

  it('stays off under the threshold and for OpenAI requests, and keeps firing once it fired in a session', async function () {
    skipWithoutData(this);
    const trajectory = loadTrajectory('astropy__astropy-12907');
    const openai = toolCallingTurns(trajectory, 'openai');
    const { pipeline } = pipelineOf([createProviderContextTrim()], { provider_context_trim: { triggerTokens: 8000 } });
    const skipped = await pipeline.run(parseRequest(openai[openai.length - 1]!));
    assert.equal(skipped.decisions[0]!.action, 'provider-trim-skipped');
    assert.equal(skipped.request.options.context_management, undefined);

    const anthropic = toolCallingTurns(trajectory, 'anthropic');
    const counter = new TokenCounter();
    const firstOver = anthropic.findIndex((body) => counter.countForModel(parseRequest(body)).tokens >= 8000);
    assert.ok(firstOver > 0, 'the trajectory crosses the threshold part way');
    const session = pipelineOf([createProviderContextTrim()], { provider_context_trim: { triggerTokens: 8000 } }).pipeline;
    const under = await session.run(parseRequest(anthropic[firstOver - 1]!));
    assert.equal(under.request.options.context_management, undefined);
    await session.run(parseRequest(anthropic[firstOver]!));
    // A client that shrinks its own history later still gets the same parameters.
    const shrunk = await session.run(parseRequest(anthropic[firstOver - 1]!));
    assert.ok(hasProviderContextTrim(shrunk.request));
  });

  it('passes a request that carries its own context_management through verbatim', async () => {
    const own = { edits: [{ type: 'clear_tool_uses_20250919', keep: { type: 'tool_uses', value: 10 } }] };
    const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'x'.repeat(10) }], context_management: own, betas: ['other-beta'] };
    const { pipeline } = pipelineOf([createProviderContextTrim()], { provider_context_trim: { triggerTokens: 1 } });
    const result = await pipeline.run(parseRequest(body, 'anthropic'));
    assert.deepEqual(serializeRequest(result.request), body);
    assert.equal(result.decisions[0]!.action, 'client-context-management-kept');
  });

  it('merges its beta with the client betas and hands the header to the host', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }], betas: ['interleaved-thinking-2025-05-14'] };
    const { pipeline } = pipelineOf([createProviderContextTrim()], { provider_context_trim: { triggerTokens: 1 } });
    const wire = serializeRequest((await pipeline.run(parseRequest(body, 'anthropic'))).request);
    assert.equal(takeAnthropicBetas(wire), `interleaved-thinking-2025-05-14,${CONTEXT_MANAGEMENT_BETA}`);
    assert.equal('betas' in wire, false, 'the body sent to the Messages API carries no betas field');
  });

  it('makes observation_mask defer when it fires', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-12907'), 'anthropic');
    const { pipeline } = pipelineOf([createProviderContextTrim(), createObservationMask()], { provider_context_trim: { triggerTokens: 8000 } });
    const result = await pipeline.run(parseRequest(bodies[bodies.length - 1]!));
    const mask = result.decisions.find((decision) => decision.strategy === 'observation_mask')!;
    assert.equal(mask.status, 'unchanged');
    assert.match(mask.action, /defer/);
  });
});
