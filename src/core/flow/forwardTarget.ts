/**
 * Where a request is forwarded to: a model VS Code already has (`vscode.lm`), an endpoint the
 * user configured, or (in the gateway) the client's own upstream API. All of them stream the
 * same chunks back, so the request flow is written once.
 *
 * A target that speaks a provider's wire to a caller who speaks the same wire (the gateway)
 * also hands over the provider's raw events ({@link WireEvent}) with the chunks they carried,
 * so the host can pass them through as they arrive; the flow still sees every tool call and
 * usage figure and keeps Herald's own calls out of what the caller gets.
 */
import type { ChatRequest } from '../chat/types';
import type { BillingKind } from '../costs/billing';

/** One event of the provider's own stream (a server-sent event), as it arrived. */
export interface WireEvent {
  /** The SSE `event:` name, when the provider sent one (Anthropic and the Responses API do). */
  readonly event?: string;
  /** The event's data: the exact text for streams, or a parsed piece of a whole JSON answer. */
  readonly data: unknown;
}

/**
 * The provider's own usage figures for one answer, as far as it reported them. Each input token
 * counts in exactly one field, by the price it is billed at: `inputTokens` are fresh (neither read
 * from nor written to the cache), so OpenAI's `prompt_tokens` less its `cached_tokens`, and
 * Anthropic's `input_tokens` as reported (`core/costs/usage.ts` reads both).
 */
export interface ProviderUsage {
  /** Fresh input tokens, billed at the full input price. */
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  /** Input tokens read from the provider's prompt cache. */
  readonly cacheReadTokens?: number;
  /** Input tokens written to the provider's prompt cache. */
  readonly cacheWriteTokens?: number;
}

/** A tool call, complete: what the flow answers or hands to the caller. */
export interface ToolCallChunk {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  readonly input: object;
  /**
   * The raw events that completed this call. An empty list: its events went out earlier as
   * `wire` chunks naming the call. Absent: a wire host writes the call from the fields above.
   */
  readonly wire?: readonly WireEvent[];
}

/**
 * One piece of the model's answer, in arrival order. `wire`, where present, is what a host
 * that writes the provider's own format sends for the piece; a host that does not (VS Code)
 * ignores it, and ignores `wire` and `usage` chunks altogether.
 */
export type ResponseChunk =
  | { readonly type: 'text'; readonly text: string; readonly wire?: readonly WireEvent[] }
  | ToolCallChunk
  /** A part Herald does not interpret (thinking, data): handed to the caller untouched. */
  | { readonly type: 'other'; readonly part: unknown; readonly wire?: readonly WireEvent[] }
  /** Usage figures the provider reported, summed over rounds into the request's record (the events carrying them come as `wire` chunks). */
  | { readonly type: 'usage'; readonly usage: ProviderUsage }
  | WireChunk;

/**
 * Raw events that carry no content of their own (a stream's opening, a block's start, a
 * keep-alive, the closing with the stop reason), or the early events of a tool call still
 * arriving (`call` names it, so Herald's own calls are kept from the caller from their first
 * event).
 */
export interface WireChunk {
  readonly type: 'wire';
  readonly wire: readonly WireEvent[];
  /**
   * `opening`: the answer's start (sent once, on the first round only); `closing`: its end
   * (held to the end of a round, sent only when no further round follows); absent: as it arrives.
   */
  readonly phase?: 'opening' | 'closing';
  /** The tool call these events belong to, when they are the start of one. */
  readonly call?: { readonly id: string; readonly name: string };
}

/** What a forward target can do, mirrored into the model's `LanguageModelChatInformation`. */
export interface TargetInformation {
  /** Stable id among Herald's models: `lm:<vendor>/<id>` or `endpoint:<name>`. */
  readonly id: string;
  /** Shown as "Herald · <name>". */
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly detail?: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly toolCalling: boolean | number;
  readonly imageInput: boolean;
  /**
   * The wire format the target speaks, when it is one the core knows: the request is optimized
   * as that format (Anthropic-only strategies such as provider_context_trim then apply).
   * Undefined for VS Code models, whose wire Herald does not see.
   */
  readonly wireFormat?: 'openai' | 'anthropic';
  /** How the target bills: premium requests (a Copilot-hosted model), tokens (an endpoint), or unknown. */
  readonly billing?: BillingKind;
}

/** A round Herald answers itself: what the model wrote and the calls to Herald's own tools, answered. */
export interface OwnToolRound {
  /** The text the model wrote before and between its calls, joined. */
  readonly text: string;
  readonly calls: readonly { readonly call: ToolCallChunk; readonly answer: string; readonly isError?: boolean }[];
}

export interface ForwardTarget {
  readonly information: TargetInformation;
  /** Sends the (optimized) request and yields the answer as it arrives. Throws with the target's own message. */
  send(request: ChatRequest, signal: AbortSignal): AsyncIterable<ResponseChunk>;
  /** Tokens of a text with the target's own tokenizer (or the best estimate it has). */
  countTokens(text: string, signal: AbortSignal): Promise<number>;
  /**
   * The next round's request after a round of Herald's own calls, in the target's own wire
   * shape (a target that keeps the provider's raw answer puts it back whole: thinking
   * signatures, reasoning items). Absent: the flow appends a neutral assistant message (text
   * and calls) and a user message of tool results.
   */
  continueAfter?(request: ChatRequest, round: OwnToolRound): ChatRequest;
}
