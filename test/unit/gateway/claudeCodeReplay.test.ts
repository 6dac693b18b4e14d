/**
 * Real Claude Code sessions replayed through `herald serve`: the provider receives exactly
 * what `herald optimize` makes of each request (the same savings), and every turn repeats the
 * previous turn's optimized prefix byte for byte wherever the optimizer's own replay does.
 */
import { strict as assert } from 'node:assert';
import { Pipeline } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { claudeCodeShortSessionFiles, claudeCodeSpotterMainFiles, loadClaudeCodeSession } from '../../support/clients';
import { replay } from '../../support/replay';
import { replayThroughGateway, stablePrefixes } from '../../support/gatewayReplay';
import { describeWithData } from '../../support/sharedData';

async function compare(file: string, limit?: number): Promise<void> {
  const session = loadClaudeCodeSession(file);
  const through = await replayThroughGateway(session, { limit });
  const tokens = new TokenCounter();
  const stash = new Stash({ store: new MemoryBlobStore(), key: through.stashKey });
  const bodies = through.sent;
  const direct = await replay(new Pipeline(createStrategies(), {}, { stash, tokens }), stash, bodies, tokens);
  assert.equal(through.received.length, bodies.length, 'every request reached the provider once');
  let before = 0;
  let after = 0;
  through.received.forEach((received, index) => {
    const optimized = direct.turns[index]!.optimized;
    assert.deepEqual(received.messages, optimized.messages, `${session.name} request ${index}: the provider got what optimize makes of it`);
    assert.deepEqual(received.tools.filter((tool) => tool.name !== 'herald_retrieve'), optimized.tools, `${session.name} request ${index}: tools`);
    before += tokens.countRequest(session.requests[index]!.request);
    after += tokens.countRequest({ ...received, tools: received.tools.filter((tool) => tool.name !== 'herald_retrieve') });
  });
  assert.equal(after, direct.tokensAfter, 'the same savings as optimize');
  assert.equal(before, direct.tokensBefore);
  const stable = stablePrefixes(through.bodies);
  assert.ok(stable >= direct.prefixStableTurns, `${session.name}: ${stable} byte-stable prefixes through the gateway, ${direct.prefixStableTurns} in the optimizer's own replay`);
  const records = through.records;
  assert.equal(records.length, bodies.length);
  assert.ok(records.every((record) => record.status === 'optimized' && record.httpStatus === 200));
}

describeWithData('gateway: real Claude Code sessions replayed through herald serve (shared data)', function () {
  this.timeout(180_000);

  // Every session, to the end, is the gateway bench's (npm run bench -- gateway); these keep the suite quick.
  it('the short sessions of three replies or more: the provider gets what optimize makes of every request, prefixes byte-stable', async () => {
    for (const file of claudeCodeShortSessionFiles().filter((name) => loadClaudeCodeSession(name).requests.length >= 3)) await compare(file);
  });

  it('the first 25 replies of a long session (149 replies, claude-opus-4-6)', async () => {
    await compare(claudeCodeSpotterMainFiles()[0]!, 25);
  });
});
