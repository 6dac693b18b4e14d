/**
 * OpenAI Responses (`POST /v1/responses`). Every streamed event carries a `sequence_number`
 * and the item events an `output_index`; an answer continued over another round reaches the
 * client as one response: the first round's id throughout, output indexes in the order items
 * reach it (Herald's own `function_call` items never), sequence numbers without a gap, and a
 * final `response.completed` whose `output` lists exactly the items the client saw.
 *
 * Herald answers its own tools only on stateless requests (`store: false`, the client resends
 * every item): a stored response would be known upstream under an id the client never sees.
 */
import { fromResponses } from '../../core/chat/responses';
import type { ChatRequest } from '../../core/chat/types';
import type { OwnToolRound, ProviderUsage, ResponseChunk, WireEvent } from '../../core/flow/forwardTarget';
import { DeliveredStreamError } from '../upstream';
import { dataObject, withData, type SseEvent } from '../sse';
import { SseStreamWriter, writeJsonAnswer } from './clientOutput';
import { argumentsObject, heraldId, numberField, objectField, UsageTotals, type ClientOutput, type ClientWriter, type WireApi, type WireExchange } from './wireApi';

type Json = Record<string, unknown>;

const OPENING = new Set(['response.created', 'response.in_progress', 'response.queued']);
const CLOSING = new Set(['response.completed', 'response.incomplete', 'response.failed']);
const CALL_EVENTS = new Set(['response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.custom_tool_call_input.delta', 'response.custom_tool_call_input.done']);

export const responsesApi: WireApi = {
  id: 'responses',
  format: 'responses',
  provider: 'openai',
  upstreamPath: '/responses',
  errorBody: (status, message) => ({ error: { message, type: status >= 500 ? 'server_error' : status === 429 ? 'rate_limit_error' : 'invalid_request_error', param: null, code: status === 413 ? 'request_too_large' : status === 429 ? 'rate_limit_exceeded' : null } }),
  answersItself: (body) => body.store === false,
  exchange: () => new ResponsesExchange(),
};

/** Usage in the shared reading: the Responses API's input tokens include the cached ones. */
export function responsesUsage(usage: Json | undefined): ProviderUsage {
  const input = numberField(usage, 'input_tokens');
  const cached = numberField(objectField(usage, 'input_tokens_details'), 'cached_tokens');
  return { inputTokens: input === undefined ? undefined : input - (cached ?? 0), outputTokens: numberField(usage, 'output_tokens'), cacheReadTokens: cached };
}

/** A call item as the flow sees it: custom tools take free text, kept under `input`. */
function callChunk(item: Json, wire: readonly WireEvent[]): ResponseChunk {
  const custom = item.type === 'custom_tool_call';
  const input = custom ? { input: item.input } : argumentsObject(typeof item.arguments === 'string' ? item.arguments : '');
  return { type: 'tool_call', id: String(item.call_id ?? ''), name: String(item.name ?? ''), input, wire };
}

function isCallItem(item: Json | undefined): boolean {
  return item?.type === 'function_call' || item?.type === 'custom_tool_call';
}

function messageText(item: Json): string {
  const content = Array.isArray(item.content) ? (item.content as Json[]) : [];
  return content.map((part) => (part.type === 'output_text' && typeof part.text === 'string' ? part.text : '')).join('');
}

class ResponsesExchange implements WireExchange {
  /** The output items of the latest round, complete: what `continueAfter` puts back. */
  private items: Json[] = [];

  async *readStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ResponseChunk> {
    this.items = [];
    const calls = new Map<number, { id: string; name: string }>();
    for await (const event of events) {
      const data = dataObject(event);
      const type = typeof data?.type === 'string' ? data.type : event.event;
      if (!data || type === undefined) {
        yield { type: 'wire', wire: [event] };
        continue;
      }
      const outputIndex = typeof data.output_index === 'number' ? data.output_index : -1;
      if (OPENING.has(type)) {
        yield { type: 'wire', wire: [event], phase: 'opening' };
      } else if (CLOSING.has(type)) {
        yield { type: 'usage', usage: responsesUsage(objectField(objectField(data, 'response'), 'usage')) };
        yield { type: 'wire', wire: [event], phase: 'closing' };
      } else if (type === 'response.output_item.added') {
        const item = objectField(data, 'item');
        if (item && isCallItem(item)) {
          const call = { id: String(item.call_id ?? ''), name: String(item.name ?? '') };
          calls.set(outputIndex, call);
          yield { type: 'wire', wire: [event], call };
        } else yield { type: 'wire', wire: [event] };
      } else if (CALL_EVENTS.has(type) && calls.has(outputIndex)) {
        yield { type: 'wire', wire: [event], call: calls.get(outputIndex)! };
      } else if (type === 'response.output_text.delta' && typeof data.delta === 'string') {
        yield { type: 'text', text: data.delta, wire: [event] };
      } else if (type === 'response.output_item.done') {
        const item = objectField(data, 'item') ?? {};
        this.items.push(item);
        if (isCallItem(item)) yield callChunk(item, [event]);
        else if (item.type === 'message') yield { type: 'wire', wire: [event] };
        else yield { type: 'other', part: item, wire: [event] };
      } else if (type === 'error') {
        yield { type: 'wire', wire: [event] };
        throw new DeliveredStreamError(`Herald: the upstream reported an error in the stream: ${String(data.message ?? event.data)}`);
      } else {
        yield { type: 'wire', wire: [event] };
      }
    }
  }

