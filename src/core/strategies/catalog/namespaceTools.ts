/**
 * Namespace tools: a Responses API entry that groups functions under one name (Codex's
 * `multi_agent_v1` holds `spawn_agent`, `send_input`, `wait_agent`, …). Herald keeps such an
 * entry byte for byte as the client sent it (`extra.$raw`, under its own name); the catalog
 * lists it on one line with its functions' names, a load by its name or by one of its functions'
 * names brings the whole entry back, and a call of one of its functions counts as a call of it.
 */
import type { ToolDefinition } from '../../chat/types';

interface NamespaceEntry {
  readonly type: 'namespace';
  readonly name: string;
  readonly description?: unknown;
  readonly tools?: unknown;
}

function namespaceEntry(tool: ToolDefinition): NamespaceEntry | undefined {
  const raw = tool.extra?.$raw;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return undefined;
  const entry = raw as Record<string, unknown>;
  return entry.type === 'namespace' && typeof entry.name === 'string' && entry.name === tool.name ? (entry as unknown as NamespaceEntry) : undefined;
}

/** True for a namespace entry kept under its name (see the module comment). */
export function isNamespaceTool(tool: ToolDefinition): boolean {
  return namespaceEntry(tool) !== undefined;
}

/** The names of the functions a namespace tool groups; empty for any other tool. */
export function namespaceFunctions(tool: ToolDefinition): string[] {
  const tools = namespaceEntry(tool)?.tools;
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((inner: unknown) => (typeof inner === 'object' && inner !== null && typeof (inner as { name?: unknown }).name === 'string' ? [(inner as { name: string }).name] : []));
}

/** The tool's own description: a namespace entry's from its raw form. */
export function toolDescription(tool: ToolDefinition): string {
  if (tool.description !== undefined) return tool.description;
  const description = namespaceEntry(tool)?.description;
  return typeof description === 'string' ? description : '';
}

/** Each function of a namespace tool in `tools`, mapped to the namespace's name. */
export function namespaceOwners(tools: readonly ToolDefinition[]): Map<string, string> {
  const owners = new Map<string, string>();
  for (const tool of tools) for (const name of namespaceFunctions(tool)) if (!owners.has(name)) owners.set(name, tool.name);
  return owners;
}
