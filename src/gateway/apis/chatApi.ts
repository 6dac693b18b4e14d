/**
 * OpenAI Chat Completions (`POST /v1/chat/completions`). A streamed answer's tool calls carry
 * an `index` and only their first delta an `id`; Herald's own calls are kept from the client
 * from that first delta, the client's renumbered in the order they reach it, and an answer
 * continued over another round keeps the first round's completion id, with one finish chunk.
 */
import { fromOpenAI } from '../../core/chat/openai';
import type { ChatRequest } from '../../core/chat/types';
import type { OwnToolRound, ProviderUsage, ResponseChunk } from '../../core/flow/forwardTarget';
import { DeliveredStreamError } from '../upstream';
import { dataObject, withData, type SseEvent } from '../sse';
import { SseStreamWriter, writeJsonAnswer } from './clientOutput';
import { argumentsObject, heraldId, numberField, objectField, UsageTotals, type ClientOutput, type ClientWriter, type WireApi, type WireExchange } from './wireApi';

type Json = Record<string, unknown>;

export const chatApi: WireApi = {
  id: 'chat',
  format: 'openai',
  provider: 'openai',
  upstreamPath: '/chat/completions',
  errorBody: (status, message) => ({ error: { message, type: status >= 500 ? 'server_error' : status === 429 ? 'rate_limit_error' : 'invalid_request_error', param: null, code: status === 413 ? 'request_too_large' : status === 429 ? 'rate_limit_exceeded' : null } }),
  // With several choices there is no one answer to continue.
  answersItself: (body) => body.n === undefined || body.n === 1,
  exchange: () => new ChatExchange(),
};

/** Usage in the shared reading: OpenAI's prompt tokens include the cached ones. */
export function chatUsage(usage: Json | undefined): ProviderUsage {
  const prompt = numberField(usage, 'prompt_tokens');
  const cached = numberField(objectField(usage, 'prompt_tokens_details'), 'cached_tokens');
  return { inputTokens: prompt === undefined ? undefined : prompt - (cached ?? 0), outputTokens: numberField(usage, 'completion_tokens'), cacheReadTokens: cached };
}

interface StreamedCall {
  readonly id: string;
  readonly name: string;
  arguments: string;
}

class ChatExchange implements WireExchange {
  /** The raw argument text of each call of the latest round, by call id. */
  private readonly rawArguments = new Map<string, string>();

  async *readStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ResponseChunk> {
    const calls = new Map<number, StreamedCall>();
    let flushed = false;
    const flush = (): ResponseChunk[] => {
      if (flushed) return [];
      flushed = true;
      return [...calls].sort((a, b) => a[0] - b[0]).map(([, call]) => {
        this.rawArguments.set(call.id, call.arguments);
        return { type: 'tool_call', id: call.id, name: call.name, input: argumentsObject(call.arguments), wire: [] };
      });
    };
    for await (const event of events) {
      if (event.data === '[DONE]') {
        yield* flush();
        yield { type: 'wire', wire: [event], phase: 'closing' };
        continue;
      }
      const data = dataObject(event);
      if (!data) {
        yield { type: 'wire', wire: [event] };
        continue;
      }
      if (data.error !== undefined) {
        yield { type: 'wire', wire: [event] };
        throw new DeliveredStreamError(`Herald: the upstream reported an error in the stream: ${String(objectField(data, 'error')?.message ?? event.data)}`);
      }
      const choices = Array.isArray(data.choices) ? (data.choices as Json[]) : [];
      const usage = objectField(data, 'usage');
      if (choices.length === 0) {
        // The usage chunk (stream_options.include_usage) comes after the finish chunk.
        if (usage) yield { type: 'usage', usage: chatUsage(usage) };
        yield { type: 'wire', wire: [event], phase: usage ? 'closing' : undefined };
        continue;
      }
      yield* this.readChoice(event, data, choices[0]!, calls, flush);
    }
    yield* flush();
  }

