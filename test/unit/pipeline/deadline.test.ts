import { strict as assert } from 'node:assert';
import { parseRequest, type ChatRequest } from '../../../src/core/chat';
import { checkDeadline, Deadline, DeadlineExceededError, PIPELINE_DEADLINE_ACTION, Pipeline, withDeadline, type Strategy } from '../../../src/core/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { createStrategies } from '../../../src/core/strategies';
import { stressConversation } from '../../support/stressConversation';
import { elideLongOutputs, newStash, recordingStrategy } from './fakes';

function sampleRequest(): ChatRequest {
  const log = Array.from({ length: 40 }, (_, index) => `line ${index}: INFO all good`).join('\n');
  return parseRequest({
    model: 'gpt-4o',
    messages: [
      { role: 'system', content: 'You are an agent.' },
      { role: 'user', content: 'Look at the log.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat app.log"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: log },
      { role: 'assistant', content: 'Read it.', tool_calls: [{ id: 'c2', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } }] },
      { role: 'tool', tool_call_id: 'c2', content: 'a.txt' },
    ],
  });
}

/** A clock that moves only when told (a strategy's loop advances it), so deadlines pass at a known point. */
function fakeClock(): { now: number; read: () => number } {
  const clock = { now: 0, read: () => clock.now };
  return clock;
}

/** A strategy that never finishes on its own: it loops until its deadline stops it, counting its checks (and moving a fake clock, when given one). */
function forever(id: string, calls: { checks: number }, how: 'context' | 'ambient' | 'after-await' = 'context', clock?: { now: number }): Strategy {
  const loop = (deadline: Deadline): never => {
    for (;;) {
      calls.checks++;
      if (clock) clock.now += 0.01;
      if (how === 'ambient') checkDeadline();
      else deadline.check();
    }
  };
  return {
    id,
    defaultEnabled: true,
    apply: how === 'after-await' ? async (_request, context) => { await new Promise((resolve) => setImmediate(resolve)); return loop(context.deadline); } : (_request, context) => loop(context.deadline),
  };
}

/** The strategies with `id`'s runs flagged on `clock`, so a fake clock moves only while that strategy runs. */
function withClockWhileRunning(strategies: readonly Strategy[], id: string, clock: { running: boolean }): Strategy[] {
  return strategies.map((strategy): Strategy => {
    if (strategy.id !== id) return strategy;
    const apply: Strategy['apply'] = (input, context) => {
      clock.running = true;
      try {
        return strategy.apply(input, context);
      } finally {
        clock.running = false;
      }
    };
    return Object.create(strategy, { apply: { value: apply } }) as Strategy;
  });
}

describe('Deadline', () => {
  it('throws once its time is up, and not before', () => {
    let now = 0;
    const deadline = new Deadline(10, 'strategy', () => now);
    for (let call = 0; call < 5_000; call++) deadline.check();
    now = 9.9;
    deadline.check();
    now = 10;
    // The clock is read on a stride: within a stride's worth of calls the check sees the time.
    assert.throws(() => { for (let call = 0; call < 2_000; call++) deadline.check(); }, (error: unknown) => error instanceof DeadlineExceededError && error.scope === 'strategy' && error.limitMs === 10);
    assert.equal(deadline.expired, true);
  });

  it('reads the clock on every call close to the end', () => {
    let now = 0;
    const deadline = new Deadline(10, 'pipeline', () => now);
    now = 8.5;
    deadline.check();
    now = 10.1;
    assert.throws(() => deadline.check(), /ran past its 10 ms deadline/);
  });

  it('checkDeadline checks the deadline withDeadline set, restores the one outside, and is a no-op outside', () => {
    checkDeadline();
    const passed = new Deadline(0);
    const open = Deadline.none();
    withDeadline(open, () => {
      assert.throws(() => withDeadline(passed, () => checkDeadline()), DeadlineExceededError);
      checkDeadline();
    });
    checkDeadline();
  });
});

