/**
 * What the gateway knows about each API it serves: where it goes upstream, its error shape,
 * how a provider's answer becomes the flow's chunks (with the raw events kept), how the
 * chunks the flow hands back become one coherent answer for the client, and how a round of
 * Herald's own calls is written back in the API's own shape.
 */
import type { ServerResponse } from 'node:http';
import type { RequestFormat } from '../../core/chat';
import type { ChatRequest } from '../../core/chat/types';
import type { OwnToolRound, ProviderUsage, ResponseChunk } from '../../core/flow/forwardTarget';
import type { SseEvent } from '../sse';

export type ApiId = 'chat' | 'responses' | 'messages';

export interface WireApi {
  readonly id: ApiId;
  /** The request format the core reads and writes for this API. */
  readonly format: RequestFormat;
  /** Whose upstream base URL the requests go to. */
  readonly provider: 'openai' | 'anthropic';
  /** The path after the provider's base URL. */
  readonly upstreamPath: string;
  /** An error body in the API's own shape. */
  errorBody(status: number, message: string): unknown;
  /**
   * Whether an answer Herald continues over rounds or writes itself (its own tools answered in
   * the turn, a cached answer) may stand in for the provider's. The Responses API
   * keeps state by response id when `store` is not false: an answer continued over two
   * upstream responses would hand the client an id whose stored turn lacks the continuation.
   */
  answersItself(body: Readonly<Record<string, unknown>>): boolean;
  /** The reading and writing state of one client request. */
  exchange(): WireExchange;
}

/** One client request's view of the provider's answers, over every round. */
export interface WireExchange {
  /** A streamed answer as chunks, each carrying the events it came in. */
  readStream(events: AsyncIterable<SseEvent>): AsyncGenerator<ResponseChunk>;
  /** A whole JSON answer as chunks, each carrying its piece of the answer. */
  readJson(body: unknown): ResponseChunk[];
  /** The next round's request after Herald answered its own calls: the model's raw output of the round put back whole. */
  continueAfter(request: ChatRequest, round: OwnToolRound): ChatRequest;
  /** The writer of the client's answer. */
  writer(output: ClientOutput, stream: boolean): ClientWriter;
}

/** Where the client's answer goes and what the writer needs to know about the rounds. */
export interface ClientOutput {
  readonly response: ServerResponse;
  /** Status and headers of the provider's first answer; undefined when Herald answered itself (a cached answer). */
  head(): { readonly status: number; readonly headers: Readonly<Record<string, string>> } | undefined;
  /** How many upstream rounds this answer took so far. */
  rounds(): number;
  /** The model the client asked for (for an answer Herald writes itself). */
  readonly model?: string;
}

export interface ClientWriter {
  /** True once the status line went out; after that, a failure can only be an error in the body. */
  readonly started: boolean;
  write(chunk: ResponseChunk): void;
  /** The answer is complete: close it and end the response. */
  finish(): void;
  /** The answer failed after it started: an error in the API's own shape, then the end. */
  failAfterStart(message: string): void;
}

/** Usage summed over the rounds, as the writers patch it into the final event. */
export class UsageTotals {
  inputTokens = 0;
  outputTokens = 0;
  cacheReadTokens = 0;
  cacheWriteTokens = 0;

  add(usage: ProviderUsage): void {
    this.inputTokens += usage.inputTokens ?? 0;
    this.outputTokens += usage.outputTokens ?? 0;
    this.cacheReadTokens += usage.cacheReadTokens ?? 0;
    this.cacheWriteTokens += usage.cacheWriteTokens ?? 0;
  }
}

/** A JSON object field as an object, or undefined. */
export function objectField(value: unknown, field: string): Record<string, unknown> | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const inner = (value as Record<string, unknown>)[field];
  return typeof inner === 'object' && inner !== null && !Array.isArray(inner) ? (inner as Record<string, unknown>) : undefined;
}

export function numberField(value: Record<string, unknown> | undefined, field: string): number | undefined {
  const inner = value?.[field];
  return typeof inner === 'number' && Number.isFinite(inner) ? inner : undefined;
}

/** A tool call's arguments as an object (a string that is not a JSON object is kept under `input`). */
export function argumentsObject(text: string): object {
  if (text.trim().length === 0) return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : { input: text };
  } catch {
    return { input: text };
  }
}

/** An id for an answer Herald writes itself (a cached answer), in the API's own style. */
export function heraldId(prefix: string): string {
  return `${prefix}herald_${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`;
}