  readJson(body: unknown): ResponseChunk[] {
    const response = (typeof body === 'object' && body !== null ? body : {}) as Json;
    const output = Array.isArray(response.output) ? (response.output as Json[]) : [];
    this.items = output;
    const chunks: ResponseChunk[] = [{ type: 'usage', usage: responsesUsage(objectField(response, 'usage')) }, { type: 'wire', wire: [{ data: response }], phase: 'opening' }];
    for (const item of output) {
      if (isCallItem(item)) chunks.push(callChunk(item, [{ data: item }]));
      else if (item.type === 'message') chunks.push({ type: 'text', text: messageText(item), wire: [{ data: item }] });
      else chunks.push({ type: 'other', part: item, wire: [{ data: item }] });
    }
    chunks.push({ type: 'wire', wire: [{ data: { status: response.status, incomplete_details: response.incomplete_details, error: response.error } }], phase: 'closing' });
    return chunks;
  }

  continueAfter(request: ChatRequest, round: OwnToolRound): ChatRequest {
    // Nothing is stored upstream (store: false): reasoning goes back with its encrypted content, other items without their ids.
    const items = this.items.flatMap((item): Json[] => {
      if (item.type === 'reasoning') return typeof item.encrypted_content === 'string' ? [item] : [];
      const { id: _id, ...rest } = item;
      return [rest];
    });
    const answers = round.calls.map(({ call, answer }) => ({ type: 'function_call_output', call_id: call.id, output: answer }));
    return { ...request, messages: [...request.messages, ...fromResponses({ input: [...items, ...answers] }).messages] };
  }

  writer(output: ClientOutput, stream: boolean): ClientWriter {
    return stream ? new ResponsesStreamWriter(output) : new ResponsesJsonWriter(output);
  }
}

class ResponsesStreamWriter extends SseStreamWriter {
  private readonly indexes = new Map<number, number>();
  private nextIndex = 0;
  private sequence = 0;
  private firstId: unknown;
  /** The items the client saw, by the index it saw them at. */
  private readonly shown: unknown[] = [];
  private own: { readonly response: Json; open?: { index: number; id: string; text: string } } | undefined;
  /** The provider's final event went out. */
  private completed = false;

  protected writeEvent(event: SseEvent): void {
    const data = dataObject(event);
    if (!data) {
      this.sse.send(event);
      return;
    }
    const out: Json = { ...data };
    let changed = false;
    const sequence = this.sequence++;
    if (typeof data.sequence_number === 'number' && data.sequence_number !== sequence) {
      out.sequence_number = sequence;
      changed = true;
    }
    if (typeof data.output_index === 'number') {
      if (data.type === 'response.output_item.added') this.indexes.set(data.output_index, this.nextIndex++);
      const index = this.indexes.get(data.output_index) ?? data.output_index;
      if (index !== data.output_index) {
        out.output_index = index;
        changed = true;
      }
      if (data.type === 'response.output_item.done') this.shown[index] = data.item;
    }
    const response = objectField(data, 'response');
    if (response) {
      this.firstId ??= response.id;
      const fixed: Json = { ...response };
      if (response.id !== this.firstId) fixed.id = this.firstId;
      const output = Array.isArray(response.output) ? response.output : [];
      if (CLOSING.has(String(data.type))) {
        this.completed = true;
        const shown = this.shown.filter((item) => item !== undefined);
        // The final response lists what the client saw: Herald's own calls never, every round's items otherwise.
        if (this.output.rounds() > 1 || output.length !== shown.length) fixed.output = shown;
        if (this.output.rounds() > 1) fixed.usage = totalsAsResponsesUsage(objectField(response, 'usage'), this.usage);
      }
      if (fixed.id !== response.id || fixed.output !== response.output || fixed.usage !== response.usage) {
        out.response = fixed;
        changed = true;
      }
    }
    this.sse.send(changed ? withData(event, out) : event);
  }

