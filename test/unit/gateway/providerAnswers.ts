/**
 * Answers in each provider's own wire shape, as the provider streams them (the event names,
 * fields and order of Anthropic Messages, Chat Completions and the Responses API), for the
 * fake upstream to play.
 */
import type { StreamEvent } from './fakeUpstream';

export type AnthropicBlock =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'thinking'; readonly thinking: string; readonly signature: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly input: object };

export interface AnthropicAnswer {
  readonly id?: string;
  readonly blocks: readonly AnthropicBlock[];
  readonly stopReason?: string;
  readonly usage?: { readonly input: number; readonly output: number; readonly cacheRead?: number };
}

/** Text cut in pieces of at most `size` characters, as deltas arrive. */
function pieces(text: string, size = 7): string[] {
  const out: string[] = [];
  for (let index = 0; index < text.length; index += size) out.push(text.slice(index, index + size));
  return out.length > 0 ? out : [''];
}

export function anthropicEvents(answer: AnthropicAnswer): StreamEvent[] {
  const usage = answer.usage ?? { input: 100, output: 20 };
  const events: StreamEvent[] = [
    { event: 'message_start', data: { type: 'message_start', message: { id: answer.id ?? 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead ?? 0, cache_creation_input_tokens: 0, output_tokens: 1 } } } },
    { event: 'ping', data: { type: 'ping' } },
  ];
  answer.blocks.forEach((block, index) => {
    if (block.type === 'text') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      for (const text of pieces(block.text)) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text } } });
    } else if (block.type === 'thinking') {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } } });
      for (const thinking of pieces(block.thinking)) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking } } });
      events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: block.signature } } });
    } else {
      events.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } } });
      for (const partial of pieces(JSON.stringify(block.input), 5)) events.push({ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: partial } } });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  const stop = answer.stopReason ?? (answer.blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
  events.push({ event: 'message_delta', data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: usage.output } } });
  events.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return events;
}

export function anthropicMessage(answer: AnthropicAnswer): Record<string, unknown> {
  const usage = answer.usage ?? { input: 100, output: 20 };
  return {
    id: answer.id ?? 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'claude-sonnet-4-5',
    content: answer.blocks,
    stop_reason: answer.stopReason ?? (answer.blocks.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn'),
    stop_sequence: null,
    usage: { input_tokens: usage.input, cache_read_input_tokens: usage.cacheRead ?? 0, cache_creation_input_tokens: 0, output_tokens: usage.output },
  };
}

export interface ChatAnswer {
  readonly id?: string;
  readonly text?: string;
  readonly calls?: readonly { readonly id: string; readonly name: string; readonly arguments: string }[];
  readonly usage?: { readonly prompt: number; readonly completion: number; readonly cached?: number };
}

export function chatEvents(answer: ChatAnswer): StreamEvent[] {
  const id = answer.id ?? 'chatcmpl-1';
  const chunk = (delta: object, finish: string | null = null, extra: object = {}) => ({ data: { id, object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o', choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...extra } });
  const events: StreamEvent[] = [chunk({ role: 'assistant', content: '', refusal: null })];
  for (const text of answer.text ? pieces(answer.text) : []) events.push(chunk({ content: text }));
  (answer.calls ?? []).forEach((call, index) => {
    events.push(chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } }] }));
    for (const part of pieces(call.arguments, 6)) events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
  });
  events.push(chunk({}, (answer.calls ?? []).length > 0 ? 'tool_calls' : 'stop'));
  if (answer.usage) events.push({ data: { id, object: 'chat.completion.chunk', created: 1700000000, model: 'gpt-4o', choices: [], usage: { prompt_tokens: answer.usage.prompt, completion_tokens: answer.usage.completion, total_tokens: answer.usage.prompt + answer.usage.completion, prompt_tokens_details: { cached_tokens: answer.usage.cached ?? 0 } } } });
  events.push({ data: '[DONE]' });
  return events;
}

export function chatCompletion(answer: ChatAnswer): Record<string, unknown> {
  const calls = answer.calls ?? [];
  const usage = answer.usage ?? { prompt: 100, completion: 20 };
  return {
    id: answer.id ?? 'chatcmpl-1',
    object: 'chat.completion',
    created: 1700000000,
    model: 'gpt-4o',
    choices: [{ index: 0, message: { role: 'assistant', content: answer.text ?? null, refusal: null, ...(calls.length > 0 ? { tool_calls: calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) } : {}) }, logprobs: null, finish_reason: calls.length > 0 ? 'tool_calls' : 'stop' }],
    usage: { prompt_tokens: usage.prompt, completion_tokens: usage.completion, total_tokens: usage.prompt + usage.completion, prompt_tokens_details: { cached_tokens: usage.cached ?? 0 } },
  };
}

