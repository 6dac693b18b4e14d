/**
 * The user's own latest words, to steer question-aware cleaning (JSON rows that match the
 * question are kept): the last user text that is not tool output pasted by an agent.
 */
import { findToolOutputs } from '../../chat/toolOutput';
import type { ChatRequest } from '../../chat/types';

/** Question words beyond this many characters add nothing but matching noise. */
const MAX_QUESTION_CHARS = 2_000;

export function userQuestion(request: ChatRequest): string | undefined {
  const pasted = new Map<string, { start: number; end: number }[]>();
  for (const segment of findToolOutputs(request)) {
    if (segment.source !== 'pasted') continue;
    const key = `${segment.messageIndex}.${segment.partIndex}`;
    pasted.set(key, [...(pasted.get(key) ?? []), segment]);
  }
  for (let messageIndex = request.messages.length - 1; messageIndex >= 0; messageIndex--) {
    const message = request.messages[messageIndex]!;
    if (message.role !== 'user') continue;
    const words = message.parts
      .map((part, partIndex) => {
        if (part.type !== 'text') return '';
        let text = part.text;
        const spans = [...(pasted.get(`${messageIndex}.${partIndex}`) ?? [])].sort((a, b) => b.start - a.start);
        for (const span of spans) text = text.slice(0, span.start) + text.slice(span.end);
        // What is left of an agent's observation is its wrapper tags, not words of a question.
        return text.replace(/<\/?[a-z_]+>/g, ' ');
      })
      .join('\n')
      .trim();
    if (words.length > 0 && /[A-Za-z]{3,}/.test(words)) return words.slice(0, MAX_QUESTION_CHARS);
  }
  return undefined;
}
