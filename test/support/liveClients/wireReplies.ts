/**
 * The scripted provider's answers in each API's own shape, streamed as the real providers stream
 * them (Anthropic's `message_start` … `message_stop` events with usage in `message_start`; the
 * Responses API's `response.created` … `response.completed` with sequence numbers and the final
 * output list; Chat Completions chunks, a usage chunk when `stream_options.include_usage`, `[DONE]`),
 * or as one JSON body when the request did not stream.
 */
import type * as http from 'node:http';
import type { RequestBill } from '../../../src/core/costs/cacheBilling';
import type { AgentCall } from './agentScript';

/** What one answer says: a tool call (with its id) or a text. */
export type ReplyContent = { readonly kind: 'call'; readonly id: string; readonly call: AgentCall } | { readonly kind: 'text'; readonly text: string };

export interface ReplyFrame {
  readonly model: string;
  /** An id for the answer itself (message, response or completion). */
  readonly answerId: string;
  readonly bill: RequestBill;
  readonly outputTokens: number;
  readonly stream: boolean;
  /** Chat Completions: the client asked for a usage chunk. */
  readonly includeUsage?: boolean;
}

function sse(response: http.ServerResponse, event: string | undefined, data: unknown): void {
  response.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

function startStream(response: http.ServerResponse): void {
  response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache', connection: 'keep-alive' });
}

function sendJson(response: http.ServerResponse, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

/** Anthropic's usage object for a bill. */
export function anthropicUsageOf(bill: RequestBill, outputTokens: number): Record<string, number> {
  return { input_tokens: bill.freshTokens, cache_creation_input_tokens: bill.cacheWriteTokens, cache_read_input_tokens: bill.cacheReadTokens, output_tokens: outputTokens };
}

export function writeAnthropic(response: http.ServerResponse, content: ReplyContent, frame: ReplyFrame): void {
  const block = content.kind === 'call' ? { type: 'tool_use', id: content.id, name: content.call.name, input: content.call.input } : { type: 'text', text: content.text };
  const stopReason = content.kind === 'call' ? 'tool_use' : 'end_turn';
  const usage = anthropicUsageOf(frame.bill, frame.outputTokens);
  if (!frame.stream) {
    sendJson(response, { id: frame.answerId, type: 'message', role: 'assistant', model: frame.model, content: [block], stop_reason: stopReason, stop_sequence: null, usage });
    return;
  }
  startStream(response);
  const event = (type: string, data: Record<string, unknown>): void => sse(response, type, { type, ...data });
  event('message_start', { message: { id: frame.answerId, type: 'message', role: 'assistant', model: frame.model, content: [], stop_reason: null, stop_sequence: null, usage: { ...usage, output_tokens: 1 } } });
  if (content.kind === 'call') {
    event('content_block_start', { index: 0, content_block: { type: 'tool_use', id: content.id, name: content.call.name, input: {} } });
    const json = JSON.stringify(content.call.input);
    const middle = Math.ceil(json.length / 2);
    for (const piece of [json.slice(0, middle), json.slice(middle)]) event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: piece } });
  } else {
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    event('ping', {});
    for (const piece of splitText(content.text)) event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } });
  }
  event('content_block_stop', { index: 0 });
  event('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: frame.outputTokens } });
  event('message_stop', {});
  response.end();
}

function splitText(text: string): string[] {
  const pieces = text.match(/[\s\S]{1,40}/g);
  return pieces ?? [''];
}

/** The Responses API's usage object for a bill. */
export function responsesUsageOf(bill: RequestBill, outputTokens: number): Record<string, unknown> {
  return { input_tokens: bill.totalTokens, input_tokens_details: { cached_tokens: bill.cacheReadTokens }, output_tokens: outputTokens, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: bill.totalTokens + outputTokens };
}

