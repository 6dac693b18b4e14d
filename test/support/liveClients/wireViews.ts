/**
 * What the scripted provider reads from a request of each API: the tools offered, the calls the
 * conversation holds, the latest tool result (Herald's own retrieve results left out) and every
 * text (where task tags and Herald's markers are looked for).
 */
import type { ConversationView, OfferedTool } from './agentScript';
import { HERALD_RETRIEVE } from './agentScript';

import type { WireApi } from '../../../src/core/costs/billingBlocks';

export type Json = Record<string, unknown>;

export function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function array(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function propertiesOf(schema: unknown): OfferedTool['properties'] {
  return isJson(schema) && isJson(schema.properties) ? (schema.properties as OfferedTool['properties']) : {};
}

/** Every string inside a value (a tool result's content, in whatever shape it came). */
function textsIn(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) textsIn(item, into);
  else if (isJson(value)) for (const [key, inner] of Object.entries(value)) if (key !== 'type' && key !== 'cache_control') textsIn(inner, into);
}

function joined(value: unknown): string {
  const texts: string[] = [];
  textsIn(value, texts);
  return texts.join('\n');
}

/** Anthropic Messages. */
export function anthropicView(body: Json): ConversationView {
  const tools: OfferedTool[] = array(body.tools).filter(isJson).map((tool) => ({ name: String(tool.name), properties: propertiesOf(tool.input_schema) }));
  const calls: string[] = [];
  const names = new Map<string, string>();
  const texts: string[] = [];
  let lastResult: string | undefined;
  for (const message of array(body.messages).filter(isJson)) {
    const content = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : array(message.content).filter(isJson);
    for (const block of content) {
      if (block.type === 'tool_use') {
        calls.push(String(block.name));
        names.set(String(block.id), String(block.name));
      } else if (block.type === 'tool_result') {
        const text = joined(block.content);
        texts.push(text);
        if (names.get(String(block.tool_use_id)) !== HERALD_RETRIEVE) lastResult = text;
      } else if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    }
  }
  return { tools, calls, texts, ...(lastResult !== undefined ? { lastResult } : {}) };
}

/** OpenAI Chat Completions. */
export function chatView(body: Json): ConversationView {
  const tools: OfferedTool[] = array(body.tools).filter(isJson).map((tool) => {
    const fn = isJson(tool.function) ? tool.function : {};
    return { name: String(fn.name), properties: propertiesOf(fn.parameters) };
  });
  const calls: string[] = [];
  const names = new Map<string, string>();
  const texts: string[] = [];
  let lastResult: string | undefined;
  for (const message of array(body.messages).filter(isJson)) {
    for (const call of array(message.tool_calls).filter(isJson)) {
      const name = isJson(call.function) ? String(call.function.name) : '';
      calls.push(name);
      names.set(String(call.id), name);
    }
    if (message.role === 'tool') {
      const text = joined(message.content);
      texts.push(text);
      if (names.get(String(message.tool_call_id)) !== HERALD_RETRIEVE) lastResult = text;
    } else if (message.content !== undefined && message.content !== null) texts.push(joined(message.content));
  }
  return { tools, calls, texts, ...(lastResult !== undefined ? { lastResult } : {}) };
}

/** Tools of a Responses request, a namespace's inner tools included. */
function responsesTools(value: unknown): OfferedTool[] {
  const tools: OfferedTool[] = [];
  for (const tool of array(value).filter(isJson)) {
    if (Array.isArray(tool.tools)) tools.push(...responsesTools(tool.tools));
    if (typeof tool.name === 'string') tools.push({ name: tool.name, properties: propertiesOf(tool.parameters) });
  }
  return tools;
}

const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);

/** OpenAI Responses. */
export function responsesView(body: Json): ConversationView {
  const calls: string[] = [];
  const names = new Map<string, string>();
  const texts: string[] = [];
  let lastResult: string | undefined;
  const input = typeof body.input === 'string' ? [{ type: 'message', role: 'user', content: body.input }] : array(body.input).filter(isJson);
  if (typeof body.instructions === 'string') texts.push(body.instructions);
  for (const item of input) {
    const type = typeof item.type === 'string' ? item.type : 'message';
    if (CALL_ITEMS.has(type)) {
      const name = String(item.name ?? type);
      calls.push(name);
      names.set(String(item.call_id), name);
    } else if (OUTPUT_ITEMS.has(type)) {
      const text = joined(item.output);
      texts.push(text);
      if (names.get(String(item.call_id)) !== HERALD_RETRIEVE) lastResult = text;
    } else if (type === 'message') texts.push(joined(item.content));
  }
  return { tools: responsesTools(body.tools), calls, texts, ...(lastResult !== undefined ? { lastResult } : {}) };
}

/** The view of a request body in its API. */
export function viewOf(api: WireApi, body: Json): ConversationView {
  return api === 'anthropic' ? anthropicView(body) : api === 'responses' ? responsesView(body) : chatView(body);
}