  /** One chunk's choice, split into the pieces the flow must tell apart (text, each call, the finish). */
  private *readChoice(event: SseEvent, data: Json, choice: Json, calls: Map<number, StreamedCall>, flush: () => ResponseChunk[]): Generator<ResponseChunk> {
    const delta = objectField(choice, 'delta') ?? {};
    const { role, content, tool_calls: toolCalls, ...rest } = delta;
    const others = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== null && value !== undefined && value !== ''));
    const pieces: { kind: 'text' | 'call' | 'other' | 'finish'; delta: Json; call?: StreamedCall }[] = [];
    if (typeof content === 'string' && content.length > 0) pieces.push({ kind: 'text', delta: { content } });
    if (Object.keys(others).length > 0) pieces.push({ kind: 'other', delta: others });
    for (const callDelta of Array.isArray(toolCalls) ? (toolCalls as Json[]) : []) {
      const index = typeof callDelta.index === 'number' ? callDelta.index : 0;
      const fn = objectField(callDelta, 'function') ?? {};
      let call = calls.get(index);
      if (!call) {
        call = { id: typeof callDelta.id === 'string' ? callDelta.id : `call_${index}`, name: typeof fn.name === 'string' ? fn.name : '', arguments: '' };
        calls.set(index, call);
      }
      if (typeof fn.arguments === 'string') call.arguments += fn.arguments;
      pieces.push({ kind: 'call', delta: { tool_calls: [callDelta] }, call });
    }
    const finished = choice.finish_reason !== null && choice.finish_reason !== undefined;
    if (finished) pieces.push({ kind: 'finish', delta: {} });
    if (pieces.length === 0) {
      // The role-only first chunk opens the answer; an empty delta is a keep-alive.
      yield { type: 'wire', wire: [event], phase: role !== undefined ? 'opening' : undefined };
      return;
    }
    const single = pieces.length === 1 && role === undefined;
    for (const [position, piece] of pieces.entries()) {
      const pieceDelta = position === 0 && role !== undefined ? { role, ...piece.delta } : piece.delta;
      const wire = single ? event : withData(event, { ...data, choices: [{ ...choice, delta: pieceDelta, finish_reason: piece.kind === 'finish' ? choice.finish_reason : null }], ...(data.usage !== undefined && position < pieces.length - 1 ? { usage: null } : {}) });
      if (piece.kind === 'text') yield { type: 'text', text: pieceDelta.content as string, wire: [wire] };
      else if (piece.kind === 'call') yield { type: 'wire', wire: [wire], call: { id: piece.call!.id, name: piece.call!.name } };
      else if (piece.kind === 'other') yield { type: 'wire', wire: [wire] };
      else {
        yield* flush();
        const usage = objectField(data, 'usage');
        if (usage) yield { type: 'usage', usage: chatUsage(usage) };
        yield { type: 'wire', wire: [wire], phase: 'closing' };
      }
    }
  }

  readJson(body: unknown): ResponseChunk[] {
    const completion = (typeof body === 'object' && body !== null ? body : {}) as Json;
    const choice = (Array.isArray(completion.choices) ? completion.choices[0] : undefined) as Json | undefined;
    const message = objectField(choice, 'message') ?? {};
    const chunks: ResponseChunk[] = [];
    const usage = objectField(completion, 'usage');
    if (usage) chunks.push({ type: 'usage', usage: chatUsage(usage) });
    chunks.push({ type: 'wire', wire: [{ data: completion }], phase: 'opening' });
    if (typeof message.content === 'string' && message.content.length > 0) chunks.push({ type: 'text', text: message.content, wire: [{ data: { content: message.content } }] });
    for (const call of Array.isArray(message.tool_calls) ? (message.tool_calls as Json[]) : []) {
      const fn = objectField(call, 'function') ?? {};
      const id = String(call.id ?? '');
      const text = typeof fn.arguments === 'string' ? fn.arguments : '';
      this.rawArguments.set(id, text);
      chunks.push({ type: 'tool_call', id, name: String(fn.name ?? ''), input: argumentsObject(text), wire: [{ data: call }] });
    }
    chunks.push({ type: 'wire', wire: [{ data: { finish_reason: choice?.finish_reason } }], phase: 'closing' });
    return chunks;
  }

  continueAfter(request: ChatRequest, round: OwnToolRound): ChatRequest {
    const assistant = {
      role: 'assistant',
      content: round.text.length > 0 ? round.text : null,
      tool_calls: round.calls.map(({ call }) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: this.rawArguments.get(call.id) ?? JSON.stringify(call.input) } })),
    };
    const results = round.calls.map(({ call, answer }) => ({ role: 'tool', tool_call_id: call.id, content: answer }));
    return { ...request, messages: [...request.messages, ...fromOpenAI({ messages: [assistant, ...results] }).messages] };
  }

  writer(output: ClientOutput, stream: boolean): ClientWriter {
    return stream ? new ChatStreamWriter(output) : new ChatJsonWriter(output);
  }
}

