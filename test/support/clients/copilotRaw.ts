/**
 * Copilot Chat's own prompt form (prompt-tsx "raw" messages, as its chat-replay export writes
 * them) and how Copilot hands such a prompt to a language-model provider such as Herald's:
 * through the VS Code Language Model API.
 *
 * The mapping follows what microsoft/vscode-copilot-chat does for an extension-contributed
 * model (its `convertToApiChatMessage`): roles 0 system / 1 user / 2 assistant / 3 tool; a text
 * part becomes a text part; a cache breakpoint (part kind 3) becomes a data part of MIME type
 * `cache_control` holding the bytes `ephemeral`; an opaque part (kind 2) holding a stateful
 * marker becomes a `stateful_marker` data part (`modelId\marker`), one holding thinking data a
 * thinking part; an assistant's tool calls become tool-call parts after its content (arguments
 * parsed from their JSON); a tool message becomes a user message holding one tool result whose
 * content is the message's parts (its cache breakpoint included). Herald's host then reads the
 * Language Model API messages with its own converter (`fromVscode`), so the neutral requests
 * here are the ones Herald's provider builds in VS Code.
 */
import type { ChatRequest } from '../../../src/core/chat/types';
import { fromVscode, toVscodeMessages, toVscodeTools, type VscodeToolLike } from '../../../src/vscode/chat/messageConversion';
import { FakeData, FakeMessage, FakeText, FakeThinking, FakeToolCall, FakeToolResult, fakeKit } from '../../unit/vscode/fakePartKit';

/** prompt-tsx's `Raw.ChatRole`. */
export const RAW_ROLE = { system: 0, user: 1, assistant: 2, tool: 3 } as const;
/** prompt-tsx's `Raw.ChatCompletionContentPartKind`. */
export const RAW_PART = { image: 0, text: 1, opaque: 2, cacheBreakpoint: 3 } as const;

/** The MIME types Copilot gives its own data parts (`CustomDataPartMimeTypes`). */
export const CACHE_CONTROL_MIME = 'cache_control';
export const STATEFUL_MARKER_MIME = 'stateful_marker';

export interface RawTextPart {
  readonly type: typeof RAW_PART.text;
  readonly text: string;
}
export interface RawImagePart {
  readonly type: typeof RAW_PART.image;
  readonly imageUrl: { readonly url: string };
}
export interface RawOpaquePart {
  readonly type: typeof RAW_PART.opaque;
  readonly value: unknown;
}
export interface RawCacheBreakpoint {
  readonly type: typeof RAW_PART.cacheBreakpoint;
  readonly cacheType: string;
}
export type RawPart = RawTextPart | RawImagePart | RawOpaquePart | RawCacheBreakpoint;

export interface RawToolCall {
  readonly id: string;
  readonly type: 'function';
  readonly function: { readonly name: string; readonly arguments: string };
}

export interface RawMessage {
  readonly role: 0 | 1 | 2 | 3;
  readonly content: readonly RawPart[];
  readonly toolCalls?: readonly RawToolCall[];
  readonly toolCallId?: string;
  readonly name?: string;
}

/** A tool as Copilot lists it in a request (OpenAI function shape). */
export interface RawTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: object };
}

/** Thinking data as Copilot keeps it in an opaque part (`ThinkingDataContainer`). */
export interface RawThinking {
  readonly id: string;
  readonly text: string;
  readonly metadata?: Readonly<Record<string, unknown>>;
}

export function rawText(text: string): RawTextPart {
  return { type: RAW_PART.text, text };
}

export function rawBreakpoint(): RawCacheBreakpoint {
  return { type: RAW_PART.cacheBreakpoint, cacheType: 'ephemeral' };
}

export function rawThinking(thinking: RawThinking): RawOpaquePart {
  return { type: RAW_PART.opaque, value: { type: 'thinking', thinking } };
}

export function rawStatefulMarker(modelId: string, marker: string): RawOpaquePart {
  return { type: RAW_PART.opaque, value: { type: STATEFUL_MARKER_MIME, value: { modelId, marker } } };
}

/** The Language Model API messages Copilot sends a provider for one raw prompt. */
export function toLanguageModelMessages(messages: readonly RawMessage[]): FakeMessage[] {
  return messages.map((message) => {
    const content: unknown[] = [];
    for (const part of message.content) {
      const converted = partToLanguageModel(part);
      if (converted !== undefined) content.push(converted);
    }
    switch (message.role) {
      case RAW_ROLE.system:
        return new FakeMessage(3, content, message.name);
      case RAW_ROLE.user:
        return new FakeMessage(1, content, message.name);
      case RAW_ROLE.assistant:
        for (const call of message.toolCalls ?? []) content.push(new FakeToolCall(call.id, call.function.name, JSON.parse(call.function.arguments) as object));
        return new FakeMessage(2, content, message.name);
      case RAW_ROLE.tool:
        return new FakeMessage(1, [new FakeToolResult(message.toolCallId ?? '', content)], '');
    }
  });
}

function partToLanguageModel(part: RawPart): unknown {
  switch (part.type) {
    case RAW_PART.text:
      return new FakeText(part.text);
    case RAW_PART.cacheBreakpoint:
      return new FakeData(new TextEncoder().encode(part.cacheType), CACHE_CONTROL_MIME);
    case RAW_PART.image: {
      // Only inline images reach the provider; a URL image is skipped, as Copilot does.
      const match = /^data:([^;]+);base64,(.*)$/s.exec(part.imageUrl.url);
      return match ? new FakeData(new Uint8Array(Buffer.from(match[2]!, 'base64')), match[1]!) : undefined;
    }
    case RAW_PART.opaque: {
      const value = part.value as { type?: unknown; value?: { modelId?: unknown; marker?: unknown }; thinking?: RawThinking } | null;
      if (value?.type === STATEFUL_MARKER_MIME && typeof value.value?.modelId === 'string' && typeof value.value.marker === 'string') {
        return new FakeData(new TextEncoder().encode(`${value.value.modelId}\\${value.value.marker}`), STATEFUL_MARKER_MIME);
      }
      if (value?.type === 'thinking' && value.thinking) return new FakeThinking(value.thinking.text, value.thinking.id, value.thinking.metadata);
      // Other opaque parts (prompt-tsx internals) never reach a provider.
      return undefined;
    }
  }
}

/** Copilot's tools as the Language Model API hands them to a provider. */
export function toLanguageModelTools(tools: readonly RawTool[]): VscodeToolLike[] {
  return tools.map((tool) => ({
    name: tool.function.name,
    description: tool.function.description ?? '',
    ...(tool.function.parameters ? { inputSchema: tool.function.parameters } : {}),
  }));
}

/** The neutral request Herald's VS Code provider builds from one Copilot prompt. */
export function copilotRequest(messages: readonly RawMessage[], tools: readonly RawTool[], model: string): ChatRequest {
  // Copilot's agent mode lets the model choose (LanguageModelChatToolMode.Auto).
  return fromVscode(toLanguageModelMessages(messages), toLanguageModelTools(tools), fakeKit, { toolMode: 1 }, model, 'vscode');
}

/** What the target behind Herald's provider receives: the request written as Language Model API messages and read back. */
export function languageModelRoundTrip(request: ChatRequest): ChatRequest {
  return fromVscode(toVscodeMessages(request, fakeKit) as FakeMessage[], toVscodeTools(request), fakeKit, request.options, request.model, request.format);
}
