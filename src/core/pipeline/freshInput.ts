import type { ChatMessage, ChatRequest } from '../chat/types';

/**
 * Index of the first message of the current turn's fresh input: everything after the last
 * assistant message. A request that ends with an assistant message (a prefill) has that
 * message as its fresh input too.
 */
export function freshStartOf(messages: readonly ChatMessage[]): number {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === 'assistant') return index === messages.length - 1 ? index : index + 1;
  }
  // No assistant yet: the whole request is the first turn's input.
  return 0;
}

/** The user's latest own words: text parts of the last user message (not tool results). */
export function latestUserText(request: ChatRequest): string {
  for (let index = request.messages.length - 1; index >= 0; index--) {
    const message = request.messages[index];
    if (message?.role !== 'user') continue;
    const text = message.parts.filter((part) => part.type === 'text').map((part) => (part.type === 'text' ? part.text : '')).join('\n').trim();
    if (text.length > 0) return text;
  }
  return '';
}
