import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { createParamTuning } from './paramTuning';
import { pipelineOf } from '../../../test/support/agentFixtures';

async function tune(body: Record<string, unknown>, options: Record<string, unknown> = {}, format?: 'openai' | 'anthropic'): Promise<{ body: Record<string, unknown>; action: string; saved: number }> {
  const { pipeline } = pipelineOf([createParamTuning()], { param_tuning: options });
  const result = await pipeline.run(parseRequest(body, format));
  const decision = result.decisions[0]!;
  return { body: serializeRequest(result.request), action: decision.action, saved: decision.tokensBefore - decision.tokensAfter };
}

describe('param_tuning', () => {
  it('caps an over-large ceiling in OpenAI and Anthropic requests and claims no saving', async () => {
    const openai = await tune({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_completion_tokens: 200000 });
    assert.equal(openai.body.max_completion_tokens, 65536);
    assert.equal(openai.action, 'ceiling-capped');
    assert.equal(openai.saved, 0);
    const anthropic = await tune({ model: 'claude-sonnet-4-5', max_tokens: 128000, messages: [{ role: 'user', content: 'hi' }] }, { maxTokensCap: 32000 }, 'anthropic');
    assert.equal(anthropic.body.max_tokens, 32000);
  });

  it('leaves ceilings under the cap alone, and a ceiling a thinking budget needs', async () => {
    const under = await tune({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], max_tokens: 4096 });
    assert.equal(under.body.max_tokens, 4096);
    assert.equal(under.action, 'ceiling-kept');
    const thinking = await tune({ model: 'claude-opus-4-1', max_tokens: 100000, thinking: { type: 'enabled', budget_tokens: 70000 }, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(thinking.body.max_tokens, 100000);
  });
});
