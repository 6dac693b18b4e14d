/** What hardening tests compare to prove no part was dropped, added or reordered. */
import type { ChatRequest } from '../../../src/core/chat';

/**
 * One line per message: its role and its parts' types, with tool call and result ids. A data
 * part may become text (an image read by OCR); any other change of count, order or id shows.
 */
export function partShape(request: ChatRequest): string[] {
  return request.messages.map((message) => `${message.role}:${message.parts.map((part) => (part.type === 'tool_call' ? `call(${part.id})` : part.type === 'tool_result' ? `result(${part.callId})` : part.type === 'data' ? 'text' : part.type)).join(',')}`);
}
