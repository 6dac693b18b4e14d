import { contentKey } from '../chat/cacheHints';
import type { ChatRequest } from '../chat/types';

/**
 * Why a strategy's output cannot be used, or undefined when it can: the message count,
 * roles, part counts and tool-call ids must match the input, and protected messages must be
 * unchanged but for their cache hints (hints are not content: cache_optimizer moves its own
 * breakpoint off decided history). A strategy may rewrite parts, never drop, add or reorder them.
 */
export function invalidResult(
  before: ChatRequest,
  after: ChatRequest,
  protectedIndex: (index: number) => boolean,
): string | undefined {
  if (!after || !Array.isArray(after.messages) || !Array.isArray(after.tools)) return 'returned something that is not a request';
  if (after.messages.length !== before.messages.length) return `changed the message count from ${before.messages.length} to ${after.messages.length}`;
  for (let index = 0; index < before.messages.length; index++) {
    const a = before.messages[index]!;
    const b = after.messages[index]!;
    if (a === b) continue;
    if (protectedIndex(index) && JSON.stringify(a) !== JSON.stringify(b) && contentKey(a) !== contentKey(b)) return `changed message ${index}, which is protected (decided earlier or fresh input)`;
    if (a.role !== b.role) return `changed the role of message ${index}`;
    if (!Array.isArray(b.parts) || a.parts.length !== b.parts.length) return `changed the number of parts of message ${index}`;
    for (let partIndex = 0; partIndex < a.parts.length; partIndex++) {
      const pa = a.parts[partIndex]!;
      const pb = b.parts[partIndex]!;
      if (pa === pb) continue;
      if (pa.type === 'tool_call' && (pb.type !== 'tool_call' || pb.id !== pa.id)) return `changed tool call ${index}.${partIndex}`;
      if (pa.type === 'tool_result' && (pb.type !== 'tool_result' || pb.callId !== pa.callId)) return `changed tool result ${index}.${partIndex}`;
      if (pa.type === 'opaque' && JSON.stringify(pa) !== JSON.stringify(pb)) return `changed opaque part ${index}.${partIndex}`;
      if (pa.type === 'text' && pb.type !== 'text') return `changed the type of part ${index}.${partIndex}`;
    }
  }
  return undefined;
}
