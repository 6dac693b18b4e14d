/**
 * The neutral chat request model. Every host format (OpenAI chat completions, the OpenAI
 * Responses API, Anthropic messages, VS Code `LanguageModelChatRequestMessage`) converts onto it and back.
 *
 * Anything a converter does not understand is carried in `extra` (unknown fields of a
 * known object) or as an {@link OpaquePart} (an unknown part, kept byte for byte), so a
 * round trip of an untouched request is identity.
 */

/** Unknown fields of a known object, carried through untouched. */
export type Extra = Record<string, unknown>;

export type Role = 'system' | 'user' | 'assistant' | 'tool';

export interface TextPart {
  readonly type: 'text';
  readonly text: string;
  readonly extra?: Extra;
}

export interface ToolCallPart {
  readonly type: 'tool_call';
  /** The call id the matching tool result refers to. */
  readonly id: string;
  readonly name: string;
  /**
   * The arguments exactly as the source carried them: a JSON string for OpenAI, an object
   * for Anthropic and VS Code. Never re-serialised, so no byte of it changes.
   */
  readonly arguments: unknown;
  readonly extra?: Extra;
}

export interface ToolResultPart {
  readonly type: 'tool_result';
  /** Id of the tool call this answers. */
  readonly callId: string;
  /** The result's content. A string source becomes one text part (see `contentShape`). */
  readonly content: readonly ResultContentPart[];
  /** How the source stored the content: a plain string, or a list of blocks. */
  readonly contentShape: 'string' | 'parts' | 'absent';
  /** The provider flagged this result as a failure (Anthropic `is_error`). */
  readonly isError?: boolean;
  readonly extra?: Extra;
}

export interface DataPart {
  readonly type: 'data';
  /** MIME type, e.g. `image/png`. */
  readonly mimeType: string;
  /** Base64 bytes or a URL, as `encoding` says. */
  readonly data: string;
  readonly encoding: 'base64' | 'url';
  readonly extra?: Extra;
}

/** Anything the converter does not know: carried through byte for byte. */
export interface OpaquePart {
  readonly type: 'opaque';
  /** The source's own type name when it had one (`thinking`, `redacted_thinking`, …). */
  readonly kind: string;
  readonly raw: unknown;
}

export type ResultContentPart = TextPart | DataPart | OpaquePart;
export type Part = TextPart | ToolCallPart | ToolResultPart | DataPart | OpaquePart;

export interface ChatMessage {
  readonly role: Role;
  readonly parts: readonly Part[];
  /** Optional author name (OpenAI `name`). */
  readonly name?: string;
  /** How the source stored the content: a plain string, a list of blocks, or null/absent. */
  readonly contentShape: 'string' | 'parts' | 'null' | 'absent';
  readonly extra?: Extra;
}

export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  /** JSON schema of the input, untouched. */
  readonly inputSchema?: unknown;
  readonly extra?: Extra;
}

/** The formats Herald reads and writes. */
export type WireFormat = 'openai' | 'anthropic' | 'responses' | 'vscode' | 'neutral';

export interface ChatRequest {
  /** Which wire format this request came from; converters write back the same one. */
  readonly format: WireFormat;
  readonly model?: string;
  readonly messages: readonly ChatMessage[];
  readonly tools: readonly ToolDefinition[];
  /**
   * Every other top-level field (max_tokens, temperature, tool_choice, stream, thinking,
   * system position for Anthropic…) untouched, in the source's own spelling.
   */
  readonly options: Extra;
  /** Format-specific layout facts converters need for an exact round trip. */
  readonly layout?: Extra;
}

/** Concatenated text of a message's text parts and tool-result text. */
export function messageText(message: ChatMessage): string {
  const pieces: string[] = [];
  for (const part of message.parts) pieces.push(partText(part));
  return pieces.filter((piece) => piece.length > 0).join('\n');
}

/** The text a part carries for a reader (tool results: their text content). */
export function partText(part: Part): string {
  switch (part.type) {
    case 'text':
      return part.text;
    case 'tool_result': {
      // Most results are one text part: its text, with no array made to join.
      if (part.content.length === 1) return part.content[0]!.type === 'text' ? part.content[0]!.text : '';
      return part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('\n');
    }
    case 'tool_call':
      return typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments ?? null);
    default:
      return '';
  }
}

export function isToolResultMessage(message: ChatMessage): boolean {
  return message.parts.some((part) => part.type === 'tool_result');
}
