/**
 * A long MCP tool list through `herald serve` (issue 29: no flow answers the tool catalog from
 * the CLI's `optimize`, so this one-request workload is measured where the catalog is answered).
 *
 * Two shapes, each with the GitHub MCP server's real tool list (117 tools) and a user's one-line
 * request that needs one of them: Anthropic Messages as Claude Code sends it (the first request
 * of a recorded Claude Code session: its system prompt and the tools the transcript shows, MCP
 * tools under Claude Code's names `mcp__github__<tool>`), and OpenAI Chat Completions with the
 * system prompt and the 69 tools of Copilot's own recorded agent request, MCP tools under
 * Copilot's names (`mcp_github_<tool>`). A scripted model on loopback answers the way a model that follows the
 * catalog's instructions does: it calls the tool when the request offers it whole, else it asks
 * `herald_load_tools` for it (Herald answers that inside the turn and sends the request again)
 * and then calls it; a tool it can find nowhere is counted as unreachable. The client then
 * sends the tool's result and the model answers. Each workload runs straight to the provider
 * and through Herald; every request the provider receives is billed under its provider's cache
 * rule (test/support/cachePricing.ts), Herald's in-turn rounds included.
 *
 * The workloads are split by id (test/support/workloads/heldOutSplit.ts) into a tune half and a
 * measure half; nothing was tuned on either, both are reported.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../../src/core/chat';
import type { ChatRequest } from '../../src/core/chat/types';
import type { CliIo } from '../../src/cli/io';
import { startServe } from '../../src/cli/serveCommand';
import { CATALOG_TOOL_NAME } from '../../src/core/strategies/catalog/catalogTool';
import { TokenCounter } from '../../src/core/tokens';
import { claudeCodeShortSessionFiles, loadClaudeCodeSession, readCopilotExport } from '../support/clients';
import { RAW_PART } from '../support/clients/copilotRaw';
import { claudeCodeMcpName, copilotMcpName, loadMcpTools, type McpTool } from '../support/clients/mcpTools';
import { pricersFor } from '../support/cachePricing';
import { hasSharedData } from '../support/sharedData';
import { heldOutHalf } from '../support/workloads/heldOutSplit';
import { FakeUpstream, type Answer, type ReceivedRequest } from '../unit/gateway/fakeUpstream';
import { anthropicEvents, chatEvents } from '../unit/gateway/providerAnswers';
import type { BenchReport } from './run';
import { percent } from './stats';

/** A user's request and the MCP tool it needs (our own wording; the tool names are the server's). */
interface McpTask {
  readonly id: string;
  readonly prompt: string;
  readonly tool: string;
}

const TASKS: readonly McpTask[] = [
  { id: 'pending-review-comment', prompt: 'On PR #482 in acme/storefront, add a comment to my pending review at line 57 of src/cart.ts saying it should handle a null cart.', tool: 'add_comment_to_pending_review' },
  { id: 'star-next', prompt: 'Star the vercel/next.js repository for me.', tool: 'star_repository' },
  { id: 'dependabot-open', prompt: 'Which Dependabot alerts are open on acme/api?', tool: 'list_dependabot_alerts' },
  { id: 'fork-hello', prompt: 'Fork octocat/Hello-World into my account.', tool: 'fork_repository' },
  { id: 'blame-index', prompt: 'Who last changed each line of src/index.ts in acme/web? Show me the blame.', tool: 'get_file_blame' },
  { id: 'merge-91', prompt: 'Squash-merge pull request #91 in acme/web.', tool: 'merge_pull_request' },
  { id: 'gist-snippet', prompt: "Make a secret gist called hello.js containing: console.log('hi')", tool: 'create_gist' },
  { id: 'job-logs', prompt: 'Get me the logs of the failed job 1234 in acme/ci.', tool: 'get_job_logs' },
  { id: 'notifications-read', prompt: 'Mark all my GitHub notifications as read.', tool: 'mark_all_notifications_read' },
  { id: 'copilot-review', prompt: 'Ask Copilot to review PR #12 of acme/web.', tool: 'request_copilot_review' },
  { id: 'search-retry', prompt: "Find where retryWithBackoff is used in code across the acme organization's repositories.", tool: 'search_code' },
  { id: 'issue-title', prompt: "Rename issue #77 in acme/api to 'Crash on empty cart'.", tool: 'update_issue_title' },
  { id: 'list-tags', prompt: 'List the tags of acme/web.', tool: 'list_tags' },
  { id: 'team-members', prompt: 'Who is on the platform team in the acme org?', tool: 'get_team_members' },
];