function visibleFinish(reason: unknown, callsShown: boolean): unknown {
  return reason === 'tool_calls' && !callsShown ? 'stop' : reason;
}

function totalsAsChatUsage(usage: Json | undefined, totals: UsageTotals): Json {
  const prompt = totals.inputTokens + totals.cacheReadTokens + totals.cacheWriteTokens;
  const details = objectField(usage, 'prompt_tokens_details');
  return { ...(usage ?? {}), prompt_tokens: prompt, completion_tokens: totals.outputTokens, total_tokens: prompt + totals.outputTokens, ...(details || totals.cacheReadTokens > 0 ? { prompt_tokens_details: { ...(details ?? {}), cached_tokens: totals.cacheReadTokens } } : {}) };
}

class ChatStreamWriter extends SseStreamWriter {
  private readonly indexes = new Map<number, number>();
  private nextIndex = 0;
  private callsShown = false;
  private firstId: unknown;
  private created: unknown;
  private ownOpened = false;
  private done = false;

  protected writeEvent(event: SseEvent): void {
    if (event.data === '[DONE]') this.done = true;
    const data = dataObject(event);
    if (!data) {
      this.sse.send(event);
      return;
    }
    let changed = false;
    const out: Json = { ...data };
    this.firstId ??= data.id;
    this.created ??= data.created;
    if (data.id !== undefined && data.id !== this.firstId) {
      // A continued answer is one completion for the client.
      out.id = this.firstId;
      out.created = this.created;
      changed = true;
    }
    const choices = Array.isArray(data.choices) ? (data.choices as Json[]) : [];
    const choice = choices[0];
    if (choice) {
      const delta = objectField(choice, 'delta');
      const calls = Array.isArray(delta?.tool_calls) ? (delta.tool_calls as Json[]) : undefined;
      let newChoice: Json = choice;
      if (calls) {
        const renumbered = calls.map((call) => {
          const upstream = typeof call.index === 'number' ? call.index : 0;
          if (typeof call.id === 'string') this.indexes.set(upstream, this.nextIndex++);
          this.callsShown = true;
          const index = this.indexes.get(upstream) ?? upstream;
          return index === call.index ? call : { ...call, index };
        });
        if (renumbered.some((call, position) => call !== calls[position])) {
          newChoice = { ...newChoice, delta: { ...delta, tool_calls: renumbered } };
          changed = true;
        }
      }
      const reason = visibleFinish(choice.finish_reason, this.callsShown);
      if (reason !== choice.finish_reason) {
        newChoice = { ...newChoice, finish_reason: reason };
        changed = true;
      }
      if (newChoice !== choice) out.choices = [newChoice, ...choices.slice(1)];
    }
    const usage = objectField(data, 'usage');
    if (usage && this.output.rounds() > 1) {
      out.usage = totalsAsChatUsage(usage, this.usage);
      changed = true;
    }
    this.sse.send(changed ? withData(event, out) : event);
  }

