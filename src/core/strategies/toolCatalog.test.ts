import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { parseRequest, serializeRequest } from '../chat';
import type { ChatRequest, ToolDefinition } from '../chat/types';
import type { TargetKind } from '../pipeline/types';
import { skipWithoutData, sharedPath } from '../../../test/support/sharedData';
import { CATALOG_TOOL_NAME, requestedNames } from './catalog/catalogTool';
import { mcpNamesOf } from './catalog/mcpNames';
import { createToolCatalog, recordLoadedTools, TOOL_CATALOG_ID } from './toolCatalog';
import { pipelineOf } from '../../../test/support/agentFixtures';

let exportBodies: Record<string, unknown>[] | undefined;

/** The requests of Copilot's real chat-replay export as OpenAI bodies (roles 0–3, text parts; breakpoints dropped). */
function copilotExportBodies(): Record<string, unknown>[] {
  exportBodies ??= readCopilotExport();
  return structuredClone(exportBodies);
}

function readCopilotExport(): Record<string, unknown>[] {
  const data = JSON.parse(fs.readFileSync(sharedPath('clients', 'copilot', 'spec.chatreplay.json'), 'utf8')) as { prompts: { logs: { kind: string; metadata?: { tools: unknown[]; model: string }; requestMessages?: { messages: { role: number; content: { type: number; text?: string }[]; toolCalls?: unknown[]; toolCallId?: string }[] } }[] }[] };
  const roles = ['system', 'user', 'assistant', 'tool'];
  return data.prompts.flatMap((prompt) => prompt.logs.filter((log) => log.kind === 'request')).map((log) => ({
    model: log.metadata!.model,
    tools: log.metadata!.tools.map((tool) => ({ type: 'function', ...(tool as object) })),
    messages: log.requestMessages!.messages.map((message) => ({
      role: roles[message.role],
      content: message.content.filter((part) => part.type === 1).map((part) => part.text ?? '').join(''),
      ...(message.toolCalls ? { tool_calls: message.toolCalls } : {}),
      ...(message.toolCallId ? { tool_call_id: message.toolCallId } : {}),
    })),
  }));
}

/** The 117 real GitHub MCP server tools, named as a client would offer them. */
function githubMcpTools(name: (tool: string) => string): { type: string; function: { name: string; description: string; parameters: unknown } }[] {
  const folder = sharedPath('clients', 'mcp-tools', 'github-mcp-server');
  return fs.readdirSync(folder).sort().map((file) => {
    const snap = JSON.parse(fs.readFileSync(`${folder}/${file}`, 'utf8')) as { name: string; description: string; inputSchema: unknown };
    return { type: 'function', function: { name: name(snap.name), description: snap.description, parameters: snap.inputSchema } };
  });
}

function catalogOf(request: ChatRequest): ToolDefinition | undefined {
  return request.tools.find((tool) => tool.name === CATALOG_TOOL_NAME);
}

/** Each original tool is offered in full or listed by its exact name in the catalog: nothing is out of reach. */
function assertReachable(original: ChatRequest, optimized: ChatRequest): void {
  const full = new Set(optimized.tools.map((tool) => tool.name));
  const listing = catalogOf(optimized)?.description ?? '';
  for (const tool of original.tools) {
    const offered = full.has(tool.name) && JSON.stringify(optimized.tools.find((other) => other.name === tool.name)) === JSON.stringify(tool);
    assert.ok(offered || listing.includes(`\n- ${tool.name}(`), `${tool.name} is reachable`);
  }
}

async function runTurns(bodies: readonly unknown[], targetKind: TargetKind | null = 'endpoint', options: Record<string, unknown> = {}) {
  const setup = pipelineOf([createToolCatalog()], { [TOOL_CATALOG_ID]: options });
  const results = [];
  for (const body of bodies) results.push(await setup.pipeline.run(parseRequest(body), { sessionId: 's1', ...(targetKind ? { targetKind } : {}) }));
  return { ...setup, results };
}