export type ResponsesItem =
  | { readonly type: 'reasoning'; readonly id: string; readonly summary: string; readonly encrypted?: string }
  | { readonly type: 'message'; readonly id: string; readonly text: string }
  | { readonly type: 'function_call'; readonly id: string; readonly call_id: string; readonly name: string; readonly arguments: string };

export interface ResponsesAnswer {
  readonly id?: string;
  readonly items: readonly ResponsesItem[];
  readonly usage?: { readonly input: number; readonly output: number; readonly cached?: number };
}

function outputItem(item: ResponsesItem): Record<string, unknown> {
  if (item.type === 'reasoning') return { id: item.id, type: 'reasoning', summary: [{ type: 'summary_text', text: item.summary }], ...(item.encrypted ? { encrypted_content: item.encrypted } : {}) };
  if (item.type === 'message') return { id: item.id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: item.text, annotations: [], logprobs: [] }] };
  return { id: item.id, type: 'function_call', status: 'completed', call_id: item.call_id, name: item.name, arguments: item.arguments };
}

export function responseObject(answer: ResponsesAnswer, status = 'completed'): Record<string, unknown> {
  const usage = answer.usage ?? { input: 100, output: 20 };
  return {
    id: answer.id ?? 'resp_1',
    object: 'response',
    created_at: 1700000000,
    status,
    model: 'gpt-5',
    output: status === 'completed' ? answer.items.map(outputItem) : [],
    usage: status === 'completed' ? { input_tokens: usage.input, input_tokens_details: { cached_tokens: usage.cached ?? 0 }, output_tokens: usage.output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: usage.input + usage.output } : null,
  };
}

export function responsesEvents(answer: ResponsesAnswer): StreamEvent[] {
  const events: StreamEvent[] = [];
  const push = (type: string, fields: object): void => {
    events.push({ event: type, data: { type, ...fields, sequence_number: events.length } });
  };
  push('response.created', { response: responseObject(answer, 'in_progress') });
  push('response.in_progress', { response: responseObject(answer, 'in_progress') });
  answer.items.forEach((item, outputIndex) => {
    const done = outputItem(item);
    if (item.type === 'reasoning') {
      push('response.output_item.added', { output_index: outputIndex, item: { ...done, summary: [] } });
      push('response.reasoning_summary_part.added', { item_id: item.id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: '' } });
      push('response.reasoning_summary_text.delta', { item_id: item.id, output_index: outputIndex, summary_index: 0, delta: item.summary });
      push('response.reasoning_summary_text.done', { item_id: item.id, output_index: outputIndex, summary_index: 0, text: item.summary });
      push('response.reasoning_summary_part.done', { item_id: item.id, output_index: outputIndex, summary_index: 0, part: { type: 'summary_text', text: item.summary } });
    } else if (item.type === 'message') {
      push('response.output_item.added', { output_index: outputIndex, item: { ...done, status: 'in_progress', content: [] } });
      push('response.content_part.added', { item_id: item.id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: '', annotations: [], logprobs: [] } });
      for (const delta of pieces(item.text)) push('response.output_text.delta', { item_id: item.id, output_index: outputIndex, content_index: 0, delta, logprobs: [] });
      push('response.output_text.done', { item_id: item.id, output_index: outputIndex, content_index: 0, text: item.text, logprobs: [] });
      push('response.content_part.done', { item_id: item.id, output_index: outputIndex, content_index: 0, part: { type: 'output_text', text: item.text, annotations: [], logprobs: [] } });
    } else {
      push('response.output_item.added', { output_index: outputIndex, item: { ...done, status: 'in_progress', arguments: '' } });
      for (const delta of pieces(item.arguments, 6)) push('response.function_call_arguments.delta', { item_id: item.id, output_index: outputIndex, delta });
      push('response.function_call_arguments.done', { item_id: item.id, output_index: outputIndex, arguments: item.arguments });
    }
    push('response.output_item.done', { output_index: outputIndex, item: done });
  });
  push('response.completed', { response: responseObject(answer) });
  return events;
}