  /** A chunk without events (a cached answer): written as OpenAI would have streamed it. */
  protected writeOwn(chunk: ResponseChunk): void {
    if (chunk.type !== 'text' && chunk.type !== 'tool_call') return;
    if (!this.ownOpened) {
      this.ownOpened = true;
      this.ownFrame({ role: 'assistant', content: '' });
    }
    if (chunk.type === 'text') this.ownFrame({ content: chunk.text });
    else if (chunk.type === 'tool_call') {
      this.callsShown = true;
      this.ownFrame({ tool_calls: [{ index: this.nextIndex++, id: chunk.id, type: 'function', function: { name: chunk.name, arguments: JSON.stringify(chunk.input) } }] });
    }
  }

  private ownFrame(delta: Json, finish: unknown = null): void {
    this.firstId ??= heraldId('chatcmpl-');
    this.created ??= Math.floor(Date.now() / 1000);
    this.sse.send({ data: JSON.stringify({ id: this.firstId, object: 'chat.completion.chunk', created: this.created, model: this.output.model ?? '', choices: [{ index: 0, delta, finish_reason: finish }] }) });
  }

  finish(): void {
    if (this.ownOpened && !this.done) {
      this.ownFrame({}, this.callsShown ? 'tool_calls' : 'stop');
      this.sse.send({ data: '[DONE]' });
    }
    this.sse.end();
  }

  failAfterStart(message: string): void {
    this.sse.send({ data: JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } }) });
    this.sse.end();
  }
}

class ChatJsonWriter implements ClientWriter {
  started = false;
  private readonly usage = new UsageTotals();
  private completion: Json | undefined;
  private closing: Json = {};
  private readonly texts: string[] = [];
  private readonly calls: unknown[] = [];

  constructor(private readonly output: ClientOutput) {}

  write(chunk: ResponseChunk): void {
    if (chunk.type === 'usage') this.usage.add(chunk.usage);
    else if (chunk.type === 'wire') {
      const data = chunk.wire[0]?.data as Json | undefined;
      if (chunk.phase === 'opening') this.completion = data;
      else if (chunk.phase === 'closing' && data) this.closing = data;
    } else if (chunk.type === 'text') this.texts.push(chunk.text);
    else if (chunk.type === 'tool_call') this.calls.push(chunk.wire?.[0]?.data ?? { id: chunk.id, type: 'function', function: { name: chunk.name, arguments: JSON.stringify(chunk.input) } });
  }

  finish(): void {
    this.started = true;
    const base: Json = this.completion ?? { id: heraldId('chatcmpl-'), object: 'chat.completion', created: Math.floor(Date.now() / 1000), model: this.output.model ?? '', choices: [{ index: 0, message: { role: 'assistant', content: null }, finish_reason: this.calls.length > 0 ? 'tool_calls' : 'stop' }] };
    const choices = Array.isArray(base.choices) ? (base.choices as Json[]) : [];
    const choice: Json = { ...(choices[0] ?? { index: 0 }) };
    const message: Json = { ...(objectField(choice, 'message') ?? { role: 'assistant' }) };
    // The text of every round, in order; with none, what the provider wrote (null, or an empty string).
    message.content = this.texts.length > 0 ? this.texts.join('') : this.output.rounds() <= 1 && typeof message.content === 'string' ? message.content : null;
    if (this.calls.length > 0) message.tool_calls = this.calls;
    else delete message.tool_calls;
    choice.message = message;
    if ('finish_reason' in this.closing) choice.finish_reason = visibleFinish(this.closing.finish_reason, this.calls.length > 0);
    const body: Json = { ...base, choices: [choice, ...choices.slice(1)] };
    if (this.output.rounds() > 1) body.usage = totalsAsChatUsage(objectField(base, 'usage'), this.usage);
    writeJsonAnswer(this.output, body);
  }

  failAfterStart(): void {
    // A JSON answer is written whole at the end, so it never fails after it started.
  }
}
