/**
 * code_graph replayed over real coding-agent trajectories (../shared/data/trajectories):
 * for every file the agent read and later edited (its submission diff names the lines), the
 * edited definitions stay in full in the outlined history, and every outline expands back.
 */
import * as assert from 'node:assert/strict';
import { evaluateTrajectory } from '../../../test/bench/codeGraph.bench';
import { loadTrajectory, skipWithoutData, trajectoryNames } from '../../../test/support/sharedData';

/** Enough trajectories to hold a dozen edited definitions, few enough to stay quick. */
const TRAJECTORIES = 8;

describe('code_graph on real trajectories', () => {
  it('keeps every later-edited definition in full in the history, losslessly', async function () {
    skipWithoutData(this);
    this.timeout(120_000);
    const names = trajectoryNames().slice(0, TRAJECTORIES);
    let checks = 0;
    let everyRead = 0;
    let outlinedReads = 0;
    for (const name of names) {
      const outcome = await evaluateTrajectory(loadTrajectory(name));
      assert.ok(outcome.lossless, `${name}: an outline does not expand back`);
      if (outcome.readTokensAfter < outcome.readTokensBefore) outlinedReads++;
      for (const check of outcome.checks) {
        checks++;
        assert.ok(check.keptInFull > 0, `${name}: ${check.file} ${check.definition} is elided in every read of it`);
        if (check.keptInFull === check.reads) everyRead++;
      }
    }
    assert.ok(checks >= 5, `only ${checks} edited definitions found in read files`);
    assert.ok(outlinedReads >= 3, 'code_graph outlined almost nothing');
    console.log(`      ${checks} edited definitions; kept in full in every read of them: ${everyRead}`);
  });
});
