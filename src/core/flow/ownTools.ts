/** The registry of Herald's own in-turn tools, in the order they are offered. Add a tool with one entry. */
import type { OwnTool } from './ownTool';
import { loadToolsTool } from './loadToolsTool';
import { retrieveTool } from './retrieveTool';

export const OWN_TOOLS: readonly OwnTool[] = [retrieveTool, loadToolsTool];
