/**
 * Markers that promise nothing the model cannot do. A marker says `retrieve hr_…`; when the
 * request goes to a model that has no retrieve tool (Herald's flow answers no own tool: rounds
 * set to 0, a target without tool calls; and the caller brought no `herald_retrieve` of its
 * own), the request carries the markers without that promise. Applied the same way to every
 * request of such a session, so the cached prefix stays byte-stable.
 */
import type { ChatMessage, ChatRequest, Part, ResultContentPart } from '../chat/types';
import { withoutRetrievePromise } from '../stash/marker';

/** The request with every marker's retrieve promise taken out; the same object when none had one. */
export function requestWithoutRetrievePromise(request: ChatRequest): ChatRequest {
  let changed = false;
  const messages = request.messages.map((message): ChatMessage => {
    const parts = message.parts.map(partWithout);
    if (parts.every((part, index) => part === message.parts[index])) return message;
    changed = true;
    return { ...message, parts };
  });
  return changed ? { ...request, messages } : request;
}

function partWithout(part: Part): Part {
  switch (part.type) {
    case 'text':
      return textWithout(part);
    case 'tool_result': {
      const content = part.content.map((inner): ResultContentPart => (inner.type === 'text' ? textWithout(inner) : inner));
      return content.every((inner, index) => inner === part.content[index]) ? part : { ...part, content };
    }
    case 'tool_call': {
      // edit_mask elides inside a call's string arguments: the same promise is taken out there.
      if (typeof part.arguments === 'string') {
        const text = withoutRetrievePromise(part.arguments);
        return text === part.arguments ? part : { ...part, arguments: text };
      }
      const json = JSON.stringify(part.arguments ?? null);
      const text = withoutRetrievePromise(json);
      return text === json ? part : { ...part, arguments: JSON.parse(text) as typeof part.arguments };
    }
    default:
      return part;
  }
}

function textWithout<T extends { readonly type: 'text'; readonly text: string }>(part: T): T {
  const text = withoutRetrievePromise(part.text);
  return text === part.text ? part : { ...part, text };
}