const SERVER = 'github';
const TOOL_RESULT = '{"ok":true,"url":"https://github.com/acme/web"}';

type Shape = 'claude-code' | 'chat-completions';

/** The offered tool names and, for the catalog tool, its description. */
function offered(body: Record<string, unknown>, shape: Shape): { names: string[]; catalog: string | undefined } {
  const tools = (body.tools as Record<string, unknown>[] | undefined) ?? [];
  const names = tools.map((tool) => (shape === 'claude-code' ? String(tool.name) : String((tool.function as Record<string, unknown>).name)));
  const catalogEntry = tools.find((tool) => (shape === 'claude-code' ? tool.name : (tool.function as Record<string, unknown>).name) === CATALOG_TOOL_NAME);
  const catalog = catalogEntry ? String(shape === 'claude-code' ? catalogEntry.description : (catalogEntry.function as Record<string, unknown>).description) : undefined;
  return { names, catalog };
}

/** What the scripted model does with a request: answer, call the tool, or ask the catalog for it. */
function decide(body: Record<string, unknown>, shape: Shape, wanted: string): { kind: 'answer' } | { kind: 'call'; name: string; input: object } | { kind: 'unreachable' } {
  const messages = (body.messages as Record<string, unknown>[]) ?? [];
  const last = JSON.stringify(messages[messages.length - 1] ?? {});
  // The tool's result is in: the model answers.
  if (last.includes('"ok\\":true') || last.includes('"ok":true')) return { kind: 'answer' };
  const { names, catalog } = offered(body, shape);
  if (names.includes(wanted)) return { kind: 'call', name: wanted, input: { owner: 'acme', repo: 'web' } };
  if (catalog?.includes(wanted)) return { kind: 'call', name: CATALOG_TOOL_NAME, input: { names: [wanted] } };
  return { kind: 'unreachable' };
}

function answerFor(request: ReceivedRequest, shape: Shape, wanted: string, counter: { calls: number; unreachable: number; loads: number }): Answer {
  const body = request.json ?? {};
  const step = decide(body, shape, wanted);
  counter.calls++;
  if (step.kind === 'unreachable') counter.unreachable++;
  if (step.kind === 'call' && step.name === CATALOG_TOOL_NAME) counter.loads++;
  const id = `call_${counter.calls}`;
  if (shape === 'claude-code') {
    const blocks = step.kind === 'call' ? [{ type: 'tool_use' as const, id: `toolu_${counter.calls}`, name: step.name, input: step.input }] : [{ type: 'text' as const, text: step.kind === 'answer' ? 'Done.' : `I cannot find ${wanted}.` }];
    return { kind: 'stream', events: anthropicEvents({ id: `msg_${counter.calls}`, blocks }) };
  }
  return { kind: 'stream', events: chatEvents(step.kind === 'call' ? { id, calls: [{ id, name: step.name, arguments: JSON.stringify(step.input) }] } : { id, text: step.kind === 'answer' ? 'Done.' : `I cannot find ${wanted}.` }) };
}

/** The first client request of a workload, as the client's wire body. */
function firstBody(base: ChatRequest, tools: readonly McpTool[], task: McpTask, shape: Shape): Record<string, unknown> {
  const body = serializeRequest(base);
  const prompt = task.prompt;
  if (shape === 'claude-code') {
    const own = (body.tools as Record<string, unknown>[]) ?? [];
    const mcp = tools.map((tool) => ({ name: claudeCodeMcpName(SERVER, tool.name), description: tool.description, input_schema: tool.inputSchema }));
    return { ...body, stream: true, tools: [...own, ...mcp], messages: [{ role: 'user', content: [{ type: 'text', text: prompt }] }] };
  }
  const copilot = readCopilotExport()[0]!;
  const systemText = copilot.messages[0]!.content.map((part) => (part.type === RAW_PART.text ? part.text : '')).join('');
  const own = copilot.tools;
  const mcp = tools.map((tool) => ({ type: 'function', function: { name: copilotMcpName(SERVER, tool.name), description: tool.description, parameters: tool.inputSchema } }));
  return { model: 'gpt-4.1', stream: true, stream_options: { include_usage: true }, tools: [...own, ...mcp], messages: [{ role: 'system', content: systemText }, { role: 'user', content: prompt }] };
}

