import { strict as assert } from 'node:assert';
import { hasSharedData, loadTrajectory, turnRequests } from '../../../../test/support/sharedData';
import { replay } from '../../../../test/support/replay';
import { createCommandDigest } from '../commandDigest';
import { createContextCompression } from '../contextCompression';
import { createContextDedupe } from '../contextDedupe';
import { createObservationMask } from '../observationMask';
import { createOutputExternalize } from '../outputExternalize';
import { createPromptCompression } from '../promptCompression';
import { assertNoPromptText, createRig } from './testKit';

/** The six history and tool-output strategies, in registry order. */
function strategies() {
  return [createContextDedupe(), createOutputExternalize(), createCommandDigest(), createObservationMask(), createContextCompression(), createPromptCompression()];
}

describe('history and tool-output strategies together', () => {
  (hasSharedData() ? it : it.skip)('replay a real trajectory in Anthropic format: smaller, prefix-stable, lossless, metadata-only decisions', async () => {
    const trajectory = loadTrajectory('astropy__astropy-13236');
    // The same conversation as an Anthropic client would send it: the system prompt at the top level.
    const bodies = turnRequests(trajectory).map((body) => {
      const [system, ...messages] = body.messages as { role: string; content: string }[];
      return { model: 'claude-sonnet-4', max_tokens: 4096, system: system!.content, messages: messages.map(({ role, content }) => ({ role, content })) };
    });
    const rig = createRig(strategies());
    const summary = await replay(rig.pipeline, rig.stash, bodies, rig.tokens);
    assert.equal(summary.prefixStableTurns, summary.turns.length);
    assert.equal(summary.losslessTurns, summary.turns.length);
    assert.ok(summary.tokensAfter < summary.tokensBefore * 0.85, `${summary.tokensAfter} of ${summary.tokensBefore} tokens`);
    const outputs = trajectory.messages.filter((message) => message.role === 'user').map((message) => message.content);
    assertNoPromptText(summary.turns.flatMap((turn) => turn.decisions), outputs);
  });
});