describe('tool_catalog', () => {
  it('lists the unused tools of a real Copilot request in one catalog, keeps the tools the prompt names, and leaves every tool reachable', async function () {
    skipWithoutData(this);
    const body = copilotExportBodies()[0]!;
    const { results, tokens } = await runTurns([body]);
    const original = parseRequest(body);
    const optimized = results[0]!.request;
    assert.equal(results[0]!.decisions[0]!.action, 'tools-catalogued');
    const full = optimized.tools.map((tool) => tool.name);
    // Copilot's system prompt names these; the user asked to create a file.
    for (const name of ['read_file', 'run_in_terminal', 'replace_string_in_file', 'grep_search', 'create_file']) assert.ok(full.includes(name), `${name} keeps its schema`);
    assert.ok(!full.includes('mcp_pylance_mcp_s_pylanceRunCodeSnippet'), 'an MCP tool nobody asked for is catalogued');
    assertReachable(original, optimized);
    assert.ok(tokens.countRequest(optimized) < tokens.countRequest(original) * 0.7, 'the request is at least 30% smaller');
    // The catalog tool goes out as a normal OpenAI function with a valid schema.
    const wireTools = serializeRequest(optimized).tools as { type: string; function: { name: string; parameters: { required: string[] } } }[];
    const wire = wireTools.find((tool) => tool.function.name === CATALOG_TOOL_NAME)!;
    assert.equal(wire.type, 'function');
    assert.deepEqual(wire.function.parameters.required, ['names']);
  });

  it('replays the selection byte for byte across the turns of a real Copilot session', async function () {
    skipWithoutData(this);
    const bodies = copilotExportBodies();
    const { results } = await runTurns(bodies);
    const blocks = results.map((result) => JSON.stringify(serializeRequest(result.request).tools));
    // The session's calls (create_file, replace_string_in_file) were full from the start, so nothing grows.
    for (const block of blocks) assert.equal(block, blocks[0]);
    assert.deepEqual(results.slice(1).map((result) => result.decisions[0]!.action), results.slice(1).map(() => 'tool-catalog-replayed'));
  });

  it('grows the full set when the model calls a catalogued tool or the flow loads one, and never shrinks it', async function () {
    skipWithoutData(this);
    const [first] = copilotExportBodies();
    const opening = first!.messages as unknown[];
    const { pipeline } = pipelineOf([createToolCatalog()]);
    const run = (messages: unknown[]) => pipeline.run(parseRequest({ ...first, messages }), { sessionId: 's2', targetKind: 'endpoint' });
    const turn1 = await run(opening);
    assert.ok(!turn1.request.tools.some((tool) => tool.name === 'list_dir'));
    // The model called list_dir straight from the catalog: the caller ran it, and it joins the full set.
    const called = [...opening,
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list_dir', arguments: '{"path":"c:\\\\src"}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt' }];
    const turn2 = await run(called);
    assert.ok(turn2.request.tools.some((tool) => tool.name === 'list_dir'));
    assert.ok(!catalogOf(turn2.request)!.description!.includes('- list_dir('), 'a loaded tool leaves the catalog');
    assert.match(turn2.decisions[0]!.reason, /joined the full set/);
    // The flow loaded two more inside a turn; the next request carries them too.
    const state = pipeline.state.scope(turn2.sessionId, TOOL_CATALOG_ID);
    assert.deepEqual(recordLoadedTools(state, ['fetch_webpage', 'fetch_webpage', 'no_such_tool', 'read_file']), ['fetch_webpage']);
    const later = [...called, { role: 'assistant', content: 'Done.' }, { role: 'user', content: 'thanks' }];
    const turn3 = await run(later);
    const names3 = turn3.request.tools.map((tool) => tool.name);
    for (const name of ['list_dir', 'fetch_webpage', 'read_file']) assert.ok(names3.includes(name));
    const turn4 = await run([...later, { role: 'assistant', content: 'You are welcome.' }, { role: 'user', content: 'bye' }]);
    assert.equal(JSON.stringify(turn4.request.tools), JSON.stringify(turn3.request.tools), 'unchanged once nothing new is used');
    assert.equal(turn4.decisions[0]!.details!.grown, 2);
  });

  for (const [convention, name] of [
    ['Copilot', (tool: string) => `mcp_github_${tool}`],
    ['Claude Code', (tool: string) => `mcp__github__${tool}`],
    ['server-prefixed', (tool: string) => `github__${tool}`],
  ] as const) {
    it(`recognises the 117 real GitHub MCP tools under ${convention} naming and keeps every one reachable`, async function () {
      skipWithoutData(this);
      const tools = githubMcpTools(name);
      const mcp = mcpNamesOf(tools.map((tool) => tool.function.name));
      assert.equal(mcp.size, 117);
      for (const found of mcp.values()) assert.equal(found.server, 'github');
      const body = { model: 'gpt-4o', tools, messages: [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Please add a comment to issue 42 in my GitHub repository saying the fix shipped.' }] };
      const { results } = await runTurns([body]);
      const optimized = results[0]!.request;
      assertReachable(parseRequest(body), optimized);
      const full = optimized.tools.map((tool) => tool.name);
      // "github" names the server and ties nothing; the words of the request tie the issue-comment tool.
      assert.ok(full.length < 20, `few tools keep their schema (${full.length})`);
      assert.ok(full.includes(name('add_issue_comment')));
      assert.match(catalogOf(optimized)!.description!, /\nTools of github:\n/);
    });
  }

  it('keeps forced and unmovable tools whole, in both wire formats', async function () {
    skipWithoutData(this);
    const mcp = githubMcpTools((tool) => `mcp__github__${tool}`);
    const messages = [{ role: 'user', content: 'hello' }];
    const forcedOpenAI = await runTurns([{ model: 'gpt-4o', tools: mcp, messages, tool_choice: { type: 'function', function: { name: 'mcp__github__get_me' } } }]);
    assert.ok(forcedOpenAI.results[0]!.request.tools.some((tool) => tool.name === 'mcp__github__get_me'));
    const anthropicTools = [...mcp.map((tool) => ({ name: tool.function.name, description: tool.function.description, input_schema: tool.function.parameters })), { type: 'web_search_20250305', name: 'web_search', max_uses: 3 }];
    const anthropic = await runTurns([{ model: 'claude-sonnet-4-5', max_tokens: 1024, tools: anthropicTools, messages, tool_choice: { type: 'tool', name: 'mcp__github__list_issues' } }]);
    const wire = serializeRequest(anthropic.results[0]!.request).tools as { name: string; type?: string; input_schema?: unknown }[];
    assert.ok(wire.some((tool) => tool.name === 'mcp__github__list_issues' && tool.input_schema !== undefined));
    assert.ok(wire.some((tool) => tool.type === 'web_search_20250305'));
    const catalog = wire.find((tool) => tool.name === CATALOG_TOOL_NAME)!;
    assert.equal(catalog.type, undefined, 'an Anthropic custom tool has no type field');
    assert.deepEqual((catalog.input_schema as { required: string[] }).required, ['names']);
  });

  it('offers a catalog only where Herald answers it and where it pays, per target kind', async function () {
    skipWithoutData(this);
    const body = copilotExportBodies()[0]!;
    const none = await runTurns([body], null);
    assert.equal(none.results[0]!.request.tools.length, 69, 'no Herald flow forwards it: nobody would answer the catalog tool');
    assert.match(none.results[0]!.decisions[0]!.reason, /nobody would answer/);
    // Copilot-hosted: the 69 tools (about 12,000 tokens) fill under a quarter of a 128k window, so the catalog is not worth a premium request.
    const copilotSmall = await runTurns([body], 'copilot-hosted');
    assert.equal(copilotSmall.results[0]!.decisions[0]!.action, 'tools-kept');
    assert.match(copilotSmall.results[0]!.decisions[0]!.reason, /premium request/);
    const setup = pipelineOf([createToolCatalog()]);
    const copilotTight = await setup.pipeline.run(parseRequest(body), { targetKind: 'copilot-hosted', windowTokens: 32_000, sessionId: 's3' });
    assert.equal(copilotTight.decisions[0]!.action, 'tools-catalogued', 'in a 32k window the tools are over a third of it');
    const off = await runTurns([body], 'gateway', { endpoints: false });
    assert.equal(off.results[0]!.request.tools.length, 69);
    const gateway = await runTurns([body], 'gateway');
    assert.equal(gateway.results[0]!.decisions[0]!.action, 'tools-catalogued');
  });

  it('re-decides when the tool list changes, keeping what was full', async function () {
    skipWithoutData(this);
    const [first] = copilotExportBodies();
    const { pipeline } = pipelineOf([createToolCatalog()]);
    const opening = first!.messages as unknown[];
    const called = [...opening,
      { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'list_dir', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'a.txt' }];
    await pipeline.run(parseRequest({ ...first, messages: opening }), { sessionId: 's4', targetKind: 'endpoint' });
    await pipeline.run(parseRequest({ ...first, messages: called }), { sessionId: 's4', targetKind: 'endpoint' });
    const more = { ...first, tools: [...(first!.tools as unknown[]), ...githubMcpTools((tool) => `mcp_github_${tool}`)], messages: [...called, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'go on' }] };
    const changed = await pipeline.run(parseRequest(more), { sessionId: 's4', targetKind: 'endpoint' });
    assert.match(changed.decisions[0]!.reason, /tool list changed/);
    assert.ok(changed.request.tools.some((tool) => tool.name === 'list_dir'));
    assertReachable(parseRequest(more), changed.request);
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
