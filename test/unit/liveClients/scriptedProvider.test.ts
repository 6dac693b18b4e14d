import * as assert from 'node:assert/strict';
import { anthropicBodyBlocks, responsesBodyBlocks } from '../../../src/core/costs/billingBlocks';
import { anthropicCacheRule, OPENAI_CACHE_RULE, ProviderCache } from '../../../src/core/costs/cacheBilling';
import { defaultTokenCounter } from '../../../src/core/tokens/tokenCounter';
import { callFor, type OfferedTool, type TaskScript } from '../../support/liveClients/agentScript';
import { ScriptedProvider } from '../../support/liveClients/scriptedProvider';

const WORKSPACE = '/work/space';
const TASK: TaskScript = {
  id: 'unit-task',
  set: 'tuning',
  length: 'short',
  prompt: '[task:unit-task] look around',
  steps: [{ kind: 'list', path: '.' }, { kind: 'read', path: 'src/app.py' }, { kind: 'grep', pattern: 'ERROR', path: 'logs' }],
  answer: 'Looked around.',
};
const count = (text: string): number => defaultTokenCounter.count(text);
const BIG = 'You are a coding agent. '.repeat(400);

interface SseEvent {
  readonly event?: string;
  readonly data: unknown;
}

function parseSse(text: string): SseEvent[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim().length > 0)
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1];
      const data = /^data: (.*)$/m.exec(chunk)?.[1] ?? '';
      return { ...(event ? { event } : {}), data: data === '[DONE]' ? data : (JSON.parse(data) as unknown) };
    });
}