export function writeResponses(response: http.ServerResponse, content: ReplyContent, frame: ReplyFrame): void {
  const itemId = `${content.kind === 'call' ? 'fc' : 'msg'}_${frame.answerId}`;
  const item =
    content.kind === 'call'
      ? { type: 'function_call', id: itemId, status: 'completed', arguments: JSON.stringify(content.call.input), call_id: content.id, name: content.call.name }
      : { type: 'message', id: itemId, status: 'completed', role: 'assistant', content: [{ type: 'output_text', annotations: [], text: content.text }] };
  const base = { id: `resp_${frame.answerId}`, object: 'response', created_at: 1_760_000_000, model: frame.model, parallel_tool_calls: true, store: false, tools: [], error: null, incomplete_details: null };
  const completed = { ...base, status: 'completed', output: [item], usage: responsesUsageOf(frame.bill, frame.outputTokens) };
  if (!frame.stream) {
    sendJson(response, completed);
    return;
  }
  startStream(response);
  let sequence = 0;
  const event = (type: string, data: Record<string, unknown>): void => sse(response, type, { type, sequence_number: sequence++, ...data });
  event('response.created', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  event('response.in_progress', { response: { ...base, status: 'in_progress', output: [], usage: null } });
  if (item.type === 'function_call') {
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', arguments: '' } });
    event('response.function_call_arguments.delta', { item_id: itemId, output_index: 0, delta: item.arguments });
    event('response.function_call_arguments.done', { item_id: itemId, output_index: 0, arguments: item.arguments });
  } else {
    const text = content.kind === 'text' ? content.text : '';
    event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } });
    event('response.content_part.added', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', annotations: [], text: '' } });
    for (const piece of splitText(text)) event('response.output_text.delta', { item_id: itemId, output_index: 0, content_index: 0, delta: piece });
    event('response.output_text.done', { item_id: itemId, output_index: 0, content_index: 0, text });
    event('response.content_part.done', { item_id: itemId, output_index: 0, content_index: 0, part: { type: 'output_text', annotations: [], text } });
  }
  event('response.output_item.done', { output_index: 0, item });
  event('response.completed', { response: completed });
  response.end();
}

/** Chat Completions' usage object for a bill. */
export function chatUsageOf(bill: RequestBill, outputTokens: number): Record<string, unknown> {
  return { prompt_tokens: bill.totalTokens, completion_tokens: outputTokens, total_tokens: bill.totalTokens + outputTokens, prompt_tokens_details: { cached_tokens: bill.cacheReadTokens } };
}

export function writeChat(response: http.ServerResponse, content: ReplyContent, frame: ReplyFrame): void {
  const id = `chatcmpl-${frame.answerId}`;
  const created = 1_760_000_000;
  const finish = content.kind === 'call' ? 'tool_calls' : 'stop';
  const usage = chatUsageOf(frame.bill, frame.outputTokens);
  const toolCall = content.kind === 'call' ? { id: content.id, type: 'function', function: { name: content.call.name, arguments: JSON.stringify(content.call.input) } } : undefined;
  if (!frame.stream) {
    const message = toolCall ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: content.kind === 'text' ? content.text : '' };
    sendJson(response, { id, object: 'chat.completion', created, model: frame.model, choices: [{ index: 0, message, finish_reason: finish }], usage });
    return;
  }
  startStream(response);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null): void => sse(response, undefined, { id, object: 'chat.completion.chunk', created, model: frame.model, choices: [{ index: 0, delta, finish_reason: finishReason }] });
  if (toolCall) {
    chunk({ role: 'assistant', content: null, tool_calls: [{ index: 0, id: toolCall.id, type: 'function', function: { name: toolCall.function.name, arguments: '' } }] }, null);
    chunk({ tool_calls: [{ index: 0, function: { arguments: toolCall.function.arguments } }] }, null);
  } else {
    chunk({ role: 'assistant', content: '' }, null);
    for (const piece of splitText(content.kind === 'text' ? content.text : '')) chunk({ content: piece }, null);
  }
  chunk({}, finish);
  if (frame.includeUsage) sse(response, undefined, { id, object: 'chat.completion.chunk', created, model: frame.model, choices: [], usage });
  sse(response, undefined, '[DONE]');
  response.end();
}
