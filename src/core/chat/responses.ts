/**
 * OpenAI Responses API ⇄ neutral model. `instructions` becomes a leading system message. The
 * model's own items that follow each other (its messages, reasoning, `function_call` and
 * `custom_tool_call` items, other `*_call` items) become one assistant message, as one turn of
 * Chat Completions is one assistant message with its text and calls: each part remembers the
 * item it came from. Every other item is one message: a `message` item of its role, a
 * `function_call_output` (or `custom_tool_call_output`) a tool message holding the result.
 * Reasoning and every item the converter does not read (web search, item references, …) are
 * opaque parts, kept byte for byte;
 * `previous_response_id`, `store`, `reasoning` and every other top-level field ride along in
 * `options` untouched, so `toResponses(fromResponses(x))` deep-equals `x`.
 */
import type { ChatMessage, ChatRequest, Part, ResultContentPart, Role, ToolDefinition } from './types';
import { expectObject, FormatError, isObject, restOf, withExtra, type JsonObject } from './objects';

/** What an item was, kept in the message's extra so it is written back as the same item. */
type ItemKind = 'message' | 'function_call_output' | 'custom_tool_call_output' | 'opaque';

/** Kind of an opaque part holding a whole assistant message item whose content the converter does not read. */
const MESSAGE_ITEM = '$responses.message';

const CALL_ITEMS: Readonly<Record<string, { readonly arguments: string }>> = { function_call: { arguments: 'arguments' }, custom_tool_call: { arguments: 'input' } };
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output']);
const MESSAGE_ROLES: Readonly<Record<string, Role>> = { user: 'user', assistant: 'assistant', system: 'system', developer: 'system' };

export function fromResponses(body: unknown): ChatRequest {
  const request = expectObject(body, 'request');
  const messages: ChatMessage[] = [];
  const hasInstructions = typeof request.instructions === 'string';
  if (hasInstructions) messages.push({ role: 'system', parts: [{ type: 'text', text: request.instructions as string }], contentShape: 'string', extra: { $instructions: true } });
  let inputShape: 'string' | 'items' | 'absent';
  if (typeof request.input === 'string') {
    inputShape = 'string';
    messages.push({ role: 'user', parts: [{ type: 'text', text: request.input }], contentShape: 'string' });
  } else if (request.input === undefined) {
    inputShape = 'absent';
  } else {
    if (!Array.isArray(request.input)) throw new FormatError('input', 'a string or an array of input items');
    inputShape = 'items';
    let turn: Part[] | undefined;
    request.input.forEach((item, index) => {
      const parts = assistantParts(item);
      if (parts) {
        if (!turn) messages.push({ role: 'assistant', parts: (turn = []), contentShape: 'parts' });
        turn.push(...parts);
        return;
      }
      turn = undefined;
      messages.push(itemToMessage(item, `input[${index}]`));
    });
  }
  const tools = request.tools === undefined ? [] : expectTools(request.tools).map(toolFromResponses);
  const known = ['model', 'input', 'tools', ...(hasInstructions ? ['instructions'] : [])];
  return {
    format: 'responses',
    model: typeof request.model === 'string' ? request.model : undefined,
    messages,
    tools,
    options: restOf(request, known) ?? {},
    layout: { inputShape, hasTools: request.tools !== undefined, hasModel: 'model' in request, modelValue: typeof request.model === 'string' ? undefined : request.model },
  };
}

export function toResponses(request: ChatRequest): JsonObject {
  const out: JsonObject = {};
  const layout = request.layout ?? {};
  if (request.model !== undefined) out.model = request.model;
  else if (layout.hasModel === true) out.model = layout.modelValue;
  let messages = request.messages;
  if (messages[0]?.extra?.$instructions === true) {
    out.instructions = messages[0].parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
    messages = messages.slice(1);
  }
  const only = messages[0];
  if (layout.inputShape === 'string' && messages.length === 1 && only && only.role === 'user' && only.contentShape === 'string' && only.extra === undefined && only.parts.every((part) => part.type === 'text')) {
    out.input = only.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  } else if (layout.inputShape !== 'absent' || messages.length > 0) {
    out.input = messages.flatMap(messageToItems);
  }
  if (request.tools.length > 0 || layout.hasTools === true) out.tools = request.tools.map(toolToResponses);
  return { ...out, ...request.options };
}

