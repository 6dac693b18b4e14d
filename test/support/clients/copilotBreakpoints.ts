/**
 * Where Copilot Chat puts its cache breakpoints in an agent-mode prompt, as its own source
 * documents the rule (`addCacheBreakpoints`, at most four per request): the global context
 * message carries one from the prompt itself; then, from the end, the last tool result of each
 * tool-call round and the current user message, and above the current user message the
 * assistant replies that called no tool (the end of an earlier turn); what is left goes to the
 * system and leading user messages. So a history message gains a breakpoint and, some requests
 * later, loses it again: the client changes history bytes that carry no content.
 */
import { RAW_PART, RAW_ROLE, rawBreakpoint, type RawMessage } from './copilotRaw';

const MAX_BREAKPOINTS = 4;

function hasBreakpoint(message: RawMessage): boolean {
  return message.content.some((part) => part.type === RAW_PART.cacheBreakpoint);
}

/**
 * A copy of `messages` with Copilot's breakpoints added. `assistantsCarry` is false for models
 * behind the Responses API, whose assistant messages cannot carry one.
 */
export function withCopilotBreakpoints(messages: readonly RawMessage[], assistantsCarry = true): RawMessage[] {
  const out = messages.map((message) => ({ ...message, content: [...message.content] }));
  let left = MAX_BREAKPOINTS - out.filter(hasBreakpoint).length;
  const canCarry = (message: RawMessage): boolean =>
    (assistantsCarry || message.role !== RAW_ROLE.assistant) && message.content.some((part) => part.type === RAW_PART.text || part.type === RAW_PART.image);
  const mark = (message: RawMessage & { content: unknown[] }): void => {
    message.content.push(rawBreakpoint());
    left--;
  };
  let belowCurrentUser = true;
  for (let index = out.length - 1; index >= 0 && left > 0; index--) {
    const message = out[index]!;
    if (hasBreakpoint(message)) continue;
    const later = out[index + 1];
    const lastResultOfRound = message.role === RAW_ROLE.tool && later?.role !== RAW_ROLE.tool;
    const turnEnd = message.role === RAW_ROLE.assistant && (message.toolCalls?.length ?? 0) === 0;
    if (((belowCurrentUser && (lastResultOfRound || message.role === RAW_ROLE.user)) || turnEnd) && canCarry(message)) mark(message);
    if (message.role === RAW_ROLE.user) belowCurrentUser = false;
  }
  for (const message of out) {
    if (left <= 0 || (message.role !== RAW_ROLE.user && message.role !== RAW_ROLE.system)) break;
    if (!hasBreakpoint(message) && canCarry(message)) mark(message);
  }
  return out;
}
