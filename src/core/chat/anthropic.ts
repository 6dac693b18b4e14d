/**
 * Anthropic messages ⇄ neutral model. The top-level `system` becomes a leading system
 * message; `tool_use` and `tool_result` blocks become tool-call and tool-result parts;
 * thinking, documents and server-tool blocks are opaque. `cache_control` and every other
 * unknown field ride along in `extra`.
 */
import type { ChatMessage, ChatRequest, Part, ResultContentPart, Role, ToolDefinition } from './types';
import { expectArray, expectObject, expectString, isObject, restOf, withExtra, type JsonObject } from './objects';

export function fromAnthropic(body: unknown): ChatRequest {
  const request = expectObject(body, 'request');
  const messages: ChatMessage[] = [];
  if (request.system !== undefined) {
    const shape = typeof request.system === 'string' ? 'string' : 'parts';
    messages.push({ role: 'system', parts: blocksToParts(request.system, 'system'), contentShape: shape });
  }
  expectArray(request.messages, 'messages').forEach((value, index) => {
    const path = `messages[${index}]`;
    const message = expectObject(value, path);
    const sourceRole = expectString(message.role, `${path}.role`);
    const role: Role = sourceRole === 'assistant' ? 'assistant' : 'user';
    const extra = restOf(message, ['role', 'content']) ?? {};
    if (sourceRole !== role) extra.$role = sourceRole;
    const shape = typeof message.content === 'string' ? 'string' : message.content === undefined ? 'absent' : 'parts';
    messages.push({ role, parts: blocksToParts(message.content, `${path}.content`), contentShape: shape, extra: Object.keys(extra).length > 0 ? extra : undefined });
  });
  const tools = request.tools === undefined ? [] : expectArray(request.tools, 'tools').map((tool, index) => toolFromAnthropic(tool, `tools[${index}]`));
  return {
    format: 'anthropic',
    model: typeof request.model === 'string' ? request.model : undefined,
    messages,
    tools,
    options: restOf(request, ['model', 'system', 'messages', 'tools']) ?? {},
    layout: { hasTools: request.tools !== undefined, hasSystem: request.system !== undefined, hasModel: 'model' in request, modelValue: typeof request.model === 'string' ? undefined : request.model },
  };
}

export function toAnthropic(request: ChatRequest): JsonObject {
  const out: JsonObject = {};
  const layout = request.layout ?? {};
  if (request.model !== undefined) out.model = request.model;
  else if (layout.hasModel === true) out.model = layout.modelValue;
  let messages = request.messages;
  if (messages[0]?.role === 'system') {
    out.system = partsToBlocks(messages[0].parts, messages[0].contentShape);
    messages = messages.slice(1);
  }
  out.messages = messages.map((message) => {
    const role = typeof message.extra?.$role === 'string' ? message.extra.$role : message.role === 'assistant' ? 'assistant' : 'user';
    const content = partsToBlocks(message.parts, message.contentShape);
    return withExtra(content === undefined ? { role } : { role, content }, message.extra);
  });
  if (request.tools.length > 0 || layout.hasTools === true) out.tools = request.tools.map(toolToAnthropic);
  return { ...out, ...request.options };
}

function blocksToParts(content: unknown, path: string): Part[] {
  if (content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return expectArray(content, path).map((block) => blockToPart(block));
}

function blockToPart(block: unknown): Part {
  if (!isObject(block)) return { type: 'opaque', kind: 'unknown', raw: block };
  switch (block.type) {
    case 'text':
      if (typeof block.text === 'string') return { type: 'text', text: block.text, extra: restOf(block, ['type', 'text']) };
      break;
    case 'image': {
      const source = isObject(block.source) ? block.source : undefined;
      if (source?.type === 'base64' && typeof source.data === 'string' && typeof source.media_type === 'string') {
        return { type: 'data', mimeType: source.media_type, data: source.data, encoding: 'base64', extra: restOf(block, ['type', 'source']) };
      }
      if (source?.type === 'url' && typeof source.url === 'string') {
        return { type: 'data', mimeType: 'image/*', data: source.url, encoding: 'url', extra: restOf(block, ['type', 'source']) };
      }
      break;
    }
    case 'tool_use':
      if (typeof block.id === 'string' && typeof block.name === 'string') {
        return { type: 'tool_call', id: block.id, name: block.name, arguments: block.input, extra: restOf(block, ['type', 'id', 'name', 'input']) };
      }
      break;
    case 'tool_result':
      if (typeof block.tool_use_id === 'string') {
        const shape = typeof block.content === 'string' ? 'string' : block.content === undefined ? 'absent' : 'parts';
        const inner = blocksToParts(block.content, 'tool_result.content').map((part): ResultContentPart =>
          part.type === 'text' || part.type === 'data' || part.type === 'opaque' ? part : { type: 'opaque', kind: part.type, raw: part });
        return {
          type: 'tool_result',
          callId: block.tool_use_id,
          content: inner,
          contentShape: shape,
          isError: block.is_error === true ? true : undefined,
          extra: restOf(block, ['type', 'tool_use_id', 'content']),
        };
      }
      break;
    default:
      break;
  }
  return { type: 'opaque', kind: typeof block.type === 'string' ? block.type : 'unknown', raw: block };
}

function partsToBlocks(parts: readonly Part[], shape: string): unknown {
  if (shape === 'absent' && parts.length === 0) return undefined;
  if (shape === 'string') return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return parts.map(partToBlock);
}

function partToBlock(part: Part): unknown {
  switch (part.type) {
    case 'text':
      return withExtra({ type: 'text', text: part.text }, part.extra);
    case 'data':
      return withExtra({
        type: 'image',
        source: part.encoding === 'base64' ? { type: 'base64', media_type: part.mimeType, data: part.data } : { type: 'url', url: part.data },
      }, part.extra);
    case 'tool_call':
      return withExtra({ type: 'tool_use', id: part.id, name: part.name, input: part.arguments }, part.extra);
    case 'tool_result': {
      const block: JsonObject = { type: 'tool_result', tool_use_id: part.callId };
      const content = partsToBlocks(part.content, part.contentShape);
      if (content !== undefined) block.content = content;
      // is_error lives in extra when it was not `true` (false, or another value), so it round-trips.
      if (part.isError === true) block.is_error = true;
      return withExtra(block, part.extra);
    }
    case 'opaque':
      return part.raw;
  }
}

function toolFromAnthropic(value: unknown, path: string): ToolDefinition {
  const tool = expectObject(value, path);
  if (typeof tool.name !== 'string') return { name: '', extra: { $raw: tool } };
  const extra = restOf(tool, ['name', 'description', 'input_schema']) ?? {};
  if ('description' in tool && typeof tool.description !== 'string') extra.$description = tool.description;
  if (!('input_schema' in tool)) extra.$noSchema = true;
  return {
    name: tool.name,
    description: typeof tool.description === 'string' ? tool.description : undefined,
    inputSchema: tool.input_schema,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

function toolToAnthropic(tool: ToolDefinition): unknown {
  const extra = tool.extra ?? {};
  if (extra.$raw !== undefined) return extra.$raw;
  const out: JsonObject = { name: tool.name };
  if (tool.description !== undefined) out.description = tool.description;
  else if ('$description' in extra) out.description = extra.$description;
  if (extra.$noSchema !== true) out.input_schema = tool.inputSchema;
  return withExtra(out, extra);
}