function expectTools(value: unknown): unknown[] {
  if (!Array.isArray(value)) throw new FormatError('tools', 'an array');
  return value;
}

/**
 * The parts an item of the model's own adds to its turn, or undefined when the item is not the
 * model's. A message item starts with a part carrying `$message` (its own fields); one with
 * content the converter does not read is kept whole as one opaque part.
 */
function assistantParts(value: unknown): Part[] | undefined {
  if (!isObject(value)) return undefined;
  const type = value.type;
  if ((type === 'message' || type === undefined) && value.role === 'assistant') {
    const simple = typeof value.content === 'string' || (Array.isArray(value.content) && value.content.length > 0 && value.content.every(isReadableContent));
    if (!simple) return [{ type: 'opaque', kind: MESSAGE_ITEM, raw: value }];
    const start: JsonObject = { fields: restOf(value, ['type', 'role', 'content']) ?? {}, shape: typeof value.content === 'string' ? 'string' : 'parts' };
    if (type === undefined) start.noType = true;
    return contentToParts(value.content).map((part, index) => (index === 0 && part.type !== 'opaque' ? { ...part, extra: { ...(part.extra ?? {}), $message: start } } : part));
  }
  const call = typeof type === 'string' ? CALL_ITEMS[type] : undefined;
  if (call && typeof value.call_id === 'string' && typeof value.name === 'string') {
    const extra: JsonObject = { ...(restOf(value, ['type', 'call_id', 'name', call.arguments]) ?? {}) };
    if (!(call.arguments in value)) extra.$noArguments = true;
    if (type === 'custom_tool_call') extra.$kind = type;
    return [{ type: 'tool_call', id: value.call_id, name: value.name, arguments: value[call.arguments], extra }];
  }
  if (typeof type === 'string' && (type === 'reasoning' || type.endsWith('_call'))) return [{ type: 'opaque', kind: type, raw: value }];
  return undefined;
}

function isReadableContent(block: unknown): boolean {
  return isObject(block) && (((block.type === 'output_text' || block.type === 'input_text') && typeof block.text === 'string') || (block.type === 'input_image' && typeof block.image_url === 'string'));
}

function itemToMessage(value: unknown, path: string): ChatMessage {
  if (!isObject(value)) return opaqueItem(value, 'user');
  const type = value.type;
  if ((type === 'message' || type === undefined) && typeof value.role === 'string') {
    const role = MESSAGE_ROLES[value.role] ?? 'user';
    const extra: JsonObject = { ...(restOf(value, ['type', 'role', 'content']) ?? {}), $item: 'message' };
    if (type === undefined) extra.$noType = true;
    if (MESSAGE_ROLES[value.role] === undefined || value.role === 'developer') extra.$role = value.role;
    const contentShape = typeof value.content === 'string' ? 'string' : value.content === undefined ? 'absent' : value.content === null ? 'null' : 'parts';
    if (contentShape === 'parts' && !Array.isArray(value.content)) throw new FormatError(`${path}.content`, 'a string or an array of content parts');
    return { role, parts: contentToParts(value.content), contentShape, extra };
  }
  if (typeof type === 'string' && OUTPUT_ITEMS.has(type) && typeof value.call_id === 'string') {
    const output = value.output;
    const contentShape = typeof output === 'string' ? 'string' : output === undefined ? 'absent' : 'parts';
    if (contentShape === 'parts' && !Array.isArray(output)) return opaqueItem(value, 'tool');
    return {
      role: 'tool',
      parts: [{ type: 'tool_result', callId: value.call_id, content: contentToParts(output), contentShape, extra: restOf(value, ['type', 'call_id', 'output']) }],
      contentShape: 'parts',
      extra: { $item: type as ItemKind },
    };
  }
  // Item references, computer-call outputs, malformed items…: kept whole, as the caller's.
  return opaqueItem(value, 'user');
}

