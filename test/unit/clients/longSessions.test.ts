/**
 * Long sessions stay lossless when every request is optimized by a process of its own (as
 * `herald optimize` does) and expanded by another: every marker in every optimized request
 * expands back to the original. The full replay of both long Claude Code sessions is in the
 * bench (`npm run bench -- longSessions`); here a trimmed but real version of each, and a real
 * trajectory in which the same output is elided differently in two requests, the case that left
 * a marker unexpanded while `retrieve` still returned its original.
 */
import { strict as assert } from 'node:assert';
import { TokenCounter } from '../../../src/core/tokens';
import { claudeCodeSpotterMainFiles, loadClaudeCodeSession, trajectorySession } from '../../support/clients';
import { replayProcessByProcess } from '../../support/clients/processReplay';
import { describeWithData } from '../../support/sharedData';

describeWithData('long sessions, one process per request, expand back (shared data)', function () {
  this.timeout(180_000);
  const tokens = new TokenCounter(200_000);

  it('a trajectory that reads one file twice and keeps different lines of it each time: every request expands back', async () => {
    const replay = await replayProcessByProcess(trajectorySession('astropy__astropy-14182'), tokens);
    assert.ok(replay.requests >= 20);
    assert.deepEqual(replay.notLossless, []);
  });

  it('both long Claude Code sessions, their first 30 requests: every request expands back', async () => {
    for (const file of claudeCodeSpotterMainFiles()) {
      const replay = await replayProcessByProcess(loadClaudeCodeSession(file), tokens, 30);
      assert.equal(replay.requests, 30);
      assert.deepEqual(replay.notLossless, [], file);
    }
  });
});
