import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import type { ChatMessage, ChatRequest, ToolDefinition } from '../chat/types';
import type { TargetKind } from '../pipeline/types';
import { claudeCodeMcpName, copilotMcpName, loadCopilotExport, loadMcpTools } from '../../../test/support/clients';
import { skipWithoutData } from '../../../test/support/sharedData';
import { pipelineOf } from '../../../test/support/agentFixtures';
import { CATALOG_TOOL_NAME, requestedNames } from './catalog/catalogTool';
import { mcpNamesOf } from './catalog/mcpNames';
import { createToolCatalog, recordLoadedTools, TOOL_CATALOG_ID } from './toolCatalog';

let exportRequests: ChatRequest[] | undefined;

/** The requests of Copilot's real chat-replay export, as Herald's VS Code provider receives them. */
function copilotRequests(): ChatRequest[] {
  exportRequests ??= loadCopilotExport().requests.map((entry) => entry.request);
  return exportRequests;
}

/** The 117 real GitHub MCP tools under a client's naming, as neutral tools. */
function githubTools(name: (tool: string) => string): ToolDefinition[] {
  return loadMcpTools().map((tool) => ({ name: name(tool.name), description: tool.description, inputSchema: tool.inputSchema }));
}

const text = (role: ChatMessage['role'], words: string): ChatMessage => ({ role, parts: [{ type: 'text', text: words }], contentShape: 'parts' });

/** The request after the model called `tool` and the caller answered. */
function afterCall(request: ChatRequest, tool: string, id = 'c1'): ChatRequest {
  return {
    ...request,
    messages: [
      ...request.messages,
      { role: 'assistant', parts: [{ type: 'tool_call', id, name: tool, arguments: { path: 'c:\\src' } }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: 'a.txt' }], contentShape: 'parts' }], contentShape: 'parts' },
    ],
  };
}

function catalogOf(request: ChatRequest): ToolDefinition | undefined {
  return request.tools.find((tool) => tool.name === CATALOG_TOOL_NAME);
}

/** Each original tool is offered with its schema untouched or listed by its exact name in the catalog: nothing is out of reach. */
function assertReachable(original: ChatRequest, optimized: ChatRequest): void {
  const listing = catalogOf(optimized)?.description ?? '';
  for (const tool of original.tools) {
    const offered = optimized.tools.find((other) => other.name === tool.name);
    assert.ok((offered && JSON.stringify(offered) === JSON.stringify(tool)) || listing.includes(`\n- ${tool.name}(`), `${tool.name} is reachable`);
  }
}

async function runTurns(requests: readonly ChatRequest[], targetKind: TargetKind | null = 'endpoint', options: Record<string, unknown> = {}) {
  const setup = pipelineOf([createToolCatalog()], { [TOOL_CATALOG_ID]: options });
  const results = [];
  for (const request of requests) results.push(await setup.pipeline.run(request, { sessionId: 's1', windowTokens: 128_000, ...(targetKind ? { targetKind } : {}) }));
  return { ...setup, results };
}

