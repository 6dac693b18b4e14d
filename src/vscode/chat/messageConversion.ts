/**
 * VS Code `LanguageModelChatRequestMessage` ⇄ the neutral chat model.
 *
 * Pure logic: the VS Code part classes come in through a {@link PartKit}, so the conversion
 * runs under mocha with fakes and in the extension host with the real classes. Parts the
 * converter does not know (thinking, prompt-tsx, future kinds) become opaque parts that keep
 * the original object, and unchanged data parts keep theirs, so a round trip of an untouched
 * request hands VS Code the very objects it gave us.
 */
import type { ChatMessage, ChatRequest, DataPart, Part, ResultContentPart, Role, ToolDefinition } from '../../core/chat/types';

/** VS Code's message roles (`LanguageModelChatMessageRole`): 1 user, 2 assistant, 3 system (proposed). */
export const VSCODE_ROLE = { user: 1, assistant: 2, system: 3 } as const;

/** The shape VS Code hands a provider: a role number, a list of parts, an optional name. */
export interface VscodeMessageLike {
  readonly role: number;
  readonly content: ReadonlyArray<unknown>;
  readonly name: string | undefined;
}

/** A tool as VS Code passes it to a provider (`LanguageModelChatTool`). */
export interface VscodeToolLike {
  readonly name: string;
  readonly description: string;
  readonly inputSchema?: object;
}

/** Recognises and builds VS Code's part classes; the extension passes the real ones, tests pass fakes. */
export interface PartKit {
  isText(part: unknown): part is { value: string };
  isToolCall(part: unknown): part is { callId: string; name: string; input: object };
  isToolResult(part: unknown): part is { callId: string; content: ReadonlyArray<unknown> };
  text(value: string): unknown;
  toolCall(callId: string, name: string, input: object): unknown;
  toolResult(callId: string, content: unknown[]): unknown;
  /** A data part (image or other bytes); undefined when this VS Code has no data part class. */
  data?(bytes: Uint8Array, mimeType: string): unknown;
  message(role: number, content: unknown[], name: string | undefined): unknown;
}

/** Where the original VS Code object of a converted part is kept (a `$` key never leaves Herald). */
const ORIGINAL = '$vscodePart';
const ROLE_KEY = '$vscodeRole';

/** Converts one request a VS Code caller sent to a provider into the neutral model. */
export function fromVscode(
  messages: readonly VscodeMessageLike[],
  tools: readonly VscodeToolLike[] | undefined,
  kit: PartKit,
  options: Record<string, unknown> = {},
  model?: string,
  format: ChatRequest['format'] = 'vscode',
): ChatRequest {
  return {
    format,
    model,
    messages: messages.map((message) => messageFromVscode(message, kit)),
    tools: (tools ?? []).map(toolFromVscode),
    options,
  };
}

/** Writes neutral messages back as VS Code messages, reusing every original object that is unchanged. */
export function toVscodeMessages(request: ChatRequest, kit: PartKit): unknown[] {
  return request.messages.map((message) => {
    const sourceRole = message.extra?.[ROLE_KEY];
    const role = typeof sourceRole === 'number' ? sourceRole : message.role === 'assistant' ? VSCODE_ROLE.assistant : message.role === 'system' ? VSCODE_ROLE.system : VSCODE_ROLE.user;
    return kit.message(role, message.parts.map((part) => partToVscode(part, kit)), message.name);
  });
}

/** The tools in VS Code's shape, in the request's order. */
export function toVscodeTools(request: ChatRequest): VscodeToolLike[] {
  return request.tools.map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    ...(isObjectValue(tool.inputSchema) ? { inputSchema: tool.inputSchema } : {}),
  }));
}

function messageFromVscode(message: VscodeMessageLike, kit: PartKit): ChatMessage {
  const role: Role = message.role === VSCODE_ROLE.assistant ? 'assistant' : message.role === VSCODE_ROLE.system ? 'system' : 'user';
  const known = message.role === VSCODE_ROLE.user || message.role === VSCODE_ROLE.assistant || message.role === VSCODE_ROLE.system;
  return {
    role,
    parts: message.content.map((part) => partFromVscode(part, kit)),
    name: message.name,
    contentShape: 'parts',
    extra: known ? undefined : { [ROLE_KEY]: message.role },
  };
}

function partFromVscode(part: unknown, kit: PartKit): Part {
  if (kit.isText(part)) return { type: 'text', text: part.value };
  if (kit.isToolCall(part)) return { type: 'tool_call', id: part.callId, name: part.name, arguments: part.input };
  if (kit.isToolResult(part)) {
    return { type: 'tool_result', callId: part.callId, content: part.content.map((inner) => resultContentFromVscode(inner, kit)), contentShape: 'parts' };
  }
  return dataFromVscode(part) ?? { type: 'opaque', kind: kindOf(part), raw: part };
}

function resultContentFromVscode(part: unknown, kit: PartKit): ResultContentPart {
  if (kit.isText(part)) return { type: 'text', text: part.value };
  return dataFromVscode(part) ?? { type: 'opaque', kind: kindOf(part), raw: part };
}

/** A `LanguageModelDataPart` (image bytes, JSON, …): `mimeType` and `data` bytes. */
function dataFromVscode(part: unknown): DataPart | undefined {
  if (!isObjectValue(part)) return undefined;
  const { mimeType, data } = part as { mimeType?: unknown; data?: unknown };
  if (typeof mimeType !== 'string' || !(data instanceof Uint8Array)) return undefined;
  return { type: 'data', mimeType, data: Buffer.from(data).toString('base64'), encoding: 'base64', extra: { [ORIGINAL]: part } };
}

function partToVscode(part: Part, kit: PartKit): unknown {
  switch (part.type) {
    case 'text':
      return kit.text(part.text);
    case 'tool_call':
      return kit.toolCall(part.id, part.name, argumentsObject(part.arguments));
    case 'tool_result':
      return kit.toolResult(part.callId, part.content.map((inner) => partToVscode(inner, kit)));
    case 'data':
      return dataToVscode(part, kit);
    case 'opaque':
      return part.raw;
  }
}

function dataToVscode(part: DataPart, kit: PartKit): unknown {
  const original = part.extra?.[ORIGINAL];
  const unchanged = original !== undefined && dataFromVscode(original)?.data === part.data && (original as { mimeType: string }).mimeType === part.mimeType;
  if (unchanged) return original;
  if (part.encoding === 'base64' && kit.data) return kit.data(new Uint8Array(Buffer.from(part.data, 'base64')), part.mimeType);
  // No way to build bytes here (a URL, or no data part class): say what stood there instead of dropping it.
  return kit.text(`[${part.mimeType} content]`);
}

/** VS Code tool calls carry an object; a strategy or endpoint may have left a JSON string. */
function argumentsObject(value: unknown): object {
  if (isObjectValue(value)) return value;
  if (typeof value === 'string') {
    try {
      const parsed: unknown = JSON.parse(value);
      if (isObjectValue(parsed)) return parsed;
    } catch {
      // Not JSON: hand the text over under a name the tool can see.
    }
    return { input: value };
  }
  return {};
}

function toolFromVscode(tool: VscodeToolLike): ToolDefinition {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputSchema };
}

function kindOf(part: unknown): string {
  if (isObjectValue(part)) {
    const name = (part as { constructor?: { name?: unknown } }).constructor?.name;
    if (typeof name === 'string' && name !== 'Object') return name;
  }
  return 'unknown';
}

function isObjectValue(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