/** The client's next request: the model's answer appended, then the tool's result. */
function followUp(first: Record<string, unknown>, shape: Shape, callName: string, callId: string, input: object): Record<string, unknown> {
  const messages = first.messages as unknown[];
  if (shape === 'claude-code') {
    return { ...first, messages: [...messages, { role: 'assistant', content: [{ type: 'tool_use', id: callId, name: callName, input }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId, content: TOOL_RESULT }] }] };
  }
  return { ...first, messages: [...messages, { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name: callName, arguments: JSON.stringify(input) } }] }, { role: 'tool', tool_call_id: callId, content: TOOL_RESULT }] };
}

/** Reads a streamed answer and returns the tool call the client got (name, id, input), if any. */
async function readCall(response: Response, shape: Shape): Promise<{ name: string; id: string; input: object } | undefined> {
  const text = await response.text();
  if (response.status !== 200) throw new Error(`Herald MCP bench: ${response.status} ${text.slice(0, 300)}`);
  const events = text.split('\n').filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]').map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
  if (shape === 'claude-code') {
    const start = events.find((event) => event.type === 'content_block_start' && (event.content_block as Record<string, unknown>).type === 'tool_use');
    if (!start) return undefined;
    const block = start.content_block as { id: string; name: string };
    const json = events.filter((event) => event.type === 'content_block_delta' && (event.delta as Record<string, unknown>).type === 'input_json_delta').map((event) => String((event.delta as Record<string, unknown>).partial_json)).join('');
    return { name: block.name, id: block.id, input: JSON.parse(json || '{}') as object };
  }
  let name = '';
  let id = '';
  let args = '';
  for (const event of events) {
    const delta = ((event.choices as Record<string, unknown>[] | undefined)?.[0]?.delta ?? {}) as { tool_calls?: { id?: string; function?: { name?: string; arguments?: string } }[] };
    for (const call of delta.tool_calls ?? []) {
      if (call.id) id = call.id;
      if (call.function?.name) name = call.function.name;
      args += call.function?.arguments ?? '';
    }
  }
  return name ? { name, id, input: JSON.parse(args || '{}') as object } : undefined;
}

interface WayResult {
  readonly tokens: number;
  readonly cost: number;
  readonly rounds: number;
  readonly reached: boolean;
  readonly loads: number;
}

/** One workload one way: the client's two requests, every provider round billed. */
async function runWay(task: McpTask, shape: Shape, base: ChatRequest, tools: readonly McpTool[], throughHerald: boolean, tokens: TokenCounter): Promise<WayResult> {
  const wanted = shape === 'claude-code' ? claudeCodeMcpName(SERVER, task.tool) : copilotMcpName(SERVER, task.tool);
  const counter = { calls: 0, unreachable: 0, loads: 0 };
  const upstream = new FakeUpstream((request) => answerFor(request, shape, wanted, counter));
  const upstreamUrl = await upstream.start();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-mcp-bench-'));
  const io: CliIo = { readStdin: async () => '', stdout: () => undefined, stderr: () => undefined };
  const serve = throughHerald ? await startServe(['--port', '0', '--anthropic-base-url', upstreamUrl, '--openai-base-url', `${upstreamUrl}/v1`, '--stash', folder, '--quiet', '--workers', '0'], io) : undefined;
  const url = serve ? `http://127.0.0.1:${serve.port}` : upstreamUrl;
  const headers: Record<string, string> = shape === 'claude-code' ? { 'content-type': 'application/json', 'x-api-key': 'sk-ant-bench', 'anthropic-version': '2023-06-01' } : { 'content-type': 'application/json', authorization: 'Bearer sk-bench' };
  const endpoint = shape === 'claude-code' ? '/v1/messages' : '/v1/chat/completions';
  try {
    const first = firstBody(base, tools, task, shape);
    const call = await readCall(await fetch(`${url}${endpoint}`, { method: 'POST', headers, body: JSON.stringify(first) }), shape);
    let reached = call?.name === wanted;
    if (call) await readCall(await fetch(`${url}${endpoint}`, { method: 'POST', headers, body: JSON.stringify(followUp(first, shape, call.name, call.id, call.input)) }), shape);
    reached &&= counter.unreachable === 0;
    const requests = upstream.received.flatMap((request) => (request.json ? [parseRequest(request.json, shape === 'claude-code' ? 'anthropic' : 'openai')] : []));
    const pricer = pricersFor(requests[0]!, tokens).own;
    let total = 0;
    let cost = 0;
    for (const request of requests) {
      const bill = pricer.bill(request);
      total += bill.totalTokens;
      cost += bill.cost;
    }
    return { tokens: total, cost, rounds: requests.length, reached, loads: counter.loads };
  } finally {
    await serve?.stop();
    await upstream.close();
    fs.rmSync(folder, { recursive: true, force: true });
  }
}