describe('tool_catalog', () => {
  it('lists the unused tools of a real Copilot request in one catalog, keeps the tools the prompt names, and leaves every tool reachable', async function () {
    skipWithoutData(this);
    const original = copilotRequests()[0]!;
    const { results, tokens } = await runTurns([original]);
    const optimized = results[0]!.request;
    assert.equal(results[0]!.decisions[0]!.action, 'tools-catalogued');
    const full = optimized.tools.map((tool) => tool.name);
    // Copilot's system prompt names these; the user asked to create a file.
    for (const name of ['read_file', 'run_in_terminal', 'replace_string_in_file', 'grep_search', 'create_file']) assert.ok(full.includes(name), `${name} keeps its schema`);
    assert.ok(!full.includes('mcp_pylance_mcp_s_pylanceRunCodeSnippet'), 'an MCP tool nobody asked for is catalogued');
    assertReachable(original, optimized);
    assert.ok(tokens.countRequest(optimized) < tokens.countRequest(original) * 0.7, 'the request is at least 30% smaller');
    assert.deepEqual((catalogOf(optimized)!.inputSchema as { required: string[] }).required, ['names']);
  });

  it('replays the selection byte for byte across the turns of a real Copilot session', async function () {
    skipWithoutData(this);
    const { results } = await runTurns(copilotRequests());
    const blocks = results.map((result) => JSON.stringify(result.request.tools));
    // The session's calls (create_file, replace_string_in_file) were full from the start, so nothing grows.
    for (const block of blocks) assert.equal(block, blocks[0]);
    assert.deepEqual(results.slice(1).map((result) => result.decisions[0]!.action), results.slice(1).map(() => 'tool-catalog-replayed'));
  });

  it('grows the full set when the model calls a catalogued tool or the flow loads one, and never shrinks it', async function () {
    skipWithoutData(this);
    const opening = copilotRequests()[0]!;
    const { pipeline } = pipelineOf([createToolCatalog()]);
    const run = (request: ChatRequest) => pipeline.run(request, { sessionId: 's2', targetKind: 'endpoint' });
    const turn1 = await run(opening);
    assert.ok(!turn1.request.tools.some((tool) => tool.name === 'get_changed_files'));
    // The model called get_changed_files straight from the catalog: the caller ran it, and it joins the full set.
    const called = afterCall(opening, 'get_changed_files');
    const turn2 = await run(called);
    assert.ok(turn2.request.tools.some((tool) => tool.name === 'get_changed_files'));
    assert.ok(!catalogOf(turn2.request)!.description!.includes('- get_changed_files('), 'a loaded tool leaves the catalog');
    assert.match(turn2.decisions[0]!.reason, /joined the full set/);
    // The flow loaded one more inside a turn (and was asked for two it cannot load); the next request carries it too.
    const state = pipeline.state.scope(turn2.sessionId, TOOL_CATALOG_ID);
    assert.deepEqual(recordLoadedTools(state, ['fetch_webpage', 'fetch_webpage', 'no_such_tool', 'read_file']), ['fetch_webpage']);
    const later = { ...called, messages: [...called.messages, text('assistant', 'Done.'), text('user', 'thanks')] };
    const turn3 = await run(later);
    const names3 = turn3.request.tools.map((tool) => tool.name);
    for (const name of ['get_changed_files', 'fetch_webpage', 'read_file']) assert.ok(names3.includes(name));
    const turn4 = await run({ ...later, messages: [...later.messages, text('assistant', 'You are welcome.'), text('user', 'bye')] });
    assert.equal(JSON.stringify(turn4.request.tools), JSON.stringify(turn3.request.tools), 'unchanged once nothing new is used');
    assert.equal(turn4.decisions[0]!.details!.grown, 2);
  });

  for (const [convention, name] of [
    ['Copilot', (tool: string) => copilotMcpName('github', tool)],
    ['Claude Code', (tool: string) => claudeCodeMcpName('github', tool)],
    ['server-prefixed', (tool: string) => `github__${tool}`],
  ] as const) {
    it(`recognises the 117 real GitHub MCP tools under ${convention} naming and keeps every one reachable`, async function () {
      skipWithoutData(this);
      const tools = githubTools(name);
      const mcp = mcpNamesOf(tools.map((tool) => tool.name));
      assert.equal(mcp.size, 117);
      for (const found of mcp.values()) assert.equal(found.server, 'github');
      const request = parseRequest({ model: 'gpt-4o', messages: [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Please add a comment to issue 42 in my GitHub repository saying the fix shipped.' }] });
      const original = { ...request, tools };
      const { results } = await runTurns([original]);
      const optimized = results[0]!.request;
      assertReachable(original, optimized);
      const full = optimized.tools.map((tool) => tool.name);
      // "github" names the server and ties nothing; the words of the request describe the issue-comment tool.
      assert.ok(full.length < 20, `few tools keep their schema (${full.length})`);
      assert.ok(full.includes(name('add_issue_comment')));
      assert.match(catalogOf(optimized)!.description!, /\nTools of github:\n/);
    });
  }

  it('tells apart the Copilot server labels of the real export, underscores and all', function () {
    skipWithoutData(this);
    const names = copilotRequests()[0]!.tools.map((tool) => tool.name);
    const mcp = mcpNamesOf([...names, ...githubTools((tool) => copilotMcpName('github', tool)).map((tool) => tool.name)]);
    assert.equal(mcp.get('mcp_pylance_mcp_s_pylanceRunCodeSnippet')?.server, 'pylance_mcp_s');
    assert.equal(mcp.get('mcp_github_actions_get')?.server, 'github');
    assert.equal(mcp.get('github-pull-request_doSearch')?.server, 'github-pull-request');
    for (const plain of ['read_file', 'get_errors', 'run_in_terminal', 'terminal_last_command']) assert.ok(!mcp.has(plain), `${plain} is a plain tool`);
  });

  it('keeps forced and unmovable tools whole, in both wire formats', async function () {
    skipWithoutData(this);
    const tools = githubTools((tool) => claudeCodeMcpName('github', tool));
    const openai = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hello' }], tools: tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } })), tool_choice: { type: 'function', function: { name: 'mcp__github__get_me' } } };
    const forcedOpenAI = await runTurns([parseRequest(openai)]);
    assert.ok(forcedOpenAI.results[0]!.request.tools.some((tool) => tool.name === 'mcp__github__get_me' && tool.inputSchema !== undefined));
    const openaiWire = serializeRequest(forcedOpenAI.results[0]!.request).tools as { type: string; function: { name: string } }[];
    assert.equal(openaiWire.find((tool) => tool.function.name === CATALOG_TOOL_NAME)!.type, 'function');
    const anthropic = { model: 'claude-sonnet-4-5', max_tokens: 1024, messages: [{ role: 'user', content: 'hello' }], tools: [...tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })), { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }], tool_choice: { type: 'tool', name: 'mcp__github__list_issues' } };
    const forced = await runTurns([parseRequest(anthropic)]);
    const wire = serializeRequest(forced.results[0]!.request).tools as { name: string; type?: string; input_schema?: unknown }[];
    assert.ok(wire.some((tool) => tool.name === 'mcp__github__list_issues' && tool.input_schema !== undefined));
    assert.ok(wire.some((tool) => tool.type === 'web_search_20250305'));
    const catalog = wire.find((tool) => tool.name === CATALOG_TOOL_NAME)!;
    assert.equal(catalog.type, undefined, 'an Anthropic custom tool has no type field');
    assert.deepEqual((catalog.input_schema as { required: string[] }).required, ['names']);
  });

  it('offers a catalog only where Herald answers it and where it pays, per target kind', async function () {
    skipWithoutData(this);
    const request = copilotRequests()[0]!;
    const none = await runTurns([request], null);
    assert.equal(none.results[0]!.request.tools.length, 69, 'no Herald flow forwards it: nobody would answer the catalog tool');
    assert.match(none.results[0]!.decisions[0]!.reason, /nobody would answer/);
    // Copilot-hosted: the 69 tools (about 12,000 tokens) fill under a quarter of a 128k window, so the catalog is not worth a premium request.
    const copilotWide = await runTurns([request], 'copilot-hosted');
    assert.equal(copilotWide.results[0]!.decisions[0]!.action, 'tools-kept');
    assert.match(copilotWide.results[0]!.decisions[0]!.reason, /premium request/);
    const setup = pipelineOf([createToolCatalog()]);
    const copilotTight = await setup.pipeline.run(request, { targetKind: 'copilot-hosted', windowTokens: 32_000, sessionId: 's3' });
    assert.equal(copilotTight.decisions[0]!.action, 'tools-catalogued', 'in a 32k window the tools are over a third of it');
    const off = await runTurns([request], 'endpoint', { endpoints: false });
    assert.equal(off.results[0]!.request.tools.length, 69);
    const gateway = await runTurns([request], 'endpoint');
    assert.equal(gateway.results[0]!.decisions[0]!.action, 'tools-catalogued');
  });

  it('re-decides when the tool list changes, keeping what was full', async function () {
    skipWithoutData(this);
    const opening = copilotRequests()[0]!;
    const { pipeline } = pipelineOf([createToolCatalog()]);
    const called = afterCall(opening, 'get_changed_files');
    await pipeline.run(opening, { sessionId: 's4', targetKind: 'endpoint' });
    await pipeline.run(called, { sessionId: 's4', targetKind: 'endpoint' });
    const more = { ...called, tools: [...called.tools, ...githubTools((tool) => copilotMcpName('github', tool))], messages: [...called.messages, text('assistant', 'ok'), text('user', 'go on')] };
    const changed = await pipeline.run(more, { sessionId: 's4', targetKind: 'endpoint' });
    assert.match(changed.decisions[0]!.reason, /tool list changed/);
    assert.ok(changed.request.tools.some((tool) => tool.name === 'get_changed_files'));
    assertReachable(more, changed.request);
  });

  it("keeps a client's workspace tools whole (Claude Code's names too), not an MCP server's", async () => {
    const schema = { type: 'object', properties: Object.fromEntries(['path', 'pattern', 'limit', 'offset', 'mode', 'glob'].map((field) => [field, { type: 'string', description: `The ${field} to use; see the tool's documentation for the accepted forms and the defaults it applies.` }])) };
    const tools = ['Bash', 'Grep', 'Glob', 'LS', 'Read', 'MultiEdit', 'NotebookEdit', 'TodoWrite', 'WebFetch', 'mcp__fs__read_file'].map((name) => ({ name, description: `${name}: does its job on request, described at length for the model.`, inputSchema: schema }));
    const request = { ...parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hello' }] }), tools };
    const names = async (options: Record<string, unknown>) => (await runTurns([request], 'endpoint', { minSavedTokens: 0, ...options })).results[0]!.request.tools.map((tool) => tool.name);
    const kept = await names({});
    for (const name of ['Bash', 'Grep', 'Glob', 'LS', 'Read', 'MultiEdit']) assert.ok(kept.includes(name), `${name} kept`);
    for (const name of ['NotebookEdit', 'TodoWrite', 'WebFetch', 'mcp__fs__read_file']) assert.ok(!kept.includes(name), `${name} catalogued`);
    assert.ok(!(await names({ keepWorkspaceTools: false })).includes('Bash'));
  });

  it('ties a tool to the conversation by two of its words or a word of its name, not by one everyday word of its description', async () => {
    const schema = { type: 'object', properties: Object.fromEntries(['script', 'target', 'limit', 'mode'].map((field) => [field, { type: 'string', description: `The ${field}; see the documentation for the accepted forms and the defaults it applies when left out.` }])) };
    const tool = (name: string, description: string) => ({ name, description: `${description} ${'Described at length for the model, with examples and caveats. '.repeat(6)}`, inputSchema: schema });
    const tools = [
      tool('Orchestrate', 'Runs a script that fans out subagents; it handles retries in the background.'),
      tool('OrderLedger', 'Reads the ledger of a shop.'),
      tool('Shipments', 'Lists shipments per region with each cancellation reason.'),
      tool('Forecast', 'Predicts weather for a city.'),
    ];
    const ask = (words: string) => ({ ...parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: words }] }), tools });
    const kept = async (words: string) => (await runTurns([ask(words)], 'endpoint', { minSavedTokens: 0 })).results[0]!.request.tools.map((entry) => entry.name);
    const names = await kept('Work out how orders and cancellations split by region, and which code handles each status.');
    assert.ok(!names.includes('Orchestrate'), 'one everyday word ("handles") does not keep a tool whole');
    assert.ok(names.includes('OrderLedger'), 'a word of the name ("orders") keeps it');
    assert.ok(names.includes('Shipments'), 'two of its words ("region", "cancellation") keep it');
    assert.ok(!names.includes('Forecast'));
    assert.ok((await kept('Run the script that fans out the subagents.')).includes('Orchestrate'), 'two words of its description keep it');
  });

  it('does not tie a tool its description reserves for the user\'s explicit request by the task\'s subject words, only by its name', async () => {
    const schema = { type: 'object', properties: Object.fromEntries(['script', 'target', 'limit', 'mode'].map((field) => [field, { type: 'string', description: `The ${field}; see the documentation for the accepted forms and the defaults it applies when left out.` }])) };
    const padding = 'Described at length for the model, with examples and caveats. '.repeat(6);
    const fanOut = 'Runs a workflow script that fans out subagents for audits and migrations across a codebase.';
    const optIn = { name: 'Workflow', description: `${fanOut} ONLY call this tool when the user has explicitly opted into multi-agent orchestration. ${padding}`, inputSchema: schema };
    const plain = { ...optIn, name: 'Fanout', description: `${fanOut} ${padding}` };
    const ask = (words: string) => ({ ...parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: words }] }), tools: [optIn, plain] });
    const kept = async (words: string) => (await runTurns([ask(words)], 'endpoint', { minSavedTokens: 0 })).results[0]!.request.tools.map((entry) => entry.name);
    const audit = await kept('Audit the TODOs across the codebase and group them by module.');
    assert.ok(!audit.includes('Workflow'), 'an opt-in-only tool is catalogued though the task shares its subject words');
    assert.ok(audit.includes('Fanout'), 'the same description without the reservation is tied by them');
    assert.ok((await kept('Use a workflow to audit the codebase.')).includes('Workflow'), 'its name keeps it');
  });

  it('catalogues a Responses namespace tool as one entry, byte for byte when it comes back, and keeps it whole once one of its functions is called', async () => {
    const fn = (name: string, words: string) => ({ type: 'function', name, description: `${words} ${'It reports progress and status back to the caller as it goes. '.repeat(4)}`, strict: false, parameters: { type: 'object', properties: { target: { type: 'string', description: 'The id the call acts on.' }, message: { type: 'string', description: 'What to send.' } }, required: ['target'] } });
    const namespace = { type: 'namespace', name: 'crew_v1', description: 'Tools for spawning and managing helpers.', tools: [fn('spawn_helper', 'Starts a helper on a task.'), fn('wait_helper', 'Waits for a helper to finish.'), fn('close_helper', 'Closes a helper.')] };
    const body = (input: unknown[]) => ({ model: 'gpt-5.1-codex', input, tools: [{ type: 'function', name: 'exec_command', description: 'Runs a command.', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }, namespace] });
    const ask = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Count the lines of the orders file and report the total.' }] }];
    const first = parseRequest(body(ask), 'responses');
    assert.equal(first.tools[1]!.name, 'crew_v1', 'a namespace is a tool under its own name');
    assert.deepEqual((serializeRequest(first) as { tools: unknown[] }).tools[1], namespace, 'and goes out as it came');
    const { results } = await runTurns([first], 'endpoint', { minSavedTokens: 0 });
    const optimized = results[0]!.request;
    assert.deepEqual(optimized.tools.map((tool) => tool.name), ['exec_command', CATALOG_TOOL_NAME]);
    assert.match(catalogOf(optimized)!.description!, /\n- crew_v1\[spawn_helper, wait_helper, close_helper\]: Tools for spawning and managing helpers\./);
    // Called by one of its functions' names, the namespace is in use: whole, as the client sent it.
    const called = parseRequest(body([...ask, { type: 'function_call', call_id: 'c1', name: 'spawn_helper', arguments: '{"target":"a"}' }, { type: 'function_call_output', call_id: 'c1', output: 'started' }]), 'responses');
    const kept = (await runTurns([called], 'endpoint', { minSavedTokens: 0 })).results[0]!.request;
    assert.deepEqual((serializeRequest(kept) as { tools: unknown[] }).tools[1], namespace);
    // Forced in the Responses API's forms (a function of it, or among the allowed tools): whole too.
    for (const tool_choice of [{ type: 'function', name: 'wait_helper' }, { type: 'allowed_tools', mode: 'required', tools: [{ type: 'function', name: 'close_helper' }] }]) {
      const forced = (await runTurns([parseRequest({ ...body(ask), tool_choice }, 'responses')], 'endpoint', { minSavedTokens: 0 })).results[0]!.request;
      assert.ok(forced.tools.some((tool) => tool.name === 'crew_v1'), JSON.stringify(tool_choice));
    }
  });

  it('reads the names of a load call in the shapes models send', () => {
    assert.deepEqual(requestedNames({ names: ['a', ' b ', 'a', ''] }), ['a', 'b']);
    assert.deepEqual(requestedNames('{"names":["x"]}'), ['x']);
    assert.deepEqual(requestedNames({ name: 'x, y' }), ['x', 'y']);
    assert.deepEqual(requestedNames({ tools: 'x' }), ['x']);
    assert.deepEqual(requestedNames('not json'), []);
    assert.deepEqual(requestedNames(null), []);
  });
});
