/**
 * OpenAI chat completions ⇄ neutral model. Unknown fields go to `extra`, unknown content
 * blocks become opaque parts, so `toOpenAI(fromOpenAI(x))` deep-equals `x`.
 */
import type { ChatMessage, ChatRequest, DataPart, Part, ResultContentPart, Role, TextPart, ToolDefinition } from './types';
import { expectArray, expectObject, expectString, isObject, restOf, withExtra, type JsonObject } from './objects';

/** Kind of an opaque part holding a malformed `tool_calls` entry, written back where it was. */
const OPAQUE_TOOL_CALL = '$openai.tool_call';

const NEUTRAL_ROLES: Readonly<Record<string, Role>> = { system: 'system', developer: 'system', user: 'user', assistant: 'assistant', tool: 'tool' };

export function fromOpenAI(body: unknown): ChatRequest {
  const request = expectObject(body, 'request');
  const messages = expectArray(request.messages, 'messages').map((message, index) => messageFromOpenAI(message, `messages[${index}]`));
  const tools = request.tools === undefined ? [] : expectArray(request.tools, 'tools').map((tool, index) => toolFromOpenAI(tool, `tools[${index}]`));
  const options = restOf(request, ['model', 'messages', 'tools']) ?? {};
  return {
    format: 'openai',
    model: typeof request.model === 'string' ? request.model : undefined,
    messages,
    tools,
    options,
    layout: { hasTools: request.tools !== undefined, hasModel: 'model' in request, modelValue: typeof request.model === 'string' ? undefined : request.model },
  };
}

export function toOpenAI(request: ChatRequest): JsonObject {
  const out: JsonObject = {};
  const layout = request.layout ?? {};
  if (request.model !== undefined) out.model = request.model;
  else if (layout.hasModel === true) out.model = layout.modelValue;
  out.messages = request.messages.map(messageToOpenAI);
  if (request.tools.length > 0 || layout.hasTools === true) out.tools = request.tools.map(toolToOpenAI);
  return { ...out, ...request.options };
}

