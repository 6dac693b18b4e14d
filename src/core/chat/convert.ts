/** Format detection and the one entry point for reading and writing wire requests. */
import { fromAnthropic, toAnthropic } from './anthropic';
import { FormatError, isObject, type JsonObject } from './objects';
import { fromOpenAI, toOpenAI } from './openai';
import { fromResponses, toResponses } from './responses';
import type { ChatRequest } from './types';

export type RequestFormat = 'openai' | 'anthropic' | 'responses';

const ANTHROPIC_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'image', 'document']);

/**
 * Tells OpenAI chat completions from Anthropic messages (and both from the Responses API) by their shape: a top-level
 * `system`, Anthropic-only block types, or an Anthropic-only field means Anthropic;
 * system/tool roles or `tool_calls` mean OpenAI. Undecidable requests are OpenAI.
 */
export function detectFormat(body: unknown): RequestFormat {
  // The Responses API has `input` (a string or items) where the other two have `messages`.
  if (isObject(body) && !('messages' in body) && (typeof body.input === 'string' || Array.isArray(body.input))) return 'responses';
  if (!isObject(body) || !Array.isArray(body.messages)) {
    throw new FormatError('request', 'an object with a "messages" array (OpenAI chat completions or Anthropic messages) or an "input" (OpenAI Responses)');
  }
  if ('system' in body || 'anthropic_version' in body || 'stop_sequences' in body || 'thinking' in body) return 'anthropic';
  for (const message of body.messages) {
    if (!isObject(message)) continue;
    if (message.role === 'system' || message.role === 'tool' || message.role === 'developer' || 'tool_calls' in message) return 'openai';
    if (Array.isArray(message.content)) {
      for (const block of message.content) {
        if (isObject(block) && typeof block.type === 'string' && ANTHROPIC_BLOCKS.has(block.type)) return 'anthropic';
        if (isObject(block) && block.type === 'image_url') return 'openai';
      }
    }
  }
  if (Array.isArray(body.tools) && body.tools.some((tool) => isObject(tool) && 'input_schema' in tool)) return 'anthropic';
  return 'openai';
}

export function parseRequest(body: unknown, format: RequestFormat = detectFormat(body)): ChatRequest {
  if (format === 'responses') return fromResponses(body);
  return format === 'anthropic' ? fromAnthropic(body) : fromOpenAI(body);
}

/** Writes a request back in its own format (neutral and vscode requests are written as OpenAI). */
export function serializeRequest(request: ChatRequest): JsonObject {
  if (request.format === 'responses') return toResponses(request);
  return request.format === 'anthropic' ? toAnthropic(request) : toOpenAI(request);
}
