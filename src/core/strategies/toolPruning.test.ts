import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData } from '../../../test/support/sharedData';
import { createToolPruning } from './toolPruning';
import { anthropicTools, openAITools, pipelineOf, toolCallingTurns, type NeutralTool } from '../../../test/support/agentFixtures';

const SEED_TOOLS: NeutralTool[] = [
  { name: 'jira_search_issues', description: 'Search issues in a Jira project by JQL.', parameters: { type: 'object', properties: { jql: { type: 'string' } } } },
  { name: 'slack_post_message', description: 'Post a message to a Slack channel.', parameters: { type: 'object', properties: { channel: { type: 'string' } } } },
  { name: 'datadog_query_metric', description: 'Query a Datadog metric over a range.', parameters: { type: 'object', properties: { metric: { type: 'string' } } } },
];

function toolNames(body: Record<string, unknown>): string[] {
  const tools = (body.tools ?? []) as { name?: string; function?: { name: string } }[];
  return tools.map((tool) => tool.name ?? tool.function?.name ?? '');
}

async function pruneOnce(body: unknown, options: Record<string, unknown> = {}): Promise<{ names: string[]; action: string }> {
  const { pipeline } = pipelineOf([createToolPruning()], { tool_pruning: options });
  const result = await pipeline.run(parseRequest(body));
  return { names: toolNames(serializeRequest(result.request)), action: result.decisions[0]!.action };
}

describe('tool_pruning', () => {
  it('keeps only the tool that shares a topic word with the task (OpenAI and Anthropic)', async () => {
    const task = 'comment on the P0 bugs in the PAY project';
    const openai = await pruneOnce({ model: 'gpt-4o', messages: [{ role: 'user', content: task }], tools: openAITools(SEED_TOOLS) });
    assert.deepEqual(openai.names, ['jira_search_issues']);
    assert.equal(openai.action, 'tools-pruned');
    const anthropic = await pruneOnce({ model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: task }], tools: anthropicTools(SEED_TOOLS) });
    assert.deepEqual(anthropic.names, ['jira_search_issues']);
  });

  it('does not let generic verbs or wording most descriptions share keep a tool', async () => {
    const travel: NeutralTool[] = ['flight', 'hotel', 'car rental', 'train', 'cruise', 'visa'].map((topic) => ({
      name: `book_${topic.replace(' ', '_')}`,
      description: `Travel assistant: use this to get and find a ${topic} booking for the traveller.`,
      parameters: { type: 'object', properties: {} },
    }));
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: 'As my travel assistant, use what you can to get me a flight to Lisbon.' }], tools: openAITools(travel) };
    assert.deepEqual((await pruneOnce(body)).names, ['book_flight']);
  });

  it('never prunes namespaced MCP tools, server tools, or a tool the request forces', async () => {
    const messages = [{ role: 'user', content: 'comment on the P0 bugs in the PAY project' }];
    const tools = [...openAITools(SEED_TOOLS), ...openAITools([{ name: 'mcp__notes__append', description: 'Append to a note.', parameters: {} }])];
    const forcedOpenAI = await pruneOnce({ model: 'gpt-4o', messages, tools, tool_choice: { type: 'function', function: { name: 'datadog_query_metric' } } });
    assert.deepEqual(forcedOpenAI.names, ['jira_search_issues', 'datadog_query_metric', 'mcp__notes__append']);
    const anthropicBody = {
      model: 'claude-sonnet-4-5', max_tokens: 1024, messages,
      tools: [...anthropicTools(SEED_TOOLS), { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }],
      tool_choice: { type: 'tool', name: 'slack_post_message' },
    };
    assert.deepEqual((await pruneOnce(anthropicBody)).names, ['jira_search_issues', 'slack_post_message', 'web_search']);
  });

  it('leaves the list whole when no tool ties, and leaves short lists alone', async () => {
    const unrelated = await pruneOnce({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hello there' }], tools: openAITools(SEED_TOOLS) });
    assert.equal(unrelated.names.length, 3);
    const short = await pruneOnce({ model: 'gpt-4o', messages: [{ role: 'user', content: 'comment on the PAY project' }], tools: openAITools(SEED_TOOLS) }, { minTools: 4 });
    assert.equal(short.names.length, 3);
    assert.equal(short.action, 'tools-kept');
  });

  for (const format of ['openai', 'anthropic'] as const) {
    it(`replays the pinned selection byte for byte across the turns of a real trajectory (${format})`, async function () {
      skipWithoutData(this);
      const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-12907'), format, { maxTurns: 8 });
      // A later user message names Slack: a fresh decision would keep slack_post_message, the pin must not.
      const later = bodies[bodies.length - 1]!;
      (later.messages as unknown[]).push(format === 'anthropic'
        ? { role: 'user', content: [{ type: 'text', text: 'Also post a summary to the Slack channel when done.' }] }
        : { role: 'user', content: 'Also post a summary to the Slack channel when done.' });
      const { pipeline } = pipelineOf([createToolPruning()]);
      const tools: string[] = [];
      const actions: string[] = [];
      for (const body of bodies) {
        const result = await pipeline.run(parseRequest(body));
        tools.push(JSON.stringify(serializeRequest(result.request).tools));
        actions.push(result.decisions[0]!.action);
      }
      assert.ok(JSON.parse(tools[0]!).length < 10, 'the first decision pruned something');
      assert.ok(!toolNames(JSON.parse(`{"tools":${tools[0]}}`) as Record<string, unknown>).includes('slack_post_message'));
      for (const turn of tools) assert.equal(turn, tools[0], 'every turn sends the same tools block');
      assert.deepEqual(actions.slice(1), actions.slice(1).map(() => 'tool-selection-replayed'));
      const fresh = await pruneOnce(later);
      assert.ok(fresh.names.includes('slack_post_message'), 'without the pin the later turn would have kept Slack');
    });
  }

  it('re-decides when the model calls a pruned tool, when tool_choice forces one, and when the tool list changes', async () => {
    const { pipeline } = pipelineOf([createToolPruning()]);
    const system = { role: 'system', content: 'You help the payments team.' };
    const task = { role: 'user', content: 'comment on the P0 bugs in the PAY project' };
    const base = { model: 'gpt-4o', tools: openAITools(SEED_TOOLS) };
    const first = await pipeline.run(parseRequest({ ...base, messages: [system, task] }));
    assert.deepEqual(toolNames(serializeRequest(first.request)), ['jira_search_issues']);

    const called = [system, task,
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'slack_post_message', arguments: '{"channel":"pay"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'posted' }];
    const afterCall = await pipeline.run(parseRequest({ ...base, messages: called }));
    assert.deepEqual(toolNames(serializeRequest(afterCall.request)), ['jira_search_issues', 'slack_post_message']);
    assert.match(afterCall.decisions[0]!.reason, /called a pruned tool/);

    const forced = await pipeline.run(parseRequest({ ...base, messages: called, tool_choice: { type: 'function', function: { name: 'datadog_query_metric' } } }));
    assert.ok(toolNames(serializeRequest(forced.request)).includes('datadog_query_metric'));
    assert.match(forced.decisions[0]!.reason, /forces a pruned tool/);

    const changed = await pipeline.run(parseRequest({ ...base, tools: openAITools([...SEED_TOOLS, { name: 'pagerduty_ack', description: 'Acknowledge a PagerDuty incident.', parameters: {} }]), messages: called }));
    assert.match(changed.decisions[0]!.reason, /tool list changed/);
  });
});
