/**
 * The real MCP tool list in `clients/mcp-tools/github-mcp-server/` (one `.snap` file per tool:
 * name, description, input schema, annotations), and the names clients give MCP tools.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedPath } from '../sharedData';
import type { RawTool } from './copilotRaw';

/** One MCP tool as its server describes it. */
export interface McpTool {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: object;
  readonly annotations?: Readonly<Record<string, unknown>>;
}

export const GITHUB_MCP_FOLDER = sharedPath('clients', 'mcp-tools', 'github-mcp-server');

/** Every tool of the GitHub MCP server, sorted by name. */
export function loadMcpTools(folder = GITHUB_MCP_FOLDER): McpTool[] {
  return fs.readdirSync(folder).filter((name) => name.endsWith('.snap')).sort().map((name) => {
    const tool = JSON.parse(fs.readFileSync(path.join(folder, name), 'utf8')) as Partial<McpTool>;
    if (typeof tool.name !== 'string' || typeof tool.inputSchema !== 'object') throw new Error(`Herald: ${name} is not an MCP tool definition (no name or input schema)`);
    return { name: tool.name, description: tool.description ?? '', inputSchema: tool.inputSchema, ...(tool.annotations ? { annotations: tool.annotations } : {}) };
  });
}

/** Copilot's name for a server's tool: `mcp_<server>_<tool>` (its Pylance tools read `mcp_pylance_mcp_s_…`). */
export function copilotMcpName(server: string, tool: string): string {
  return `mcp_${server}_${tool}`;
}

/** Claude Code's name for a server's tool: `mcp__<server>__<tool>`. */
export function claudeCodeMcpName(server: string, tool: string): string {
  return `mcp__${server}__${tool}`;
}

/** MCP tools in a Copilot request's tool list, under Copilot's naming. */
export function asCopilotTools(server: string, tools: readonly McpTool[]): RawTool[] {
  return tools.map((tool) => ({ type: 'function', function: { name: copilotMcpName(server, tool.name), description: tool.description, parameters: tool.inputSchema } }));
}
