/** The options of code_graph: type, default, bounds and a one-line description each;
 * the object's own description is the strategy's summary (its `enabled` setting, the README's table). */
import { z } from 'zod';

export const CODE_GRAPH_OPTIONS = z.object({
  calleeDepth: z.number().int().min(0).default(1).describe('Call steps followed from each targeted definition (0: keep only what is mentioned).'),
  maxDefinitionsPerCallee: z.number().int().min(0).default(3).describe('A called name defined in more places than this is too ambiguous to follow.'),
  keepConstructors: z.boolean().default(true).describe('Keep the constructor of each class whose method is kept (the fields it sets are context).'),
  maxDefinitionsPerUsage: z.number().int().min(0).default(3).describe('A code-shaped name the latest turn mentions (`change_map`, `PGPASSFILE`) keeps the definitions whose code uses it, when at most this many do (0: only definitions named so).'),
  taskMentions: z.boolean().default(true).describe('Also take targets from the task (the first user message), not only the latest turn.'),
  conversationMentions: z.boolean().default(false).describe('Also take targets from every earlier assistant message (what the agent has discussed so far), not only the latest one.'),
  minLines: z.number().int().min(0).default(40).describe('A source read shorter than this many lines passes through: it is already focused.'),
  minBodyLines: z.number().int().min(0).default(5).describe('Bodies shorter than this many lines stay: the marker would save too little.'),
  maxErrorShare: z.number().min(0).max(1).default(0.2).describe('A source with a larger share of its lines in parse errors passes through untouched.'),
}).describe('Tree-sitter outlines of source reads: the functions the turn is about and their callees in full, other bodies elided.');
