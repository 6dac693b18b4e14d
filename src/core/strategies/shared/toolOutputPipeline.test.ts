import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest } from '../../chat';
import { CACHED_REWRITE_MIN_SAVED_SHARE, freshStartOf, Pipeline } from '../../pipeline';
import { MemoryBlobStore, Stash } from '../../stash';
import { TokenCounter } from '../../tokens';
import { createStrategies } from '../index';
import { itWithData, loadTrajectory, trajectoryNames, turnRequests } from '../../../../test/support/sharedData';
import { replay } from '../../../../test/support/replay';
import { createCommandDigest } from '../commandDigest';
import { createContextCompression } from '../contextCompression';
import { createContextDedupe } from '../contextDedupe';
import { createObservationMask } from '../observationMask';
import { createOutputExternalize } from '../outputExternalize';
import { createPromptCompression } from '../promptCompression';
import { assertNoPromptText, createRig } from '../../../../test/support/strategyTestKit';

/** The six history and tool-output strategies, in registry order. */
function strategies() {
  return [createContextDedupe(), createOutputExternalize(), createCommandDigest(), createObservationMask(), createContextCompression(), createPromptCompression()];
}

describe('history and tool-output strategies together', () => {
  itWithData('replay a real trajectory in Anthropic format: smaller, prefix-stable, lossless, metadata-only decisions', async () => {
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

const tokens = new TokenCounter(50_000);

describe('the cache-write rule on real trajectories', () => {
  /** Per history message of each turn: the tool outputs as they arrived and as they went out, in order. */
  async function historyRewrites(share: number | undefined): Promise<{ before: number; after: number }[]> {
    const rewrites: { before: number; after: number }[] = [];
    for (const name of trajectoryNames().slice(0, 6)) {
      const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
      const pipeline = new Pipeline(createStrategies(), { cachedRewriteMinSavedShare: share }, { stash, tokens });
      for (const body of turnRequests(loadTrajectory(name))) {
        const request = parseRequest(body);
        const result = await pipeline.run(request);
        const freshStart = freshStartOf(request.messages);
        const out = findToolOutputs(result.request);
        const arrived = findToolOutputs(request);
        for (const segment of arrived) {
          if (segment.messageIndex >= freshStart) continue;
          const sameMessage = arrived.filter((other) => other.messageIndex === segment.messageIndex);
          const rewritten = out.filter((other) => other.messageIndex === segment.messageIndex)[sameMessage.indexOf(segment)];
          if (rewritten && rewritten.text !== segment.text) rewrites.push({ before: tokens.count(segment.text), after: tokens.count(rewritten.text) });
        }
      }
    }
    return rewrites;
  }

  itWithData('every history tool output the default pipeline rewrites loses at least the share; with share 0 some lose less', async function () {
    this.timeout(60_000);
    const rewrites = await historyRewrites(undefined);
    assert.ok(rewrites.length > 50, `${rewrites.length} rewrites`);
    const short = rewrites.filter(({ before, after }) => before - after < CACHED_REWRITE_MIN_SAVED_SHARE * before);
    assert.deepEqual(short, [], 'a rewrite that does not pay for its cache write');
    const free = await historyRewrites(0);
    assert.ok(free.some(({ before, after }) => before - after < CACHED_REWRITE_MIN_SAVED_SHARE * before), 'without the rule some rewrite saves less (the check can fail)');
  });
});
