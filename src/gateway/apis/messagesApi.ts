/**
 * Anthropic Messages (`POST /v1/messages`). A streamed answer's content blocks carry an
 * `index`; when Herald answers its own `tool_use` blocks and continues the answer over another
 * round, the client sees one message: one `message_start`, the blocks renumbered in the order
 * they reach it (Herald's own blocks never), one `message_delta` with the usage of every
 * round summed, one `message_stop`.
 */
import { fromAnthropic } from '../../core/chat/anthropic';
import type { ChatRequest } from '../../core/chat/types';
import type { OwnToolRound, ResponseChunk } from '../../core/flow/forwardTarget';
import { DeliveredStreamError } from '../upstream';
import { dataObject, withData, type SseEvent } from '../sse';
import { SseStreamWriter, writeJsonAnswer } from './clientOutput';
import { argumentsObject, heraldId, numberField, objectField, UsageTotals, type ClientOutput, type ClientWriter, type WireApi, type WireExchange } from './wireApi';

type Json = Record<string, unknown>;

export const messagesApi: WireApi = {
  id: 'messages',
  format: 'anthropic',
  provider: 'anthropic',
  upstreamPath: '/v1/messages',
  errorBody: (status, message) => ({ type: 'error', error: { type: errorType(status), message } }),
  answersItself: () => true,
  exchange: () => new MessagesExchange(),
};

function errorType(status: number): string {
  if (status === 413) return 'request_too_large';
  if (status === 401) return 'authentication_error';
  if (status === 404) return 'not_found_error';
  if (status === 429) return 'rate_limit_error';
  if (status === 503 || status === 529) return 'overloaded_error';
  if (status >= 500) return 'api_error';
  return 'invalid_request_error';
}

/** A content block as it is being streamed. */
interface OpenBlock {
  readonly block: Json;
  json: string;
}

class MessagesExchange implements WireExchange {
  /** The blocks of the latest round, complete, in order: what `continueAfter` puts back. */
  private blocks: Json[] = [];

  async *readStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ResponseChunk> {
    this.blocks = [];
    const open = new Map<number, OpenBlock>();
    for await (const event of events) {
      const data = dataObject(event);
      const type = data?.type;
      if (!data || typeof type !== 'string') {
        yield { type: 'wire', wire: [event] };
        continue;
      }
      const index = typeof data.index === 'number' ? data.index : -1;
      switch (type) {
        case 'message_start': {
          const usage = objectField(data.message, 'usage');
          yield { type: 'usage', usage: { inputTokens: numberField(usage, 'input_tokens'), cacheReadTokens: numberField(usage, 'cache_read_input_tokens'), cacheWriteTokens: numberField(usage, 'cache_creation_input_tokens') } };
          yield { type: 'wire', wire: [event], phase: 'opening' };
          break;
        }
        case 'content_block_start': {
          const block = { ...(objectField(data, 'content_block') ?? {}) };
          open.set(index, { block, json: '' });
          if (block.type === 'tool_use') yield { type: 'wire', wire: [event], call: { id: String(block.id ?? ''), name: String(block.name ?? '') } };
          else if (block.type === 'text' && typeof block.text === 'string' && block.text.length > 0) yield { type: 'text', text: block.text, wire: [event] };
          else yield { type: 'wire', wire: [event] };
          break;
        }
        case 'content_block_delta': {
          const current = open.get(index);
          const delta = objectField(data, 'delta') ?? {};
          if (current) applyDelta(current, delta);
          if (delta.type === 'text_delta' && typeof delta.text === 'string') yield { type: 'text', text: delta.text, wire: [event] };
          else if (current?.block.type === 'tool_use') yield { type: 'wire', wire: [event], call: { id: String(current.block.id ?? ''), name: String(current.block.name ?? '') } };
          else yield { type: 'wire', wire: [event] };
          break;
        }
        case 'content_block_stop': {
          const current = open.get(index);
          open.delete(index);
          if (!current) {
            yield { type: 'wire', wire: [event] };
            break;
          }
          const block = current.block.type === 'tool_use' ? { ...current.block, input: argumentsObject(current.json) } : current.block;
          this.blocks.push(block);
          if (block.type === 'tool_use') yield { type: 'tool_call', id: String(block.id ?? ''), name: String(block.name ?? ''), input: block.input as object, wire: [event] };
          else if (block.type === 'text') yield { type: 'wire', wire: [event] };
          else yield { type: 'other', part: block, wire: [event] };
          break;
        }
        case 'message_delta':
          yield { type: 'usage', usage: { outputTokens: numberField(objectField(data, 'usage'), 'output_tokens') } };
          yield { type: 'wire', wire: [event], phase: 'closing' };
          break;
        case 'message_stop':
          yield { type: 'wire', wire: [event], phase: 'closing' };
          break;
        case 'error':
          // The client gets the provider's own error event as it came; the flow records the failure.
          yield { type: 'wire', wire: [event] };
          throw new DeliveredStreamError(`Herald: the upstream reported an error in the stream: ${String(objectField(data, 'error')?.message ?? event.data)}`);
        default:
          yield { type: 'wire', wire: [event] };
      }
    }
  }