  /** A chunk without events (a cached answer): written as the Responses API would have streamed it. */
  protected writeOwn(chunk: ResponseChunk): void {
    const item = chunk.type === 'other' && typeof chunk.part === 'object' && chunk.part !== null ? (chunk.part as Json) : undefined;
    if (chunk.type !== 'text' && chunk.type !== 'tool_call' && !item) return;
    if (!this.own) {
      const response: Json = { id: heraldId('resp_'), object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'in_progress', model: this.output.model ?? '', output: [], usage: null };
      this.own = { response };
      this.emit('response.created', { response });
    }
    if (chunk.type === 'text') {
      if (!this.own.open) {
        const index = this.nextIndex++;
        const id = heraldId('msg_');
        this.own.open = { index, id, text: '' };
        this.emit('response.output_item.added', { output_index: index, item: { id, type: 'message', status: 'in_progress', role: 'assistant', content: [] } });
        this.emit('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      }
      this.own.open.text += chunk.text;
      this.emit('response.output_text.delta', { item_id: this.own.open.id, output_index: this.own.open.index, content_index: 0, delta: chunk.text });
    } else if (item) {
      // A whole item (reasoning): added and done at once.
      this.closeOwnText();
      const index = this.nextIndex++;
      this.emit('response.output_item.added', { output_index: index, item });
      this.emit('response.output_item.done', { output_index: index, item });
      this.shown[index] = item;
    } else if (chunk.type === 'tool_call') {
      this.closeOwnText();
      const index = this.nextIndex++;
      const call = { id: heraldId('fc_'), type: 'function_call', status: 'completed', call_id: chunk.id, name: chunk.name, arguments: JSON.stringify(chunk.input) };
      this.emit('response.output_item.added', { output_index: index, item: { ...call, status: 'in_progress', arguments: '' } });
      this.emit('response.function_call_arguments.delta', { item_id: call.id, output_index: index, delta: call.arguments });
      this.emit('response.function_call_arguments.done', { item_id: call.id, output_index: index, arguments: call.arguments });
      this.emit('response.output_item.done', { output_index: index, item: call });
      this.shown[index] = call;
    }
  }

  private closeOwnText(): void {
    const open = this.own?.open;
    if (!open) return;
    const part = { type: 'output_text', text: open.text, annotations: [] };
    const item = { id: open.id, type: 'message', status: 'completed', role: 'assistant', content: [part] };
    this.emit('response.output_text.done', { item_id: open.id, output_index: open.index, content_index: 0, text: open.text });
    this.emit('response.content_part.done', { item_id: open.id, output_index: open.index, content_index: 0, part });
    this.emit('response.output_item.done', { output_index: open.index, item });
    this.shown[open.index] = item;
    this.own!.open = undefined;
  }

  private emit(type: string, fields: Json): void {
    this.sse.send({ event: type, data: JSON.stringify({ type, ...fields, sequence_number: this.sequence++ }) });
  }

  finish(): void {
    if (this.own && !this.completed) {
      this.closeOwnText();
      this.emit('response.completed', { response: { ...this.own.response, status: 'completed', output: this.shown.filter((item) => item !== undefined) } });
    }
    this.sse.end();
  }

  failAfterStart(message: string): void {
    this.emit('error', { code: 'server_error', message, param: null });
    this.sse.end();
  }
}

function totalsAsResponsesUsage(usage: Json | undefined, totals: UsageTotals): Json {
  const input = totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens;
  return {
    ...(usage ?? {}),
    input_tokens: input,
    input_tokens_details: { ...(objectField(usage, 'input_tokens_details') ?? {}), cached_tokens: totals.cacheReadTokens },
    output_tokens: totals.outputTokens,
    total_tokens: input + totals.outputTokens,
  };
}

class ResponsesJsonWriter implements ClientWriter {
  started = false;
  private readonly usage = new UsageTotals();
  private response: Json | undefined;
  private closing: Json = {};
  private readonly output: unknown[] = [];

  constructor(private readonly client: ClientOutput) {}

  write(chunk: ResponseChunk): void {
    if (chunk.type === 'usage') this.usage.add(chunk.usage);
    else if (chunk.type === 'wire') {
      const data = chunk.wire[0]?.data as Json | undefined;
      if (chunk.phase === 'opening') this.response = data;
      else if (chunk.phase === 'closing' && data) this.closing = data;
    } else if (chunk.wire !== undefined) this.output.push(...chunk.wire.map((event) => event.data));
    else if (chunk.type === 'text') this.output.push({ id: heraldId('msg_'), type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text: chunk.text, annotations: [] }] });
    else if (chunk.type === 'tool_call') this.output.push({ id: heraldId('fc_'), type: 'function_call', status: 'completed', call_id: chunk.id, name: chunk.name, arguments: JSON.stringify(chunk.input) });
  }

  finish(): void {
    this.started = true;
    const base: Json = this.response ?? { id: heraldId('resp_'), object: 'response', created_at: Math.floor(Date.now() / 1000), status: 'completed', model: this.client.model ?? '', output: [], usage: null };
    const body: Json = { ...base, output: this.output };
    for (const field of ['status', 'incomplete_details', 'error'] as const) if (this.closing[field] !== undefined) body[field] = this.closing[field];
    if (this.client.rounds() > 1) body.usage = totalsAsResponsesUsage(objectField(base, 'usage'), this.usage);
    writeJsonAnswer(this.client, body);
  }

  failAfterStart(): void {
    // A JSON answer is written whole at the end, so it never fails after it started.
  }
}
