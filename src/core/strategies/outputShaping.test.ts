import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { createOutputShaping, OUTPUT_SHAPING_NOTE } from './outputShaping';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

function notes(body: unknown): number {
  return JSON.stringify(body).split(OUTPUT_SHAPING_NOTE.replace(/"/g, '\\"')).length - 1;
}

function tailHasNote(body: Record<string, unknown>): boolean {
  const messages = body.messages as unknown[];
  return JSON.stringify(messages[messages.length - 1]).includes(OUTPUT_SHAPING_NOTE);
}

describe('output_shaping', () => {
  it('is off by default', () => {
    assert.equal(createOutputShaping().defaultEnabled, false);
  });

  for (const format of ['openai', 'anthropic', 'pasted'] as const) {
    it(`adds one constant note at the tail of routine tool-resume turns only, and keeps the prefix stable (${format})`, async function () {
      skipWithoutData(this);
      const trajectory = loadTrajectory('astropy__astropy-14508');
      const bodies = (format === 'pasted' ? turnRequests(trajectory) : toolCallingTurns(trajectory, format)).slice(0, 14) as Record<string, unknown>[];
      const { pipeline, stash, tokens } = pipelineOf([createOutputShaping()]);
      const summary = await replay(pipeline, stash, bodies, tokens);
      assert.equal(summary.prefixStableTurns, bodies.length, 'the note stays where it was added, so each turn repeats the last');
      let routineTails = 0;
      summary.turns.forEach((turn, index) => {
        const wire = serializeRequest(turn.optimized);
        const last = JSON.stringify((bodies[index]!.messages as unknown[]).at(-1));
        const failed = /is_error|<returncode>[1-9]|"content":"Traceback/.test(last);
        const observation = /^\{"role":"tool"|"type":"tool_result"|^\{"role":"user","content":"<returncode>/.test(last);
        const expected = index >= 2 && observation && !failed;
        assert.equal(tailHasNote(wire), expected, `turn ${index}`);
        if (expected) routineTails++;
        assert.equal(notes(wire), routineTails, `turn ${index}: one note per routine turn so far`);
      });
      assert.ok(routineTails >= 8);
    });
  }

  it('leaves a new user question alone', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'system', content: 's' }, { role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }, { role: 'user', content: 'c' }, { role: 'assistant', content: 'd' }, { role: 'user', content: 'why?' }] };
    const { pipeline } = pipelineOf([createOutputShaping()]);
    const result = await pipeline.run(parseRequest(body));
    assert.deepEqual(serializeRequest(result.request), body);
  });

  it('can leave notes off history, so only the tail carries one', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-14508'), 'openai').slice(0, 10);
    const { pipeline } = pipelineOf([createOutputShaping()], { output_shaping: { keepNotesInHistory: false } });
    let tails = 0;
    for (const body of bodies) {
      const wire = serializeRequest((await pipeline.run(parseRequest(body))).request);
      assert.equal(notes(wire), tailHasNote(wire) ? 1 : 0);
      if (tailHasNote(wire)) tails++;
    }
    assert.ok(tails >= 5);
  });
});