  readJson(body: unknown): ResponseChunk[] {
    const message = (typeof body === 'object' && body !== null ? body : {}) as Json;
    const content = Array.isArray(message.content) ? (message.content as Json[]) : [];
    this.blocks = content;
    const usage = objectField(message, 'usage');
    const chunks: ResponseChunk[] = [
      { type: 'usage', usage: { inputTokens: numberField(usage, 'input_tokens'), outputTokens: numberField(usage, 'output_tokens'), cacheReadTokens: numberField(usage, 'cache_read_input_tokens'), cacheWriteTokens: numberField(usage, 'cache_creation_input_tokens') } },
      { type: 'wire', wire: [{ data: message }], phase: 'opening' },
    ];
    for (const block of content) {
      if (block.type === 'text' && typeof block.text === 'string') chunks.push({ type: 'text', text: block.text, wire: [{ data: block }] });
      else if (block.type === 'tool_use') chunks.push({ type: 'tool_call', id: String(block.id ?? ''), name: String(block.name ?? ''), input: (typeof block.input === 'object' && block.input !== null ? block.input : {}) as object, wire: [{ data: block }] });
      else chunks.push({ type: 'other', part: block, wire: [{ data: block }] });
    }
    chunks.push({ type: 'wire', wire: [{ data: { stop_reason: message.stop_reason, stop_sequence: message.stop_sequence } }], phase: 'closing' });
    return chunks;
  }

  continueAfter(request: ChatRequest, round: OwnToolRound): ChatRequest {
    // Every block of the round goes back as the model wrote it: thinking (with its signature) must precede tool_use.
    const answers = round.calls.map(({ call, answer, isError }) => ({ type: 'tool_result', tool_use_id: call.id, content: answer, ...(isError ? { is_error: true } : {}) }));
    const appended = fromAnthropic({ messages: [{ role: 'assistant', content: this.blocks }, { role: 'user', content: answers }] }).messages;
    return { ...request, messages: [...request.messages, ...appended] };
  }

  writer(output: ClientOutput, stream: boolean): ClientWriter {
    return stream ? new MessagesStreamWriter(output) : new MessagesJsonWriter(output);
  }
}

function applyDelta(current: OpenBlock, delta: Json): void {
  const block = current.block;
  if (delta.type === 'text_delta' && typeof delta.text === 'string') block.text = String(block.text ?? '') + delta.text;
  else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') current.json += delta.partial_json;
  else if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string') block.thinking = String(block.thinking ?? '') + delta.thinking;
  else if (delta.type === 'signature_delta' && typeof delta.signature === 'string') block.signature = String(block.signature ?? '') + delta.signature;
  else if (delta.type === 'citations_delta' && delta.citation !== undefined) block.citations = [...(Array.isArray(block.citations) ? block.citations : []), delta.citation];
}

/** The stop reason the client should see: `tool_use` only when a tool_use block reached it. */
function visibleStopReason(reason: unknown, toolUseShown: boolean): unknown {
  return reason === 'tool_use' && !toolUseShown ? 'end_turn' : reason;
}

class MessagesStreamWriter extends SseStreamWriter {
  /** Upstream block index → the index the client sees, for the blocks of the round being written. */
  private readonly indexes = new Map<number, number>();
  private nextIndex = 0;
  private toolUseShown = false;
  private opened = false;
  private stopped = false;
  /** The block Herald is writing itself (a cached answer), if one is open. */
  private ownText: number | undefined;
  /** Herald wrote content itself (a cached answer, or a provider's whole answer to a stream request). */
  private ownWritten = false;

  protected writeEvent(event: SseEvent): void {
    const data = dataObject(event);
    if (!data) {
      this.sse.send(event);
      return;
    }
    switch (data.type) {
      case 'message_start':
        this.opened = true;
        this.sse.send(event);
        return;
      case 'content_block_start': {
        const index = this.nextIndex++;
        this.indexes.set(Number(data.index), index);
        if (objectField(data, 'content_block')?.type === 'tool_use') this.toolUseShown = true;
        this.sse.send(index === data.index ? event : withData(event, { ...data, index }));
        return;
      }
      case 'content_block_delta':
      case 'content_block_stop': {
        const index = this.indexes.get(Number(data.index)) ?? Number(data.index);
        this.sse.send(index === data.index ? event : withData(event, { ...data, index }));
        return;
      }
      case 'message_delta': {
        const delta = objectField(data, 'delta') ?? {};
        const reason = visibleStopReason(delta.stop_reason, this.toolUseShown);
        const rounds = this.output.rounds();
        if (reason === delta.stop_reason && rounds <= 1) {
          this.sse.send(event);
          return;
        }
        const usage = { ...(objectField(data, 'usage') ?? {}) };
        if (rounds > 1) {
          // One message for the client, so its usage is every round's: what the provider billed.
          usage.output_tokens = this.usage.outputTokens;
          usage.input_tokens = this.usage.inputTokens;
          usage.cache_read_input_tokens = this.usage.cacheReadTokens;
          usage.cache_creation_input_tokens = this.usage.cacheWriteTokens;
        }
        this.sse.send(withData(event, { ...data, delta: { ...delta, stop_reason: reason }, usage }));
        return;
      }
      case 'message_stop':
        this.stopped = true;
        this.sse.send(event);
        return;
      default:
        this.sse.send(event);
    }
  }