function opaqueItem(value: unknown, role: Role): ChatMessage {
  const kind = isObject(value) && typeof value.type === 'string' ? value.type : 'unknown';
  return { role, parts: [{ type: 'opaque', kind, raw: value }], contentShape: 'parts', extra: { $item: 'opaque' } };
}

function contentToParts(content: unknown): ResultContentPart[] {
  if (content === undefined || content === null) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return (content as unknown[]).map((block): ResultContentPart => {
    if (isObject(block) && (block.type === 'input_text' || block.type === 'output_text') && typeof block.text === 'string') {
      return { type: 'text', text: block.text, extra: { ...(restOf(block, ['type', 'text']) ?? {}), $type: block.type } };
    }
    if (isObject(block) && block.type === 'input_image' && typeof block.image_url === 'string') {
      const mime = /^data:([^;,]+)[;,]/.exec(block.image_url)?.[1] ?? 'image/*';
      return { type: 'data', mimeType: mime, data: block.image_url, encoding: 'url', extra: restOf(block, ['type', 'image_url']) };
    }
    return { type: 'opaque', kind: isObject(block) && typeof block.type === 'string' ? block.type : 'unknown', raw: block };
  });
}

function partsToContent(parts: readonly ResultContentPart[], shape: string, role: Role): unknown {
  if (shape === 'null') return null;
  if (shape === 'absent' && parts.length === 0) return undefined;
  if (shape === 'string') return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return parts.map((part) => {
    if (part.type === 'text') {
      const type = typeof part.extra?.$type === 'string' ? part.extra.$type : role === 'assistant' ? 'output_text' : 'input_text';
      return withExtra({ type, text: part.text }, part.extra);
    }
    if (part.type === 'data') {
      const url = part.encoding === 'url' ? part.data : `data:${part.mimeType};base64,${part.data}`;
      return withExtra({ type: 'input_image', image_url: url }, part.extra);
    }
    return part.raw;
  });
}

/** One message as the items it stands for: usually exactly one; a message a host built (text, calls and results together) as several. */
function messageToItems(message: ChatMessage): unknown[] {
  if (message.role === 'assistant' && message.extra === undefined) return assistantToItems(message.parts);
  const extra = message.extra ?? {};
  const kind = extra.$item as ItemKind | undefined;
  const items: unknown[] = [];
  const content: ResultContentPart[] = [];
  for (const part of message.parts) {
    if (part.type === 'tool_call') items.push(callToItem(part));
    else if (part.type === 'tool_result') items.push(resultToItem(part, kind === 'custom_tool_call_output' ? 'custom_tool_call_output' : 'function_call_output'));
    else if (part.type === 'opaque' && kind === 'opaque') items.push(part.raw);
    else content.push(part);
  }
  if (kind === 'message' || content.length > 0 || (kind === undefined && items.length === 0)) {
    const role = typeof extra.$role === 'string' ? extra.$role : message.role === 'tool' ? 'user' : message.role;
    const fields: JsonObject = extra.$noType === true ? { role } : { type: 'message', role };
    const value = partsToContent(content, message.contentShape, message.role);
    if (value !== undefined || message.contentShape === 'null') fields.content = value;
    items.unshift(withExtra(fields, kind === 'message' ? extra : undefined));
  }
  return items;
}

