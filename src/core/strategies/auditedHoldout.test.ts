import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData, trajectoryNames } from '../../../test/support/sharedData';
import { createAuditedHoldout } from './auditedHoldout';
import { createContentCensus } from './contentCensus';
import { createToolSchemaCompression } from './toolSchemaCompression';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

describe('audited_holdout', () => {
  it('is a signal and off by default', () => {
    const strategy = createAuditedHoldout();
    assert.equal(strategy.kind, 'signal');
    assert.equal(strategy.defaultEnabled, false);
  });

  it('holds out about the configured share of real sessions, each for every turn, and skips only mutating strategies', async function () {
    skipWithoutData(this);
    const names = trajectoryNames();
    const { pipeline } = pipelineOf([createAuditedHoldout(), createContentCensus(), createToolSchemaCompression()], { audited_holdout: { share: 0.3 } });
    const seen = { control: 0, treated: 0 };
    for (const [index, name] of names.slice(0, 10).entries()) {
      const bodies = toolCallingTurns(loadTrajectory(name), index % 2 === 0 ? 'openai' : 'anthropic', { maxTurns: 3 });
      const outcomes: boolean[] = [];
      for (const body of bodies) {
        const result = await pipeline.run(parseRequest(body));
        outcomes.push(result.holdout);
        const byId = Object.fromEntries(result.decisions.map((decision) => [decision.strategy, decision]));
        assert.equal(byId.content_census!.status, 'signal', 'signals still run');
        if (result.holdout) {
          assert.equal(byId.tool_schema_compression!.action, 'holdout-skipped');
          assert.deepEqual(serializeRequest(result.request), body, 'a control request goes out as it came in');
        } else {
          assert.equal(byId.tool_schema_compression!.status, 'applied');
        }
      }
      assert.ok(outcomes.every((outcome) => outcome === outcomes[0]), `${name}: one assignment per session`);
      seen[outcomes[0] ? 'control' : 'treated']++;
    }
    assert.ok(seen.control > 0 && seen.treated > 0, 'both groups appear');
    const assign = pipelineOf([createAuditedHoldout()], { audited_holdout: { share: 0.3 } }).pipeline;
    let heldOut = 0;
    const sessions = 400;
    for (let index = 0; index < sessions; index++) {
      const opening = { model: 'gpt-4o', messages: [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: `Fix issue #${index} in the tracker.` }] };
      if ((await assign.run(parseRequest(opening))).holdout) heldOut++;
    }
    const share = heldOut / sessions;
    assert.ok(share > 0.25 && share < 0.35, `held out ${share}`);
  });

  it('holds out nothing at share 0 and everything at share 1, and a new salt draws a new group', async () => {
    const bodies = Array.from({ length: 40 }, (_, index) => ({ model: 'gpt-4o', messages: [{ role: 'system', content: 'agent' }, { role: 'user', content: `task ${index}` }] }));
    const count = async (options: Record<string, unknown>): Promise<boolean[]> => {
      const { pipeline } = pipelineOf([createAuditedHoldout()], { audited_holdout: options });
      return Promise.all(bodies.map(async (body) => (await pipeline.run(parseRequest(body))).holdout));
    };
    assert.equal((await count({ share: 0 })).filter(Boolean).length, 0);
    assert.equal((await count({ share: 1 })).filter(Boolean).length, 40);
    assert.notDeepEqual(await count({ share: 0.5, salt: 'a' }), await count({ share: 0.5, salt: 'b' }));
  });
});
