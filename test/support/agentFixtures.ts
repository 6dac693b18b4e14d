/**
 * Test fixtures for the tools, cache and provider strategies (imported by tests only): a
 * coding agent's tool list in both wire formats, and real mini-swe-agent trajectories
 * rewritten as tool-calling conversations (each bash block a tool call, each observation its
 * result), turn by turn, in OpenAI or Anthropic format.
 */
import type { Trajectory } from './sharedData';
import { Pipeline, type PipelineConfig } from '../../src/core/pipeline';
import type { Strategy } from '../../src/core/pipeline/types';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { TokenCounter } from '../../src/core/tokens';

export interface NeutralTool {
  readonly name: string;
  readonly description: string;
  readonly parameters: Record<string, unknown>;
}

const pathParameter = { type: 'object', properties: { path: { type: 'string', description: 'The absolute path of the file.' } }, required: ['path'] };

/** A coding agent's tools, in the style of an editor's agent mode plus a few plug-ins. */
export const AGENT_TOOLS: readonly NeutralTool[] = [
  { name: 'read_file', description: 'This tool allows you to read the contents of a file. Use it to inspect source code before editing.', parameters: pathParameter },
  { name: 'replace_string_in_file', description: 'Edit a file by replacing one exact string with another.   Please be sure to include enough context to make the match unique.', parameters: { type: 'object', properties: { path: { type: 'string' }, old_string: { type: 'string', description: 'The   exact text to replace.' }, new_string: { type: 'string' } }, required: ['path', 'old_string', 'new_string'] } },
  { name: 'run_in_terminal', description: 'This tool allows you to run a shell command in a bash terminal and read its output.', parameters: { type: 'object', properties: { command: { type: 'string', description: 'The command to run.' }, mode: { type: 'string', enum: ['sync', 'async'] } }, required: ['command'] } },
  { name: 'grep_search', description: 'Search the workspace with a regular expression and return matching lines.', parameters: { type: 'object', properties: { query: { type: 'string' }, isRegexp: { type: 'boolean' } }, required: ['query'] } },
  { name: 'run_tests', description: 'Run the unit tests of the project and report failures.', parameters: { type: 'object', properties: { files: { type: 'array', items: { type: 'string' } } } } },
  { name: 'jira_search_issues', description: 'Search issues in a Jira project by JQL.', parameters: { type: 'object', properties: { jql: { type: 'string' } }, required: ['jql'] } },
  { name: 'slack_post_message', description: 'Post a message to a Slack channel.', parameters: { type: 'object', properties: { channel: { type: 'string' }, text: { type: 'string' } }, required: ['channel', 'text'] } },
  { name: 'datadog_query_metric', description: 'Query a Datadog metric over a time range.', parameters: { type: 'object', properties: { metric: { type: 'string' }, from: { type: 'integer' }, to: { type: 'integer' } }, required: ['metric'] } },
  { name: 'figma_export_frame', description: 'Export a frame of a Figma design as an image.', parameters: { type: 'object', properties: { fileKey: { type: 'string' }, frame: { type: 'string' } }, required: ['fileKey', 'frame'] } },
  { name: 'mcp__calendar__create_event', description: 'Create a calendar event.', parameters: { type: 'object', properties: { title: { type: 'string' }, start: { type: 'string', format: 'date-time' } }, required: ['title', 'start'] } },
];

export function openAITools(tools: readonly NeutralTool[] = AGENT_TOOLS): unknown[] {
  return tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
}

export function anthropicTools(tools: readonly NeutralTool[] = AGENT_TOOLS): unknown[] {
  return tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
}

const BASH_BLOCK = /```(?:bash|sh)?\n([\s\S]*?)\n```/;
const RETURN_CODE = /<returncode>\s*(-?\d+)\s*<\/returncode>/;

/**
 * Every request a tool-calling agent would have sent for this trajectory: the conversation up
 * to each assistant message, with the agent's bash blocks as `run_in_terminal` calls.
 */
export function toolCallingTurns(trajectory: Trajectory, format: 'openai' | 'anthropic', options: { tools?: unknown[]; model?: string; extra?: Record<string, unknown>; maxTurns?: number } = {}): Record<string, unknown>[] {
  const source = trajectory.messages;
  const system = source[0]!.content;
  const wire: unknown[] = [];
  const bodies: Record<string, unknown>[] = [];
  let pendingCall: string | undefined;
  const tools = options.tools ?? (format === 'anthropic' ? anthropicTools() : openAITools());
  const model = options.model ?? (format === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o');
  source.slice(1).forEach((message, offset) => {
    const index = offset + 1;
    if (message.role === 'assistant') {
      const body = format === 'anthropic' ? { model, system, messages: [...wire], tools, max_tokens: 8192, ...options.extra } : { model, messages: [{ role: 'system', content: system }, ...wire], tools, ...options.extra };
      if (options.maxTurns === undefined || bodies.length < options.maxTurns) bodies.push(structuredClone(body));
      const command = BASH_BLOCK.exec(message.content)?.[1];
      const thought = command === undefined ? message.content : message.content.replace(BASH_BLOCK, '').trim();
      pendingCall = command === undefined ? undefined : `call_${index}`;
      if (format === 'anthropic') {
        const content: unknown[] = [{ type: 'text', text: thought || '.' }];
        if (pendingCall) content.push({ type: 'tool_use', id: `toolu_${index}`, name: 'run_in_terminal', input: { command } });
        wire.push({ role: 'assistant', content });
      } else {
        wire.push({ role: 'assistant', content: thought, ...(pendingCall ? { tool_calls: [{ id: pendingCall, type: 'function', function: { name: 'run_in_terminal', arguments: JSON.stringify({ command }) } }] } : {}) });
      }
    } else if (message.role === 'user' && pendingCall) {
      const exit = Number(RETURN_CODE.exec(message.content)?.[1] ?? 0);
      const output = message.content.replace(RETURN_CODE, '').trim();
      if (format === 'anthropic') wire.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: pendingCall.replace('call_', 'toolu_'), content: output, ...(exit !== 0 ? { is_error: true } : {}) }] });
      else wire.push({ role: 'tool', tool_call_id: pendingCall, content: output });
      pendingCall = undefined;
    } else {
      wire.push({ role: message.role, content: message.content });
    }
  });
  return bodies;
}

/** A pipeline of the given strategies (all enabled) over a fresh in-memory stash. */
export function pipelineOf(strategies: readonly Strategy[], options: PipelineConfig['options'] = {}): { pipeline: Pipeline; stash: Stash; tokens: TokenCounter } {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const tokens = new TokenCounter();
  const enabled = Object.fromEntries(strategies.map((strategy) => [strategy.id, true]));
  return { pipeline: new Pipeline(strategies, { enabled, options }, { stash, tokens }), stash, tokens };
}
