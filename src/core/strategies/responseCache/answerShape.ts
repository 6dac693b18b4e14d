/**
 * What kind of answer semantic_cache holds, whatever shape the host stored it in: Herald's own
 * (`{ herald: 'answer', chunks: [{ type: 'tool_call' … }] }`), OpenAI's (`tool_calls`, Responses'
 * `function_call` items) or Anthropic's (`tool_use` blocks). An answer that calls a tool is an
 * agent step: serving it again replays an action the model decided for a state that may have
 * changed since, so the cache serves it only when the user asked for that.
 */

const TOOL_CALL_TYPES = new Set(['tool_call', 'tool_use', 'function_call', 'server_tool_use']);

/** Whether the stored answer calls a tool anywhere in it. */
export function answerCallsTool(response: unknown): boolean {
  const pending: unknown[] = [response];
  // Bounded walk: stored answers are capped by maxResponseChars, but a cycle must not hang it.
  for (let visited = 0; pending.length > 0 && visited < 100_000; visited++) {
    const value = pending.pop();
    if (Array.isArray(value)) {
      pending.push(...value);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const record = value as Record<string, unknown>;
    if (typeof record.type === 'string' && TOOL_CALL_TYPES.has(record.type)) return true;
    if (Array.isArray(record.tool_calls) && record.tool_calls.length > 0) return true;
    pending.push(...Object.values(record));
  }
  return false;
}
