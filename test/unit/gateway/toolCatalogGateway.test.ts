/**
 * The tool catalog through `herald serve`: a Claude Code-like client with a real MCP server's
 * 117 tools, the official Anthropic client in front and a recording fake provider behind. The
 * provider sees the catalog, the model loads a catalogued tool, Herald answers inside the turn
 * with the schema added, and the client gets one message with the model's real call only.
 */
import { strict as assert } from 'node:assert';
import Anthropic from '@anthropic-ai/sdk';
import { claudeCodeMcpName, loadMcpTools } from '../../support/clients';
import { skipWithoutData } from '../../support/sharedData';
import { anthropicMessage } from './providerAnswers';
import { records, startHarness, type Harness } from './harness';

const LOAD = 'herald_load_tools';
const WANTED = claudeCodeMcpName('github', 'list_issues');

describe('gateway: the tool catalog', function () {
  this.timeout(20_000);
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.stop();
    harness = undefined;
  });

  it('offers the catalog, answers a load inside the turn, and the client sees only the model\'s own call', async function () {
    skipWithoutData(this);
    harness = await startHarness((request: { json: Record<string, unknown> | undefined }) => {
      const loaded = JSON.stringify(request.json).includes('"tool_use_id":"toolu_load"');
      const blocks = loaded
        ? [{ type: 'tool_use' as const, id: 'toolu_real', name: WANTED, input: { owner: 'octo', repo: 'app' } }]
        : [{ type: 'text' as const, text: 'Looking at the issues. ' }, { type: 'tool_use' as const, id: 'toolu_load', name: LOAD, input: { names: [WANTED] } }];
      return { kind: 'json' as const, body: anthropicMessage({ id: loaded ? 'msg_2' : 'msg_1', blocks }) };
    });
    const tools = loadMcpTools().map((tool) => ({ name: claudeCodeMcpName('github', tool.name), description: tool.description, input_schema: tool.inputSchema as Anthropic.Tool.InputSchema }));
    const client = new Anthropic({ apiKey: 'sk-ant-test', baseURL: harness.base, maxRetries: 0 });
    const message = await client.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 512, tools, messages: [{ role: 'user', content: 'What is open in octo/app?' }] });
    assert.deepEqual(message.content.map((block) => (block.type === 'tool_use' ? block.name : block.type)), ['text', WANTED]);
    assert.ok(!JSON.stringify(message).includes(LOAD), 'the load call never reaches the client');

    const [first, second] = harness.upstream.bodies('/v1/messages') as { tools: { name: string; input_schema?: unknown; description?: string }[] }[];
    assert.ok(first!.tools.length < 40, `the provider got a short tools block (${first!.tools.length} of 117 and the catalog)`);
    const catalog = first!.tools.find((tool) => tool.name === LOAD)!;
    assert.ok(catalog.description!.includes(`\n- ${WANTED}(`), 'the tool is listed in the catalog');
    assert.ok(!first!.tools.some((tool) => tool.name === WANTED));
    assert.ok(second!.tools.some((tool) => tool.name === WANTED && tool.input_schema !== undefined), 'round 2 offers it in full');
    assert.deepEqual((records(harness).at(-1) as { ownToolCalls?: Record<string, number> }).ownToolCalls, { [LOAD]: 1 });
  });
});