  /** A chunk without events (a cached answer): written as Anthropic would have streamed it. */
  protected writeOwn(chunk: ResponseChunk): void {
    const block = chunk.type === 'other' && typeof chunk.part === 'object' && chunk.part !== null ? (chunk.part as Json) : undefined;
    if (chunk.type !== 'text' && chunk.type !== 'tool_call' && !block) return;
    this.ownWritten = true;
    if (!this.opened) {
      this.opened = true;
      this.send('message_start', { type: 'message_start', message: { id: heraldId('msg_'), type: 'message', role: 'assistant', model: this.output.model ?? '', content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } } });
    }
    if (chunk.type === 'text') {
      if (this.ownText === undefined) {
        this.ownText = this.nextIndex++;
        this.send('content_block_start', { type: 'content_block_start', index: this.ownText, content_block: { type: 'text', text: '' } });
      }
      this.send('content_block_delta', { type: 'content_block_delta', index: this.ownText, delta: { type: 'text_delta', text: chunk.text } });
    } else if (block) {
      // A whole block (thinking with its signature): one start carrying it, then its stop.
      this.closeOwnText();
      const index = this.nextIndex++;
      this.send('content_block_start', { type: 'content_block_start', index, content_block: block });
      this.send('content_block_stop', { type: 'content_block_stop', index });
    } else if (chunk.type === 'tool_call') {
      this.closeOwnText();
      const index = this.nextIndex++;
      this.toolUseShown = true;
      this.send('content_block_start', { type: 'content_block_start', index, content_block: { type: 'tool_use', id: chunk.id, name: chunk.name, input: {} } });
      this.send('content_block_delta', { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(chunk.input) } });
      this.send('content_block_stop', { type: 'content_block_stop', index });
    }
  }

  private closeOwnText(): void {
    if (this.ownText === undefined) return;
    this.send('content_block_stop', { type: 'content_block_stop', index: this.ownText });
    this.ownText = undefined;
  }

  private send(name: string, data: Json): void {
    this.sse.send({ event: name, data: JSON.stringify(data) });
  }

  finish(): void {
    if (this.ownWritten && !this.stopped) {
      this.closeOwnText();
      this.send('message_delta', { type: 'message_delta', delta: { stop_reason: this.toolUseShown ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: 0 } });
      this.send('message_stop', { type: 'message_stop' });
    }
    this.sse.end();
  }

  failAfterStart(message: string): void {
    this.send('error', { type: 'error', error: { type: 'api_error', message } });
    this.sse.end();
  }
}

class MessagesJsonWriter implements ClientWriter {
  started = false;
  private readonly usage = new UsageTotals();
  private message: Json | undefined;
  private closing: Json = {};
  private readonly content: unknown[] = [];

  constructor(private readonly output: ClientOutput) {}

  write(chunk: ResponseChunk): void {
    if (chunk.type === 'usage') this.usage.add(chunk.usage);
    else if (chunk.type === 'wire') {
      const data = chunk.wire[0]?.data as Json | undefined;
      if (chunk.phase === 'opening') this.message = data;
      else if (chunk.phase === 'closing' && data) this.closing = data;
    } else if (chunk.wire !== undefined) this.content.push(...chunk.wire.map((event) => event.data));
    else if (chunk.type === 'text') this.content.push({ type: 'text', text: chunk.text });
    else if (chunk.type === 'tool_call') this.content.push({ type: 'tool_use', id: chunk.id, name: chunk.name, input: chunk.input });
  }

  finish(): void {
    this.started = true;
    const toolUseShown = this.content.some((block) => (block as Json).type === 'tool_use');
    const base: Json = this.message ?? { id: heraldId('msg_'), type: 'message', role: 'assistant', model: this.output.model ?? '', content: [], stop_reason: toolUseShown ? 'tool_use' : 'end_turn', stop_sequence: null, usage: { input_tokens: 0, output_tokens: 0 } };
    const body: Json = { ...base, content: this.content };
    if ('stop_reason' in this.closing) body.stop_reason = visibleStopReason(this.closing.stop_reason, toolUseShown);
    if ('stop_sequence' in this.closing) body.stop_sequence = this.closing.stop_sequence;
    if (this.output.rounds() > 1) {
      body.usage = { ...(objectField(base, 'usage') ?? {}), input_tokens: this.usage.inputTokens, output_tokens: this.usage.outputTokens, cache_read_input_tokens: this.usage.cacheReadTokens, cache_creation_input_tokens: this.usage.cacheWriteTokens };
    }
    writeJsonAnswer(this.output, body);
  }

  failAfterStart(): void {
    // A JSON answer is written whole at the end, so it never fails after it started.
  }
}