async function post(provider: ScriptedProvider, path: string, body: unknown): Promise<string> {
  const response = await fetch(`${provider.url()}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  assert.equal(response.status, 200, await response.clone().text());
  return response.text();
}

function claudeBody(messages: unknown[], extraTools: unknown[] = []): Record<string, unknown> {
  return {
    model: 'claude-sonnet-4-5',
    stream: true,
    tools: [{ name: 'Bash', input_schema: { type: 'object', properties: { command: { type: 'string' } } } }, { name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }, ...extraTools],
    system: [{ type: 'text', text: BIG, cache_control: { type: 'ephemeral' } }],
    messages,
  };
}

describe('scripted provider (live-client bench)', () => {
  let provider: ScriptedProvider;
  beforeEach(async () => {
    provider = new ScriptedProvider({ tasks: [TASK], workspace: WORKSPACE });
    await provider.listen();
  });
  afterEach(() => provider.close());

  it('answers Anthropic requests step by step with the client\'s own tools, streamed, usage as the cache model bills', async () => {
    const user = { role: 'user', content: [{ type: 'text', text: TASK.prompt, cache_control: { type: 'ephemeral' } }] };
    const first = claudeBody([user]);
    const events = parseSse(await post(provider, '/v1/messages', first));
    assert.deepEqual(events.map((event) => event.event), ['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop']);
    const start = events[1]!.data as { content_block: { type: string; name: string } };
    assert.deepEqual([start.content_block.type, start.content_block.name], ['tool_use', 'Bash']);
    const json = events.slice(2, 4).map((event) => (event.data as { delta: { partial_json: string } }).delta.partial_json).join('');
    assert.deepEqual(JSON.parse(json), { command: 'ls -la .' }, 'no LS tool: the list step runs in the shell');
    const cache = new ProviderCache(anthropicCacheRule('claude-sonnet-4-5'));
    const expected = cache.record({ blocks: anthropicBodyBlocks(first, count) });
    const usage = (events[0]!.data as { message: { usage: Record<string, number> } }).message.usage;
    assert.deepEqual([usage.input_tokens, usage.cache_creation_input_tokens, usage.cache_read_input_tokens], [expected.freshTokens, expected.cacheWriteTokens, expected.cacheReadTokens]);
    assert.ok(expected.cacheWriteTokens > 1024);

    const second = claudeBody([
      { role: 'user', content: [{ type: 'text', text: TASK.prompt }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_unit_task_0', name: 'Bash', input: { command: 'ls -la .' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_unit_task_0', content: 'app.py', cache_control: { type: 'ephemeral' } }] },
    ]);
    const next = parseSse(await post(provider, '/v1/messages', second));
    const call = next[1]!.data as { content_block: { name: string } };
    assert.equal(call.content_block.name, 'Read');
    const nextUsage = (next[0]!.data as { message: { usage: Record<string, number> } }).message.usage;
    assert.equal(nextUsage.cache_read_input_tokens, expected.cacheWriteTokens, 'the first request\'s entry is read');
    assert.equal(provider.records.length, 2);
    assert.deepEqual(provider.records.map((record) => [record.kind, record.step]), [['call', 0], ['call', 1]]);
    assert.deepEqual(provider.records[1]!.body, second);
  });

  it('calls herald_retrieve once when a marker shows up and the tool is offered, then goes on with the same step', async () => {
    const retrieveTool = { name: 'herald_retrieve', input_schema: { type: 'object', properties: { handle: { type: 'string' } } } };
    const marked = [
      { role: 'user', content: TASK.prompt },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Bash', input: { command: 'ls -la .' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: '[herald: 40 lines elided · retrieve hr_abcdefghijklmnop]' }] },
    ];
    const first = parseSse(await post(provider, '/v1/messages', claudeBody(marked, [retrieveTool])));
    assert.deepEqual((first[1]!.data as { content_block: { name: string } }).content_block.name, 'herald_retrieve');
    const round = [...marked, { role: 'assistant', content: [{ type: 'tool_use', id: 'r', name: 'herald_retrieve', input: { handle: 'hr_abcdefghijklmnop' } }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'r', content: 'the original' }] }];
    const second = parseSse(await post(provider, '/v1/messages', claudeBody(round, [retrieveTool])));
    assert.equal((second[1]!.data as { content_block: { name: string } }).content_block.name, 'Read', 'the retrieve round does not count as a step');
    await post(provider, '/v1/messages', claudeBody(marked, [retrieveTool]));
    assert.deepEqual(provider.records.map((record) => record.kind), ['retrieve', 'call', 'call'], 'once a session');
  });

  it('an agent told never to retrieve goes on with the step a marker stands in', async () => {
    const never = new ScriptedProvider({ tasks: [TASK], workspace: WORKSPACE, retrieves: 'never' });
    await never.listen();
    try {
      const retrieveTool = { name: 'herald_retrieve', input_schema: { type: 'object', properties: { handle: { type: 'string' } } } };
      const marked = [
        { role: 'user', content: TASK.prompt },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't0', name: 'Bash', input: { command: 'ls -la .' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't0', content: '[herald: 40 lines elided · retrieve hr_abcdefghijklmnop]' }] },
      ];
      const events = parseSse(await post(never, '/v1/messages', claudeBody(marked, [retrieveTool])));
      assert.equal((events[1]!.data as { content_block: { name: string } }).content_block.name, 'Read');
      assert.deepEqual(never.records.map((record) => record.kind), ['call']);
    } finally {
      await never.close();
    }
  });

  it('speaks the Responses API (exec_command, namespace tools) with cached_tokens from the prefix rule', async () => {
    const body = {
      model: 'gpt-5.1-codex',
      stream: true,
      tools: [{ type: 'function', name: 'exec_command', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }, { type: 'namespace', name: 'agents', tools: [{ type: 'function', name: 'spawn', parameters: {} }] }],
      input: [{ type: 'message', role: 'developer', content: [{ type: 'input_text', text: BIG }] }, { type: 'message', role: 'user', content: [{ type: 'input_text', text: TASK.prompt }] }],
    };
    const events = parseSse(await post(provider, '/v1/responses', body));
    assert.equal(events[0]!.event, 'response.created');
    assert.deepEqual(events.map((event) => (event.data as { sequence_number: number }).sequence_number), events.map((_, index) => index));
    const completed = events.at(-1)!.data as { response: { output: { type: string; name: string; arguments: string }[]; usage: { input_tokens: number; input_tokens_details: { cached_tokens: number } } } };
    assert.equal(completed.response.output[0]!.name, 'exec_command');
    assert.deepEqual(JSON.parse(completed.response.output[0]!.arguments), { cmd: 'ls -la .' });
    assert.equal(completed.response.usage.input_tokens, responsesBodyBlocks(body, count).reduce((sum, block) => sum + block.tokens, 0));
    const secondBody = { ...body, input: [...body.input, { type: 'function_call', call_id: 'c0', name: 'exec_command', arguments: '{}' }, { type: 'function_call_output', call_id: 'c0', output: 'app.py' }] };
    const again = parseSse(await post(provider, '/v1/responses', secondBody));
    const usage = (again.at(-1)!.data as { response: { usage: { input_tokens_details: { cached_tokens: number } } } }).response.usage;
    const cache = new ProviderCache(OPENAI_CACHE_RULE);
    cache.record({ blocks: responsesBodyBlocks(body, count) });
    const expected = cache.record({ blocks: responsesBodyBlocks(secondBody, count) });
    assert.ok(expected.cacheReadTokens >= 1024);
    assert.equal(usage.input_tokens_details.cached_tokens, expected.cacheReadTokens);
  });

  it('speaks Chat Completions, streamed with a usage chunk or whole, and answers side requests with a short text', async () => {
    const tools = [{ type: 'function', function: { name: 'read_file', parameters: { type: 'object', properties: { file_path: { type: 'string' } } } } }];
    const messages = [{ role: 'system', content: BIG }, { role: 'user', content: TASK.prompt }, { role: 'assistant', content: null, tool_calls: [{ id: 'c0', type: 'function', function: { name: 'run_shell_command', arguments: '{}' } }] }, { role: 'tool', tool_call_id: 'c0', content: 'src' }];
    const chunks = parseSse(await post(provider, '/v1/chat/completions', { model: 'qwen3-coder-plus', stream: true, stream_options: { include_usage: true }, tools, messages }));
    assert.equal(chunks.at(-1)!.data, '[DONE]');
    const call = (chunks[0]!.data as { choices: { delta: { tool_calls: { function: { name: string } }[] } }[] }).choices[0]!.delta.tool_calls[0]!;
    assert.equal(call.function.name, 'read_file');
    assert.deepEqual(JSON.parse((chunks[1]!.data as { choices: { delta: { tool_calls: { function: { arguments: string } }[] } }[] }).choices[0]!.delta.tool_calls[0]!.function.arguments), { file_path: '/work/space/src/app.py' });
    assert.ok(typeof (chunks.at(-2)!.data as { usage: { prompt_tokens: number } }).usage.prompt_tokens === 'number');
    const side = JSON.parse(await post(provider, '/v1/chat/completions', { model: 'qwen3-coder-plus', messages: [{ role: 'user', content: 'Give this chat a title' }] })) as { choices: { message: { content: string } }[] };
    assert.equal(side.choices[0]!.message.content, 'OK.');
    assert.deepEqual(provider.records.map((record) => record.kind), ['call', 'side']);
  });

  it('ends with the answer, quoting the last result when it is one short line', async () => {
    const done = [
      { role: 'user', content: TASK.prompt },
      ...TASK.steps.flatMap((_, index) => [
        { role: 'assistant', content: [{ type: 'tool_use', id: `t${index}`, name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: `t${index}`, content: index === TASK.steps.length - 1 ? '42 matches' : 'output\nlines' }] },
      ]),
    ];
    const reply = JSON.parse(await post(provider, '/v1/messages', { ...claudeBody(done), stream: false })) as { content: { type: string; text: string }[]; stop_reason: string };
    assert.deepEqual([reply.content[0]!.type, reply.content[0]!.text, reply.stop_reason], ['text', 'Looked around. (last result: 42 matches)', 'end_turn']);
  });
});

describe('scripted agent: calls adapted to the offered tools', () => {
  const tools = (...specs: [string, string[]][]): OfferedTool[] => specs.map(([name, keys]) => ({ name, properties: Object.fromEntries(keys.map((key) => [key, { type: 'string' }])) }));
  it('uses a read, list or grep tool where offered and the shell otherwise', () => {
    const qwen = tools(['run_shell_command', ['command']], ['read_file', ['file_path']], ['grep_search', ['pattern', 'path']]);
    assert.deepEqual(callFor({ kind: 'grep', pattern: 'x', path: 'src' }, qwen, '/w'), { name: 'grep_search', input: { pattern: 'x', path: '/w/src' } });
    assert.deepEqual(callFor({ kind: 'list', path: 'src' }, qwen, '/w'), { name: 'run_shell_command', input: { command: 'ls -la src' } });
    const codex = tools(['exec_command', ['cmd']]);
    assert.deepEqual(callFor({ kind: 'read', path: 'a.py' }, codex, '/w'), { name: 'exec_command', input: { cmd: 'cat a.py' } });
    assert.deepEqual(callFor({ kind: 'shell', command: 'seq 1 3' }, [{ name: 'shell', properties: { command: { type: 'array' } } }], '/w'), { name: 'shell', input: { command: ['bash', '-lc', 'seq 1 3'] } });
    assert.throws(() => callFor({ kind: 'shell', command: 'ls' }, tools(['Read', ['file_path']]), '/w'), /no shell tool/);
  });
});
