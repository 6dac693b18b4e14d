/**
 * `herald_load_tools`: the tool catalog's loader, answered inside the turn. The tool_catalog
 * strategy puts it in the request (its description is the catalog); the flow never offers it
 * itself. A call names catalogued tools; Herald records them as loaded for the session (they
 * keep their full schema from now on, so the next request carries the same tools block), asks
 * the pipeline for the tools block it now gives the request, and sends the next round with it.
 * The caller never sees the call. A catalogued tool the model calls directly is the caller's
 * own tool and goes to the caller like any other.
 */
import type { ChatRequest, ToolDefinition } from '../chat/types';
import { CATALOG_TOOL_NAME, requestedNames } from '../strategies/catalog/catalogTool';
import { namespaceOwners } from '../strategies/catalog/namespaceTools';
import type { OwnTool, OwnToolAnswer } from './ownTool';

export { CATALOG_TOOL_NAME };

export const loadToolsTool: OwnTool = {
  name: CATALOG_TOOL_NAME,
  // Only the strategy offers it (its description is the catalog it decided).
  offer: () => undefined,
  answer: async (input, context): Promise<OwnToolAnswer> => {
    const callerTools = new Map(context.original.tools.map((tool) => [tool.name, tool]));
    // A function of a namespace tool loads the namespace it belongs to.
    const owners = namespaceOwners(context.original.tools);
    const names = [...new Set(requestedNames(input).map((name) => (callerTools.has(name) ? name : (owners.get(name) ?? name))))];
    const offered = new Set(context.request.tools.map((tool) => tool.name));
    const unknown = names.filter((name) => !callerTools.has(name));
    const already = names.filter((name) => callerTools.has(name) && offered.has(name));
    const wanted = names.filter((name) => callerTools.has(name) && !offered.has(name));
    if (names.length === 0) {
      return { text: `Herald: ${CATALOG_TOOL_NAME} needs {"names": ["tool_name", …]} with names from its list.`, isError: true };
    }
    if (wanted.length === 0) {
      return { text: describe([], already, unknown), isError: already.length === 0 };
    }
    context.loadTools?.(wanted);
    const block = (await context.currentTools?.()) ?? undefined;
    const revise = (request: ChatRequest): ChatRequest => ({ ...request, tools: toolsWith(request, block, wanted, callerTools, context.original) });
    return { text: describe(wanted, already, unknown), revise };
  },
};

/**
 * The next round's tools: the pipeline's block now (it lists the loaded tools in full and no
 * longer in the catalog) and the own tools the flow added to this request; without a block,
 * the loaded tools' definitions as the caller sent them, added to the current ones.
 */
function toolsWith(request: ChatRequest, block: readonly ToolDefinition[] | undefined, wanted: readonly string[], callerTools: ReadonlyMap<string, ToolDefinition>, original: ChatRequest): ToolDefinition[] {
  const usable = block && wanted.every((name) => block.some((tool) => tool.name === name));
  if (!usable) return [...request.tools, ...wanted.map((name) => callerTools.get(name)!)];
  const inBlock = new Set(block.map((tool) => tool.name));
  const callers = new Set(original.tools.map((tool) => tool.name));
  // herald_retrieve and any other tool the flow offered this turn stay offered.
  const added = request.tools.filter((tool) => !inBlock.has(tool.name) && !callers.has(tool.name) && tool.name !== CATALOG_TOOL_NAME);
  return [...block, ...added];
}

function describe(loaded: readonly string[], already: readonly string[], unknown: readonly string[]): string {
  const lines: string[] = [];
  if (loaded.length > 0) lines.push(`Loaded ${loaded.join(', ')}: their full definitions are now among your tools; call them as usual.`);
  if (already.length > 0) lines.push(`Already available with their full definitions: ${already.join(', ')}.`);
  if (unknown.length > 0) lines.push(`Herald: no tool is named ${unknown.join(', ')}; use the exact names the ${CATALOG_TOOL_NAME} list shows.`);
  return lines.join('\n');
}
