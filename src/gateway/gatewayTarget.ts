/**
 * The forward target of one gateway request: the client's own upstream, called with the
 * client's own headers, the answer read as chunks that keep the provider's raw events.
 */
import { serializeRequest } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import type { ForwardTarget, OwnToolRound, ResponseChunk, TargetInformation } from '../core/flow/forwardTarget';
import type { TokenCounter } from '../core/tokens/tokenCounter';
import type { WireApi, WireExchange } from './apis/wireApi';
import { readSse } from './sse';
import { answerFailure, callUpstream, type RequestLike, type UpstreamResponse } from './upstream';

export interface GatewayTargetOptions {
  readonly api: WireApi;
  readonly exchange: WireExchange;
  /** The full upstream URL, query included. */
  readonly url: string;
  /** The client's headers as they go upstream. */
  readonly headers: Record<string, string>;
  readonly stream: boolean;
  readonly request: RequestLike;
  readonly tokens: TokenCounter;
  /** The request as the client sent it, parsed, and its bytes: sent as they came when Herald changed nothing. */
  readonly original: { readonly request: ChatRequest; readonly json: string | undefined; readonly bytes: Buffer };
  readonly model?: string;
}

export class GatewayTarget implements ForwardTarget {
  readonly information: TargetInformation;
  /** How many upstream rounds the answer took. */
  rounds = 0;
  /** Status and headers of the first upstream answer (what the client's answer opens with). */
  head: { readonly status: number; readonly headers: Readonly<Record<string, string>> } | undefined;

  constructor(private readonly options: GatewayTargetOptions) {
    this.information = {
      id: `gateway:${options.api.id}`,
      name: `gateway · ${options.model ?? options.api.id}`,
      family: options.model ?? options.api.provider,
      version: options.api.id,
      // The client keeps its own window (compaction, summaries); the gateway has no budget to enforce.
      maxInputTokens: Number.POSITIVE_INFINITY,
      maxOutputTokens: Number.POSITIVE_INFINITY,
      toolCalling: true,
      imageInput: true,
      // The provider bills the client's own key by the token.
      billing: 'tokens',
    };
  }

  async *send(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponseChunk> {
    // Written before the call: a request Herald cannot write is its own failure, and the upstream was not called.
    const body = this.bodyOf(request);
    this.rounds++;
    const response = await callUpstream(this.options.request, this.options.url, 'POST', { ...this.options.headers, 'content-type': 'application/json' }, body, signal);
    this.head ??= { status: response.status, headers: response.headers };
    try {
      yield* this.read(response);
    } catch (error) {
      // Once the provider answered, its failure is the client's answer: never a silent second call.
      throw answerFailure(error, this.options.url, signal);
    }
  }

  private async *read(response: UpstreamResponse): AsyncGenerator<ResponseChunk> {
    if (this.options.stream && response.contentType.includes('text/event-stream')) {
      yield* this.options.exchange.readStream(readSse(response.body));
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) chunks.push(Buffer.from(chunk));
    const text = Buffer.concat(chunks).toString('utf8');
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new Error(`a ${response.status} answer of ${chunks.reduce((sum, chunk) => sum + chunk.length, 0)} bytes (${response.contentType || 'no content type'}) that is not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
    const answer = this.options.exchange.readJson(parsed);
    if (!this.options.stream) {
      yield* answer;
      return;
    }
    // A provider that ignored `stream: true` answered whole: the client still gets a stream, written from the content.
    for (const chunk of answer) {
      if (chunk.type === 'wire') continue;
      if (chunk.type === 'usage') yield chunk;
      else if (chunk.type === 'text') yield { type: 'text', text: chunk.text };
      else if (chunk.type === 'tool_call') yield { type: 'tool_call', id: chunk.id, name: chunk.name, input: chunk.input };
      else yield { type: 'other', part: chunk.part };
    }
  }

  continueAfter(request: ChatRequest, round: OwnToolRound): ChatRequest {
    return this.options.exchange.continueAfter(request, round);
  }

  async countTokens(text: string): Promise<number> {
    return this.options.tokens.count(text);
  }

  /** The client's own bytes when the request goes out as it came; the optimized request written in its own format otherwise. */
  private bodyOf(request: ChatRequest): string | Buffer {
    if (request === this.options.original.request) return this.options.original.bytes;
    const json = JSON.stringify(serializeRequest(request));
    return json === this.options.original.json ? this.options.original.bytes : json;
  }
}