interface Row {
  readonly task: McpTask;
  readonly shape: Shape;
  readonly direct: WayResult;
  readonly herald: WayResult;
}

function totals(rows: readonly Row[]): string {
  const sum = (pick: (row: Row) => number): number => rows.reduce((total, row) => total + pick(row), 0);
  const tokensDirect = sum((row) => row.direct.tokens);
  const tokensHerald = sum((row) => row.herald.tokens);
  const costDirect = sum((row) => row.direct.cost);
  const costHerald = sum((row) => row.herald.cost);
  const reached = rows.filter((row) => row.herald.reached).length;
  return `tokens ${tokensDirect} → ${tokensHerald} (${percent(tokensDirect - tokensHerald, tokensDirect)} saved), cached cost ${costDirect.toFixed(0)} → ${costHerald.toFixed(0)} (${percent(costDirect - costHerald, costDirect)} saved), rounds ${sum((row) => row.direct.rounds)} → ${sum((row) => row.herald.rounds)} (${sum((row) => row.herald.loads)} catalog loads), tool reached ${reached}/${rows.length}`;
}

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'A long MCP tool list through herald serve', lines: ['skipped: ../shared/data is not here'] };
  const tokens = new TokenCounter();
  const tools = loadMcpTools();
  const base = loadClaudeCodeSession(claudeCodeShortSessionFiles()[0]!).requests[0]!.request;
  const rows: Row[] = [];
  for (const shape of ['claude-code', 'chat-completions'] as const) {
    for (const task of TASKS) {
      const direct = await runWay(task, shape, base, tools, false, tokens);
      const herald = await runWay(task, shape, base, tools, true, tokens);
      if (!direct.reached) throw new Error(`Herald MCP bench: the scripted model did not reach ${task.tool} going direct (the workload is wrong)`);
      rows.push({ task, shape, direct, herald });
    }
  }
  const lines = [
    `${tools.length} GitHub MCP tools beside Claude Code's ${base.tools.length} recorded tools (Anthropic Messages) or Copilot's ${readCopilotExport()[0]!.tools.length} (Chat Completions); ${TASKS.length} one-line requests, each needing one MCP tool; two client requests a workload (the call, then the answer after the tool's result); every provider round billed (Anthropic: breakpoints; OpenAI: longest earlier prefix)`,
    'workload | shape | tokens direct → Herald | cached cost direct → Herald | rounds | tool reached',
  ];
  for (const row of rows) {
    lines.push(`${row.task.id} (${heldOutHalf(row.task.id)}) | ${row.shape} | ${row.direct.tokens} → ${row.herald.tokens} | ${row.direct.cost.toFixed(0)} → ${row.herald.cost.toFixed(0)} | ${row.direct.rounds} → ${row.herald.rounds} | ${row.herald.reached ? 'yes' : 'NO'}`);
  }
  for (const half of ['tune', 'measure'] as const) {
    for (const shape of ['claude-code', 'chat-completions'] as const) {
      lines.push(`${half} half, ${shape}: ${totals(rows.filter((row) => row.shape === shape && heldOutHalf(row.task.id) === half))}`);
    }
  }
  lines.push(`all: ${totals(rows)}`);
  return { title: 'A long MCP tool list through herald serve', lines, figures: { rows: rows.map((row) => ({ id: row.task.id, half: heldOutHalf(row.task.id), shape: row.shape, direct: row.direct, herald: row.herald })) } };
}
