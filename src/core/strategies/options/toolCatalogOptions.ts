/** The options of tool_catalog: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const TOOL_CATALOG_OPTIONS = z.object({
  minSavedTokens: z.number().int().min(0).default(1000).describe('The least the catalog must save on every request, in tokens; a smaller saving leaves the tools whole (one load would cost more).'),
  minToolSavedTokens: z.number().int().min(0).default(40).describe('A tool whose schema saves fewer tokens than this when catalogued keeps it.'),
  tieWordMaxTools: z.number().int().min(0).default(2).describe('A word of the conversation ties a tool to it only when at most this many tools\' names and descriptions use it.'),
  endpoints: z.boolean().default(true).describe('Offer the catalog to endpoint and gateway targets (billed by the token).'),
  copilotHostedWindowShare: z.number().min(0).default(0.25).describe('For Copilot-hosted targets (every extra round a premium request), the least share of the input window the full tools block must fill before the catalog is offered; 0 always, above 1 never.'),
  keepWorkspaceTools: z.boolean().default(true).describe('Keep the client\'s workspace tools whole (names only of file and command words: read_file, list_dir, apply_patch, run_in_terminal, Bash, Grep).'),
  keepTools: z.array(z.string()).default([]).describe('Tool names that always keep their full schema.'),
  keepPrefixes: z.array(z.string()).default([]).describe('Name prefixes whose tools always keep their full schema.'),
  maxLineChars: z.number().int().min(1).default(120).describe('Longest catalog line, in characters.'),
  sectionMinChars: z.number().int().min(0).default(1000).describe('A top-level (`# `) section of a kept tool\'s description at least this long, whose heading names a subject the conversation has not raised (Claude Code\'s Bash: git commits, pull requests), is stashed behind one marker line for the session; 0 keeps every section.'),
}).describe('Tools the conversation uses, forces, names or is about, and the client\'s workspace tools, keep their schema; the rest are listed one line each in a `herald_load_tools` catalog Herald answers inside the turn (no tool is ever unreachable; MCP tools under every naming; a Responses namespace tool, Codex\'s `multi_agent_v1`, as one entry loaded whole by its name or a function\'s); sections of a kept tool\'s description on subjects the conversation has not raised (`# ` headings: Claude Code\'s git and pull-request procedures) are stashed behind one retrievable marker; decided once per session, the full set only grows; on for endpoint and gateway targets, for Copilot-hosted ones only when the tools fill a quarter of the window (each extra round there is a premium request). Replaces `tool_pruning`, whose settings it reads.');
