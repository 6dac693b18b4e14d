/**
 * Where a Herald model forwards to: a model VS Code already has (`vscode.lm`), or an endpoint
 * the user configured. Both stream the same chunks back, so the request flow is written once.
 */
import type { ChatRequest } from '../chat/types';
import type { BillingKind } from '../costs/billing';
import type { ProviderUsage } from '../costs/usage';

/** One piece of the model's answer, in arrival order. */
export type ResponseChunk =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_call'; readonly id: string; readonly name: string; readonly input: object }
  /** A part Herald does not interpret (thinking, data): handed to the caller untouched. */
  | { readonly type: 'other'; readonly part: unknown }
  /** What the provider says it billed for this round (its own usage figures); recorded, never shown to the caller. */
  | { readonly type: 'usage'; readonly usage: ProviderUsage };

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

export interface ForwardTarget {
  readonly information: TargetInformation;
  /** Sends the (optimized) request and yields the answer as it arrives. Throws with the target's own message. */
  send(request: ChatRequest, signal: AbortSignal): AsyncIterable<ResponseChunk>;
  /** Tokens of a text with the target's own tokenizer (or the best estimate it has). */
  countTokens(text: string, signal: AbortSignal): Promise<number>;
}
