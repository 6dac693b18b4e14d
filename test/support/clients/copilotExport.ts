/**
 * Copilot Chat's chat-replay export (`clients/copilot/spec.chatreplay.json`): every request
 * Copilot sent in an agent-mode session, as it sent it (system prompt, user context, tool calls
 * and results in prompt-tsx raw form, the tools with their schemas), read as the request
 * sequence Herald's VS Code provider receives.
 *
 * The export groups its log entries under the prompt the user typed; a request's reply is what
 * the model answered, and the tool calls it made are the `toolCall` entries between that
 * request and the next one (Copilot ran them before sending the next request). Nothing is
 * reconstructed: every request is the export's own.
 */
import * as fs from 'node:fs';
import type { ChatMessage } from '../../../src/core/chat/types';
import { sharedPath } from '../sharedData';
import { copilotRequest, languageModelRoundTrip, type RawMessage, type RawTool } from './copilotRaw';
import type { ClientRequest, ClientSession } from './types';

/** The export as this file reads it (fields it does not use are left out). */
interface ChatReplayExport {
  readonly prompts: readonly {
    readonly prompt: string;
    readonly logs: readonly ChatReplayLog[];
  }[];
}

type ChatReplayLog =
  | {
    readonly kind: 'request';
    readonly id: string;
    readonly metadata: {
      readonly model: string;
      readonly tools?: readonly RawTool[];
      readonly usage?: { readonly prompt_tokens?: number; readonly completion_tokens?: number; readonly prompt_tokens_details?: { readonly cached_tokens?: number } };
    };
    readonly requestMessages: { readonly messages: readonly RawMessage[] };
    readonly response?: { readonly type: string; readonly message?: readonly string[] | string };
  }
  | { readonly kind: 'toolCall'; readonly id: string; readonly tool: string; readonly args: string }
  | { readonly kind: 'element' | string; readonly id: string };

export const COPILOT_EXPORT_FILE = sharedPath('clients', 'copilot', 'spec.chatreplay.json');

/** The raw requests of the export, in the order Copilot sent them, each with the tool calls its reply made. */
export function readCopilotExport(file = COPILOT_EXPORT_FILE): { messages: readonly RawMessage[]; tools: readonly RawTool[]; model: string; calledTools: string[]; replyText: string; usage?: ClientRequest['usage'] }[] {
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as ChatReplayExport;
  if (!Array.isArray(data.prompts)) throw new Error(`Herald: ${file} is not a Copilot chat-replay export (no "prompts" array)`);
  const requests: ReturnType<typeof readCopilotExport> = [];
  for (const prompt of data.prompts) {
    for (const log of prompt.logs) {
      if (log.kind === 'request' && 'requestMessages' in log) {
        const usage = log.metadata.usage;
        const cached = usage?.prompt_tokens_details?.cached_tokens ?? 0;
        const message = log.response?.message;
        requests.push({
          messages: log.requestMessages.messages,
          tools: log.metadata.tools ?? [],
          model: log.metadata.model,
          calledTools: [],
          replyText: Array.isArray(message) ? message.join('') : typeof message === 'string' ? message : '',
          // Copilot's usage says how much of the prompt was cached, not how much was written to it.
          ...(usage?.prompt_tokens !== undefined ? { usage: { input: usage.prompt_tokens - cached, cacheWrite: 0, cacheRead: cached, output: usage.completion_tokens } } : {}),
        });
      } else if (log.kind === 'toolCall' && 'tool' in log) {
        requests.at(-1)?.calledTools.push(log.tool);
      }
    }
  }
  return requests;
}

/** The export as one session of requests Herald's provider receives. */
export function loadCopilotExport(file = COPILOT_EXPORT_FILE): ClientSession {
  const raw = readCopilotExport(file);
  const requests: ClientRequest[] = raw.map((entry, index) => {
    const request = copilotRequest(entry.messages, entry.tools, entry.model);
    // The reply is the assistant message the next request carries after this one's messages; the last reply only as its text.
    const next = raw[index + 1] ? copilotRequest(raw[index + 1]!.messages, [], entry.model) : undefined;
    const following = next?.messages[request.messages.length];
    const reply: ChatMessage | undefined = following?.role === 'assistant' ? following : entry.replyText ? { role: 'assistant', parts: [{ type: 'text', text: entry.replyText }], contentShape: 'parts' } : undefined;
    return { request, calledTools: entry.calledTools, ...(reply ? { reply } : {}), ...(entry.usage ? { usage: entry.usage } : {}) };
  });
  return { client: 'copilot-export', name: 'spec.chatreplay', requests, roundTrip: languageModelRoundTrip, reconstructed: [] };
}