/** An assistant turn as its items: each message item from the part that starts it, calls and opaque items whole. */
function assistantToItems(parts: readonly Part[]): unknown[] {
  const items: unknown[] = [];
  let open: { item: JsonObject; parts: ResultContentPart[]; shape: string } | undefined;
  const close = (): void => {
    if (open) open.item.content = partsToContent(open.parts, open.shape, 'assistant');
    open = undefined;
  };
  for (const part of parts) {
    if (part.type === 'tool_call') {
      close();
      items.push(callToItem(part));
    } else if (part.type === 'tool_result') {
      close();
      items.push(resultToItem(part, 'function_call_output'));
    } else if (part.type === 'opaque') {
      close();
      items.push(part.raw);
    } else {
      const start = isObject(part.extra?.$message) ? part.extra.$message : undefined;
      // A part without its own start joins the message item before it, unless that one was a plain string.
      if (start || !open || open.shape === 'string') {
        close();
        const fields = isObject(start?.fields) ? start.fields : {};
        open = { item: { ...(start?.noType === true ? {} : { type: 'message' }), role: 'assistant', ...fields }, parts: [], shape: start?.shape === 'string' ? 'string' : 'parts' };
        items.push(open.item);
      }
      open.parts.push(part);
    }
  }
  close();
  return items;
}

function callToItem(part: Extract<Part, { type: 'tool_call' }>): JsonObject {
  const type = part.extra?.$kind === 'custom_tool_call' ? 'custom_tool_call' : 'function_call';
  const field = CALL_ITEMS[type]!.arguments;
  const fields: JsonObject = { type, call_id: part.id, name: part.name };
  if (part.extra?.$noArguments !== true || part.arguments !== undefined) {
    // A host-built call carries its arguments as an object; the Responses API takes them as JSON text.
    fields[field] = typeof part.arguments === 'string' || type === 'custom_tool_call' ? part.arguments : JSON.stringify(part.arguments ?? {});
  }
  return withExtra(fields, part.extra);
}

function resultToItem(part: Extract<Part, { type: 'tool_result' }>, type: 'function_call_output' | 'custom_tool_call_output'): JsonObject {
  const fields: JsonObject = { type, call_id: part.callId };
  const shape = part.contentShape === 'absent' && part.content.length > 0 ? 'string' : part.contentShape;
  const output = partsToContent(part.content, shape, 'user');
  if (output !== undefined) fields.output = output;
  return withExtra(fields, part.extra);
}

function toolFromResponses(value: unknown): ToolDefinition {
  // A namespace tool (a group of functions, Codex's `multi_agent_v1`) goes out as it came, under its name.
  if (isObject(value) && value.type === 'namespace' && typeof value.name === 'string' && value.name !== '') return { name: value.name, extra: { $raw: value } };
  if (!isObject(value) || typeof value.name !== 'string' || (value.type !== 'function' && value.type !== 'custom')) return { name: '', extra: { $raw: value } };
  const schemaField = value.type === 'function' ? 'parameters' : undefined;
  const extra: JsonObject = { ...(restOf(value, ['name', 'description', ...(schemaField ? [schemaField] : [])]) ?? {}) };
  if ('description' in value && typeof value.description !== 'string') extra.$description = value.description;
  if (schemaField && !(schemaField in value)) extra.$noParameters = true;
  return {
    name: value.name,
    description: typeof value.description === 'string' ? value.description : undefined,
    inputSchema: schemaField ? value[schemaField] : undefined,
    extra,
  };
}

function toolToResponses(tool: ToolDefinition): unknown {
  const extra = tool.extra ?? {};
  if (extra.$raw !== undefined) return extra.$raw;
  // A tool Herald adds (herald_retrieve) has no source type: it is a function tool.
  const type = typeof extra.type === 'string' ? extra.type : 'function';
  const out: JsonObject = { type, name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  else if ('$description' in extra) out.description = extra.$description;
  if (type === 'function' && extra.$noParameters !== true) out.parameters = tool.inputSchema === undefined ? { type: 'object', properties: {} } : tool.inputSchema;
  return withExtra(out, extra);
}
