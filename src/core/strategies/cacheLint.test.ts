import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData } from '../../../test/support/sharedData';
import { createCacheLint } from './cacheLint';
import { createToolCatalog } from './toolCatalog';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

describe('cache_lint', () => {
  for (const format of ['openai', 'anthropic'] as const) {
    it(`reports a stable prefix over a real session and names the region a client changes (${format})`, async function () {
      skipWithoutData(this);
      const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-12907'), format, { maxTurns: 6 });
      const { pipeline } = pipelineOf([createCacheLint()]);
      const actions: string[] = [];
      for (const body of bodies) {
        const result = await pipeline.run(parseRequest(body), { sessionId: 'session-1' });
        assert.deepEqual(serializeRequest(result.request), body);
        actions.push(result.decisions[0]!.action);
      }
      assert.deepEqual(actions, ['prefix-recorded', ...bodies.slice(1).map(() => 'prefix-stable')]);

      // The client stamps the time into its system prompt: a classic cache breaker.
      const next = structuredClone(bodies[bodies.length - 1]!);
      if (format === 'anthropic') next.system = `${String(next.system)}\nCurrent time: 10:42`;
      else (next.messages as { content: string }[])[0]!.content += '\nCurrent time: 10:42';
      // The host names the session (a changed system prompt would otherwise look like a new one).
      const churn = await pipeline.run(parseRequest(next), { sessionId: 'session-1' });
      const details = churn.decisions[0]!.details!;
      assert.equal(churn.decisions[0]!.action, 'prefix-churn-detected');
      assert.equal(details.systemChanged, true);
      assert.equal(details.toolsChanged, false);
      assert.equal(details.churn, 'client-volatile');
      assert.equal(details.explainedByHerald, false);
      assert.equal(JSON.stringify(details).includes('Current time'), false, 'no prompt text');
      assert.match(String(details.systemHash), /^[0-9a-f]{16}$/);
    });
  }

  it('marks a change Herald made as optimizer-explained', async () => {
    const tools = ['jira_search_issues', 'slack_post_message', 'datadog_query_metric'].map((name) => ({ type: 'function', function: { name, description: `${name.split('_')[0]} tool for ${name.split('_').slice(1).join(' ')}`, parameters: { type: 'object', properties: Object.fromEntries(['query', 'project', 'since', 'until', 'owner', 'labels'].map((field) => [field, { type: 'string', description: `The ${field} to narrow the ${name.split('_')[0]} lookup by, written the way the service's own search box expects it.` }])) } } }));
    const opening = [{ role: 'system', content: 'You help the payments team.' }, { role: 'user', content: 'find the jira issues' }];
    const { pipeline } = pipelineOf([createToolCatalog(), createCacheLint()], { tool_catalog: { minSavedTokens: 0, minToolSavedTokens: 0 } });
    const first = await pipeline.run(parseRequest({ model: 'gpt-4o', tools, messages: opening }), { targetKind: 'endpoint' });
    assert.equal(first.decisions[0]!.action, 'tools-catalogued');
    // The model calls a catalogued tool: it joins the full set, so Herald's tools block changes while the client's did not.
    const called = [...opening,
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'slack_post_message', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'posted' }];
    const result = await pipeline.run(parseRequest({ model: 'gpt-4o', tools, messages: called }), { targetKind: 'endpoint' });
    const details = result.decisions.find((decision) => decision.strategy === 'cache_lint')!.details!;
    assert.equal(details.toolsChanged, true);
    assert.equal(details.churn, 'optimizer-explained');
    assert.equal(details.explainedByHerald, true);
  });
});
