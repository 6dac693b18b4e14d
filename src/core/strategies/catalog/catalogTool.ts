/**
 * The catalog Herald offers in place of tool schemas the conversation does not use: one tool,
 * `herald_load_tools`, whose description lists every catalogued tool on one line (its name, its
 * parameters, the first sentence of its description), grouped by MCP server, and whose call
 * loads the full schemas of the tools it names. The host's request flow answers that call
 * inside the turn; the caller never sees it.
 *
 * The text is a function of the catalogued tools alone (in the request's order), so a session
 * that keeps its selection keeps its tools block byte for byte.
 */
import type { ToolDefinition, WireFormat } from '../../chat/types';
import { compressDescription } from '../toolDescriptions/descriptionText';
import type { McpToolName } from './mcpNames';
import { namespaceFunctions, toolDescription } from './namespaceTools';

export const CATALOG_TOOL_NAME = 'herald_load_tools';

/** Most parameters a catalog line names before it says how many more there are. */
const LINE_PARAMETERS = 6;

const PREAMBLE =
  'Loads the full definitions of more tools. Each tool listed below is available to you, shown here only by its name, ' +
  'its parameters (? marks an optional one) and its purpose. To use one, call ' +
  CATALOG_TOOL_NAME +
  ' with the names of every listed tool you expect to need, then call them as usual. You may also call a listed tool directly when you know its parameters.';

/** One catalogued tool as its line shows it. */
export interface CatalogEntry {
  readonly tool: ToolDefinition;
  /** Set for MCP and other server-prefixed tools: their server heads a group of lines. */
  readonly mcp?: McpToolName;
}

/** The catalog tool for `entries`, shaped for the request's wire format. */
export function catalogTool(entries: readonly CatalogEntry[], format: WireFormat, maxLineChars: number): ToolDefinition {
  const lines: string[] = [PREAMBLE, ''];
  const servers = new Map<string, CatalogEntry[]>();
  for (const entry of entries) {
    if (!entry.mcp) continue;
    servers.set(entry.mcp.server, [...(servers.get(entry.mcp.server) ?? []), entry]);
  }
  for (const entry of entries) if (!entry.mcp) lines.push(catalogLine(entry.tool, maxLineChars));
  for (const [server, members] of servers) {
    // Neutral wording: a server-prefixed group may be an extension's tool set rather than an MCP server.
    lines.push(`Tools of ${server}:`);
    for (const entry of members) lines.push(catalogLine(entry.tool, maxLineChars));
  }
  return {
    name: CATALOG_TOOL_NAME,
    description: lines.join('\n'),
    inputSchema: {
      type: 'object',
      properties: { names: { type: 'array', items: { type: 'string' }, description: 'Exact names of tools from the list.' } },
      required: ['names'],
    },
    // OpenAI tools carry their kind beside the function; the other formats have no such field.
    ...(format === 'openai' ? { extra: { type: 'function' } } : {}),
  };
}

/** `- name(required, optional?): First sentence of the description.` (a namespace: `- name[function, …]: …`), cut to `maxLineChars`. */
export function catalogLine(tool: ToolDefinition, maxLineChars: number): string {
  // A namespace shows the functions it groups where a function shows its parameters.
  const functions = namespaceFunctions(tool);
  const head = functions.length > 0 ? `- ${tool.name}[${functions.join(', ')}]` : `- ${tool.name}(${parameterList(tool.inputSchema)})`;
  const sentence = firstSentence(compressDescription(toolDescription(tool)));
  const purpose = sentence.charAt(0).toUpperCase() + sentence.slice(1);
  const line = purpose ? `${head}: ${purpose}` : head;
  return line.length <= maxLineChars ? line : `${line.slice(0, Math.max(head.length, maxLineChars - 1)).trimEnd()}…`;
}

function parameterList(schema: unknown): string {
  if (typeof schema !== 'object' || schema === null) return '';
  const { properties, required } = schema as { properties?: unknown; required?: unknown };
  if (typeof properties !== 'object' || properties === null) return '';
  const needed = new Set(Array.isArray(required) ? required.filter((name): name is string => typeof name === 'string') : []);
  const names = Object.keys(properties);
  // Required parameters first: they are what a direct call cannot do without.
  const ordered = [...names.filter((name) => needed.has(name)), ...names.filter((name) => !needed.has(name))];
  const shown = ordered.slice(0, LINE_PARAMETERS).map((name) => (needed.has(name) ? name : `${name}?`));
  if (ordered.length > LINE_PARAMETERS) shown.push(`+${ordered.length - LINE_PARAMETERS} more`);
  return shown.join(', ');
}

/** The description's first sentence on one line (a sentence ends at `. `, `.\n` or a blank line). */
function firstSentence(description: string): string {
  const flat = description.trim().split(/\n\s*\n/)[0]!.replace(/\s+/g, ' ');
  const end = /[.!?](?=\s|$)/.exec(flat);
  return (end ? flat.slice(0, end.index + 1) : flat).trim();
}

/**
 * The tool names a `herald_load_tools` call asks for: its `names` list (a single `name` string
 * or a comma-separated string are read too, since models vary), trimmed, deduplicated, in order.
 */
export function requestedNames(input: unknown): string[] {
  const value = typeof input === 'string' ? safeParse(input) : input;
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const raw = record.names ?? record.name ?? record.tools;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [];
  const names: string[] = [];
  for (const item of list) if (typeof item === 'string' && item.trim().length > 0 && !names.includes(item.trim())) names.push(item.trim());
  return names;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
