import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData, turnRequests } from '../../../test/support/sharedData';
import { createContextQuality } from './contextQuality';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

async function score(body: unknown, windowTokens?: number): Promise<Readonly<Record<string, string | number | boolean>>> {
  const { pipeline } = pipelineOf([createContextQuality()]);
  const result = await pipeline.run(parseRequest(body), { windowTokens });
  assert.deepEqual(serializeRequest(result.request), body, 'a signal never changes the request');
  assert.equal(result.decisions[0]!.status, 'signal');
  return result.decisions[0]!.details ?? {};
}

describe('context_quality', () => {
  for (const format of ['openai', 'anthropic', 'pasted'] as const) {
    it(`scores a real session lower as it fills the window (${format})`, async function () {
      skipWithoutData(this);
      const trajectory = loadTrajectory('astropy__astropy-8707');
      const bodies = format === 'pasted' ? turnRequests(trajectory) : toolCallingTurns(trajectory, format);
      const early = await score(bodies[1], 32_000);
      const late = await score(bodies[bodies.length - 1], 32_000);
      assert.ok(Number(early.score) >= 80, `early ${early.score}`);
      assert.ok(Number(late.score) < Number(early.score) - 20, `late ${late.score} vs early ${early.score}`);
      assert.ok(Number(late.fill) > Number(early.fill));
      for (const value of Object.values(late)) assert.equal(typeof value, 'number', 'figures only');
    });
  }

  it('takes points for duplicate and bloated tool output', async () => {
    const output = Array.from({ length: 30 }, (_, index) => `src/module_${index}.ts: ok`).join('\n');
    const conversation = (outputs: string[]): unknown => ({
      model: 'gpt-4o',
      messages: [{ role: 'user', content: 'check the build' }, ...outputs.flatMap((text, index) => [
        { role: 'assistant', content: null, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'run', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: `c${index}`, content: text },
      ])],
    });
    const distinct = await score(conversation([output, output.replace(/ok/g, 'done'), output.replace(/ok/g, 'fine')]));
    const repeated = await score(conversation([output, output, output]));
    assert.equal(repeated.duplicateOutputs, 2);
    assert.ok(Number(repeated.score) < Number(distinct.score));
    const bloated = await score(conversation([output, 'line of build output number\n'.repeat(2000)]));
    assert.equal(bloated.bloatedOutputs, 1);
    assert.ok(Number(bloated.score) < Number(distinct.score));
  });
});