describe('Pipeline deadline', () => {
  it('stops a strategy that loops forever with checks at its time limit; the others run and the request is as without it', async () => {
    for (const how of ['context', 'ambient', 'after-await'] as const) {
      const calls = { checks: 0 };
      const log: string[] = [];
      const logger = new RecordingLogger();
      const stash = newStash();
      const request = sampleRequest();
      const alone = await new Pipeline([elideLongOutputs()], {}, { stash: newStash() }).run(request);
      const result = await new Pipeline([forever('spinner', calls, how), elideLongOutputs(), recordingStrategy('after', log)], { timeLimitMs: 30 }, { stash, logger }).run(request);
      assert.ok(calls.checks > 0, how);
      assert.equal(result.decisions[0]!.status, 'timeout', how);
      assert.equal(result.decisions[0]!.action, 'strategy-timed-out', how);
      assert.deepEqual(log, ['after'], how);
      assert.deepEqual(result.request, alone.request, how);
      assert.equal(result.restored, undefined, how);
      assert.equal(logger.lines.filter((line) => line.code === 'strategy-timed-out').length, 1, how);
    }
  });

  it('past the pipeline deadline sends the request as it came, with decisions saying so, and memoizes nothing', async () => {
    const calls = { checks: 0 };
    const logger = new RecordingLogger();
    const stash = newStash();
    const request = sampleRequest();
    const clock = fakeClock();
    const pipeline = new Pipeline([elideLongOutputs(), forever('spinner', calls, 'context', clock), recordingStrategy('after', [])], { timeLimitMs: 60_000, deadlineMs: 40 }, { stash, logger, clock: clock.read });
    const result = await pipeline.run(request);
    assert.equal(result.request, request, 'the original request, not the half-optimized one');
    assert.deepEqual(result.elisions, []);
    assert.deepEqual(result.savedByStrategy, {});
    assert.match(result.restored ?? '', /^pipeline-deadline-exceeded: .*40 ms/);
    assert.deepEqual(result.decisions.map((decision) => [decision.strategy, decision.status, decision.action]), [
      ['elide_long_outputs', 'applied', 'tool-output-elided'],
      ['spinner', 'timeout', PIPELINE_DEADLINE_ACTION],
      ['after', 'skipped', PIPELINE_DEADLINE_ACTION],
    ]);
    assert.ok(logger.lines.some((line) => line.code === 'pipeline-deadline-exceeded'));
    // Stopped within the budget: about 40 ms of the fake clock, give or take one stride of checks.
    assert.ok(clock.now >= 40 && clock.now < 41, `stopped at ${clock.now} ms`);
    // Nothing of the abandoned run was kept: the next turn decides its history afresh.
    assert.equal(pipeline.memo.size, 0);
  });

  it('a deadline that passes before any strategy runs gives the request as it came and every strategy skipped', async () => {
    const log: string[] = [];
    const request = sampleRequest();
    const result = await new Pipeline([elideLongOutputs(), recordingStrategy('after', log)], { deadlineMs: 0 }, { stash: newStash() }).run(request);
    assert.equal(result.request, request);
    assert.deepEqual(log, []);
    assert.deepEqual(result.decisions.map((decision) => [decision.strategy, decision.status, decision.action]), [
      ['elide_long_outputs', 'skipped', PIPELINE_DEADLINE_ACTION],
      ['after', 'skipped', PIPELINE_DEADLINE_ACTION],
    ]);
    assert.match(result.restored ?? '', /before any strategy ran/);
  });

  it('a real strategy whose loops run past the budget is stopped inside them: the request goes out as it came, its decision says so', async () => {
    // observation_mask (the quadratic one) on a conversation of tool outputs; the clock
    // moves only while it runs, 10 ms a read, so the budget can run out nowhere but in its loops.
    const request = parseRequest(stressConversation({ messages: 40, outputScale: 0.05, seed: 3 }));
    const clock = { now: 0, running: false, reads: 0 };
    const read = (): number => {
      if (clock.running) {
        clock.reads++;
        clock.now += 10;
      }
      return clock.now;
    };
    const strategies = withClockWhileRunning(createStrategies(), 'observation_mask', clock);
    const config = { timeLimitMs: 60_000, deadlineMs: 1_000 };
    // With time to spare the same run changes the request: going out as it came is the deadline's doing.
    const unhurried = await new Pipeline(strategies, { ...config, deadlineMs: 60_000 }, { stash: newStash(), clock: read }).run(request);
    assert.ok(unhurried.tokensAfter < unhurried.tokensBefore);
    assert.ok(unhurried.decisions.some((decision) => decision.strategy === 'observation_mask' && decision.status === 'applied'));
    assert.ok(clock.reads > 0 && clock.now < 60_000);
    clock.now = 0;
    clock.reads = 0;
    const pipeline = new Pipeline(strategies, config, { stash: newStash(), clock: read });
    const result = await pipeline.run(request);
    assert.equal(result.request, request, 'the request as it came');
    assert.deepEqual(result.elisions, []);
    assert.match(result.restored ?? '', /^pipeline-deadline-exceeded: .*1000 ms/);
    const at = result.decisions.findIndex((decision) => decision.strategy === 'observation_mask');
    assert.deepEqual([result.decisions[at]!.status, result.decisions[at]!.action], ['timeout', PIPELINE_DEADLINE_ACTION]);
    assert.ok(result.decisions.slice(at + 1).every((decision) => decision.status === 'skipped' && decision.action === PIPELINE_DEADLINE_ACTION));
    assert.ok(result.decisions.slice(0, at).every((decision) => decision.action !== PIPELINE_DEADLINE_ACTION));
    // Stopped at the budget, read by read: at most one read past it.
    assert.ok(clock.now >= 1_000 && clock.now <= 1_010, `stopped at ${clock.now} ms`);
    assert.equal(pipeline.memo.size, 0);
  });

  it('output_externalize checks the deadline in its loops over outputs and lines (it ran 0.9 s past it on 600 messages of 32 MB)', async () => {
    // One huge fresh output: only output_externalize reads the clock, 10 ms a read.
    const huge = Array.from({ length: 60_000 }, (_, index) => `2026-03-01T10:00:00Z ${index % 97 === 0 ? 'ERROR' : 'INFO'} worker-${index % 5} batch ${index} done`).join('\n');
    const request = parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Run it.' }, { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"./run"}' } }] }, { role: 'tool', tool_call_id: 'c1', content: huge }] });
    const clock = { now: 0, running: false };
    const read = (): number => (clock.running ? (clock.now += 10) : clock.now);
    const strategies = withClockWhileRunning(createStrategies().filter((strategy) => strategy.id === 'output_externalize'), 'output_externalize', clock);
    const unhurried = await new Pipeline(strategies, { timeLimitMs: 1e9, deadlineMs: 1e9 }, { stash: newStash(), clock: read }).run(request);
    assert.equal(unhurried.decisions[0]!.action, 'tool-output-externalized', 'with time to spare it externalizes the output');
    clock.now = 0;
    const result = await new Pipeline(strategies, { timeLimitMs: 1e9, deadlineMs: 300 }, { stash: newStash(), clock: read }).run(request);
    assert.equal(result.request, request, 'the request as it came');
    assert.deepEqual([result.decisions[0]!.status, result.decisions[0]!.action], ['timeout', PIPELINE_DEADLINE_ACTION]);
    assert.ok(clock.now <= 310, `stopped at ${clock.now} ms, inside its loop over the lines`);
  });
});
