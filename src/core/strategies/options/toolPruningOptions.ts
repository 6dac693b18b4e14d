/** The options of tool_pruning: type, default, bounds and a one-line description each. */
import { z } from 'zod';

export const TOOL_PRUNING_OPTIONS = z.object({
  minTools: z.number().int().min(0).default(3).describe('Requests with fewer tools than this are left alone.'),
  commonWordShare: z.number().min(0).max(1).default(0.5).describe('A word found in more than this share of the tools\' names and descriptions ties no tool.'),
  neverPrunePrefixes: z.array(z.string()).default(['mcp__']).describe('Name prefixes never pruned (namespaced MCP tools).'),
  keepTools: z.array(z.string()).default([]).describe('Tool names never pruned.'),
});