function messageFromOpenAI(value: unknown, path: string): ChatMessage {
  const message = expectObject(value, path);
  const sourceRole = expectString(message.role, `${path}.role`);
  const role: Role = NEUTRAL_ROLES[sourceRole] ?? 'user';
  const extra: JsonObject = restOf(message, ['role', 'content', 'tool_calls', 'tool_call_id', 'name']) ?? {};
  if (NEUTRAL_ROLES[sourceRole] === undefined || sourceRole === 'developer') extra.$role = sourceRole;
  const contentShape = message.content === null ? 'null' : message.content === undefined ? 'absent' : typeof message.content === 'string' ? 'string' : 'parts';
  const contentParts = contentToParts(message.content, `${path}.content`);

  let parts: Part[];
  if (sourceRole === 'tool') {
    parts = [{
      type: 'tool_result',
      callId: typeof message.tool_call_id === 'string' ? message.tool_call_id : '',
      content: contentParts,
      contentShape: contentShape === 'string' ? 'string' : contentShape === 'parts' ? 'parts' : 'absent',
    }];
    if (typeof message.tool_call_id !== 'string') extra.$noCallId = true;
  } else {
    parts = [...contentParts];
  }
  if (message.tool_calls !== undefined) {
    const calls = expectArray(message.tool_calls, `${path}.tool_calls`);
    calls.forEach((call, index) => parts.push(toolCallFromOpenAI(call, `${path}.tool_calls[${index}]`)));
    extra.$toolCallCount = calls.length;
  }
  return {
    role,
    parts,
    name: typeof message.name === 'string' ? message.name : undefined,
    contentShape,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

function contentToParts(content: unknown, path: string): ResultContentPart[] {
  if (content === null || content === undefined) return [];
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return expectArray(content, path).map((block): ResultContentPart => {
    if (isObject(block) && block.type === 'text' && typeof block.text === 'string') {
      return { type: 'text', text: block.text, extra: restOf(block, ['type', 'text']) };
    }
    if (isObject(block) && block.type === 'image_url' && isObject(block.image_url) && typeof block.image_url.url === 'string') {
      const url = block.image_url.url;
      const mime = /^data:([^;,]+)[;,]/.exec(url)?.[1] ?? 'image/*';
      const extra: JsonObject = { ...(restOf(block, ['type', 'image_url']) ?? {}) };
      const inner = restOf(block.image_url, ['url']);
      if (inner) extra.$imageUrl = inner;
      return { type: 'data', mimeType: mime, data: url, encoding: 'url', extra: Object.keys(extra).length > 0 ? extra : undefined };
    }
    return { type: 'opaque', kind: isObject(block) && typeof block.type === 'string' ? block.type : 'unknown', raw: block };
  });
}

function partsToContent(parts: readonly ResultContentPart[], shape: string): unknown {
  if (shape === 'null') return null;
  if (shape === 'absent') return undefined;
  if (shape === 'string') return parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
  return parts.map((part) => {
    if (part.type === 'text') return withExtra({ type: 'text', text: part.text }, part.extra);
    if (part.type === 'data') {
      const inner = isObject(part.extra?.$imageUrl) ? part.extra.$imageUrl : undefined;
      return withExtra({ type: 'image_url', image_url: { url: part.data, ...(inner ?? {}) } }, part.extra);
    }
    return part.raw;
  });
}

function toolCallFromOpenAI(value: unknown, path: string): Part {
  const call = expectObject(value, path);
  const fn = isObject(call.function) ? call.function : undefined;
  if (!fn || typeof call.id !== 'string' || typeof fn.name !== 'string') return { type: 'opaque', kind: OPAQUE_TOOL_CALL, raw: call };
  const extra: JsonObject = { ...(restOf(call, ['id', 'function']) ?? {}) };
  const fnRest = restOf(fn, ['name', 'arguments']);
  if (fnRest) extra.$function = fnRest;
  if (!('arguments' in fn)) extra.$noArguments = true;
  return { type: 'tool_call', id: call.id, name: fn.name, arguments: fn.arguments, extra: Object.keys(extra).length > 0 ? extra : undefined };
}

function messageToOpenAI(message: ChatMessage): JsonObject {
  const extra = message.extra ?? {};
  const role = typeof extra.$role === 'string' ? extra.$role : message.role;
  const out: JsonObject = { role };
  const calls: JsonObject[] = [];
  const content: ResultContentPart[] = [];
  let result: Extract<Part, { type: 'tool_result' }> | undefined;
  for (const part of message.parts) {
    if (part.type === 'tool_call') {
      const fn: JsonObject = { name: part.name };
      if (extra.$noArguments !== true || part.arguments !== undefined) fn.arguments = part.arguments;
      const fnRest = isObject(part.extra?.$function) ? part.extra.$function : {};
      calls.push(withExtra({ id: part.id, function: { ...fn, ...fnRest } }, part.extra));
    } else if (part.type === 'opaque' && part.kind === OPAQUE_TOOL_CALL) {
      calls.push(part.raw as JsonObject);
    } else if (part.type === 'tool_result') {
      result = part;
    } else {
      content.push(part);
    }
  }
  if (result) {
    const value = partsToContent(result.content, result.contentShape === 'absent' ? message.contentShape : result.contentShape);
    if (value !== undefined) out.content = value;
    if (extra.$noCallId !== true) out.tool_call_id = result.callId;
  } else {
    const value = partsToContent(content, message.contentShape);
    if (value !== undefined || message.contentShape === 'null') out.content = value;
  }
  if (message.name !== undefined) out.name = message.name;
  if (extra.$toolCallCount !== undefined) out.tool_calls = calls;
  return withExtra(out, extra);
}

function toolFromOpenAI(value: unknown, path: string): ToolDefinition {
  const tool = expectObject(value, path);
  const fn = isObject(tool.function) ? tool.function : undefined;
  if (!fn || typeof fn.name !== 'string') return { name: '', extra: { $raw: tool } };
  const extra: JsonObject = { ...(restOf(tool, ['function']) ?? {}) };
  const fnRest = restOf(fn, ['name', 'description', 'parameters']);
  if (fnRest) extra.$function = fnRest;
  if ('description' in fn && typeof fn.description !== 'string') extra.$description = fn.description;
  if (!('parameters' in fn)) extra.$noParameters = true;
  return {
    name: fn.name,
    description: typeof fn.description === 'string' ? fn.description : undefined,
    inputSchema: fn.parameters,
    extra: Object.keys(extra).length > 0 ? extra : undefined,
  };
}

function toolToOpenAI(tool: ToolDefinition): unknown {
  const extra = tool.extra ?? {};
  if (extra.$raw !== undefined) return extra.$raw;
  const fn: JsonObject = { name: tool.name };
  if (tool.description !== undefined) fn.description = tool.description;
  else if ('$description' in extra) fn.description = extra.$description;
  if (extra.$noParameters !== true) fn.parameters = tool.inputSchema;
  const fnRest = isObject(extra.$function) ? extra.$function : {};
  return withExtra({ function: { ...fn, ...fnRest } }, extra);
}

/** A text part, for strategies that build new content. */
export function textPart(text: string): TextPart {
  return { type: 'text', text };
}

export type { DataPart };
