/** The conversation and the eliding strategy the request-flow tests share. */
import type { ChatRequest } from '../../../src/core/chat/types';
import { partText } from '../../../src/core/chat/types';
import type { Strategy } from '../../../src/core/pipeline/types';

export const BULK = Array.from({ length: 200 }, (_, index) => `line ${index}: build output`).join('\n');

export function conversation(): ChatRequest {
  return {
    format: 'vscode',
    messages: [
      { role: 'user', parts: [{ type: 'text', text: 'Build it' }], contentShape: 'parts' },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'run', arguments: { command: 'make' } }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: BULK }], contentShape: 'parts' }], contentShape: 'parts' },
      { role: 'assistant', parts: [{ type: 'text', text: 'It built.' }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'text', text: 'Which line mentions 42?' }], contentShape: 'parts' },
    ],
    tools: [{ name: 'run', description: 'Runs a command', inputSchema: { type: 'object' } }],
    options: {},
  };
}

/** A strategy that elides the history tool output behind a marker, as the real ones do. */
export function elidingStrategy(): Strategy {
  return {
    id: 'test_elide',
    defaultEnabled: true,
    apply(request, context) {
      const messages = request.messages.map((message, index) => {
        if (index >= context.freshStart || index < context.frozenCount) return message;
        return {
          ...message,
          parts: message.parts.map((part) => {
            if (part.type !== 'tool_result') return part;
            const elision = context.stash.elide({ original: partText(part), summary: '200 lines elided', kind: 'test_elide' });
            return { ...part, content: [{ type: 'text' as const, text: elision.replacement }] };
          }),
        };
      });
      return { request: { ...request, messages }, action: 'output-elided', reason: 'test', handles: [context.stash.handleFor(BULK)] };
    },
  };
}
