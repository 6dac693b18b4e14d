/**
 * How a workload's request is laid out: bulk pasted into the user's message under their question,
 * or the fresh result of a tool the agent called. Plain OpenAI chat completions bodies.
 */
import { readCsv } from '../csv';
import * as fs from 'node:fs';
import { sharedPath } from '../sharedData';

export const MODEL = 'gpt-4o';

/** A short system prompt of the kind chat clients send. */
export const CHAT_SYSTEM = 'You are a helpful assistant for software engineers. Answer concisely and cite what you rely on.';

/** An agent's system prompt: it runs tools and reads their results. */
export const AGENT_SYSTEM = 'You are a coding agent working in the user\'s repository. Use the tools to inspect files and run commands, then answer the user.';

export function readShared(...parts: string[]): string {
  return fs.readFileSync(sharedPath(...parts), 'utf8');
}

/** The user's question with the bulk pasted under it, as people paste: no fence, a blank line between. */
export function pastedUnder(question: string, bulk: string, system = CHAT_SYSTEM): { model: string; messages: unknown[] } {
  return { model: MODEL, messages: [{ role: 'system', content: system }, { role: 'user', content: `${question}\n\n${bulk}` }] };
}

/** The question, then the bulk in a fenced block (how a chat client inserts a pasted file). */
export function fencedUnder(question: string, bulk: string, language = '', system = CHAT_SYSTEM): { model: string; messages: unknown[] } {
  return { model: MODEL, messages: [{ role: 'system', content: system }, { role: 'user', content: `${question}\n\n\`\`\`${language}\n${bulk}\n\`\`\`` }] };
}

/** The user's question, the agent's tool call, and the tool's fresh result: the turn the model answers next. */
export function freshToolResult(question: string, tool: { name: string; arguments: Record<string, unknown> }, output: string): { model: string; messages: unknown[]; tools: unknown[] } {
  return {
    model: MODEL,
    messages: [
      { role: 'system', content: AGENT_SYSTEM },
      { role: 'user', content: question },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.arguments) } }] },
      { role: 'tool', tool_call_id: 'call_1', content: output },
    ],
    tools: [TOOL_DEFINITIONS[tool.name] ?? genericTool(tool.name)],
  };
}

const TOOL_DEFINITIONS: Record<string, unknown> = {
  run_in_terminal: {
    type: 'function',
    function: { name: 'run_in_terminal', description: 'Run a shell command in a terminal and return its output.', parameters: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } },
  },
  fetch_webpage: {
    type: 'function',
    function: { name: 'fetch_webpage', description: 'Fetch a web page and return its content.', parameters: { type: 'object', properties: { url: { type: 'string' } }, required: ['url'] } },
  },
};

function genericTool(name: string): unknown {
  return { type: 'function', function: { name, description: `The ${name} tool.`, parameters: { type: 'object', properties: {} } } };
}

/** Rows of a loghub `*_structured.csv` as records keyed by its header. */
export function structuredLog(system: string): Record<string, string>[] {
  const [names, ...rows] = readCsv(readShared('logs', system, `${system}_2k.log_structured.csv`)).filter((row) => row.length > 1 || row[0] !== '');
  return rows.map((values) => Object.fromEntries(names!.map((name, index) => [name, values[index] ?? ''])));
}

/** The longest constant piece of a loghub template (the text between its `<*>` slots). */
export function templateConstant(template: string): string {
  return template.split('<*>').map((piece) => piece.trim()).sort((a, b) => b.length - a.length || (a < b ? -1 : 1))[0] ?? template;
}

/** Values ranked by how often they occur, most frequent first (ties by value). */
export function topCounts(values: readonly string[], count: number): string[] {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([value]) => value);
}
