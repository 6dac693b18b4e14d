/**
 * Real client traffic as request sequences: what one client sent, request by request, in the
 * neutral model Herald optimizes, with what the reply to each request did and (where the source
 * recorded it) what the provider billed.
 */
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';

/** The clients the loaders know. */
export type ClientKind = 'copilot-export' | 'copilot-shaped' | 'claude-code' | 'mini-swe-agent';

/** What the provider billed for one request, from its own usage figures. */
export interface ProviderUsage {
  /** Input tokens billed at the full price (neither written to nor read from the cache). */
  readonly input: number;
  /** Input tokens written to the prompt cache (billed at about 1.25×). */
  readonly cacheWrite: number;
  /** Input tokens read from the prompt cache (billed at about 0.1×). */
  readonly cacheRead: number;
  readonly output?: number;
}

/** One request a client sent, and what came of it. */
export interface ClientRequest {
  /** The request as Herald receives it. */
  readonly request: ChatRequest;
  /** The names of the tools the reply to this request called, in order (empty: it called none). */
  readonly calledTools: readonly string[];
  /** The reply as an assistant message, when the source has it (for the facts-still-shown measure). */
  readonly reply?: ChatMessage;
  /** A request the client sends to have the conversation summarized: tools offered, no tool call expected. */
  readonly summarization?: boolean;
  /** The provider's billed usage for this request, when the source recorded it. */
  readonly usage?: ProviderUsage;
}

/** One conversation of one client, in the order the requests were sent. */
export interface ClientSession {
  readonly client: ClientKind;
  /** Where it came from (a file name, a trajectory's instance). */
  readonly name: string;
  readonly requests: readonly ClientRequest[];
  /**
   * The host's round trip of an optimized request: what the target actually receives, written
   * out and read back in the client's own format (the VS Code Language Model API for Copilot,
   * Anthropic's wire for Claude Code).
   */
  readonly roundTrip: (request: ChatRequest) => ChatRequest;
  /** What the loader had to reconstruct because the source does not record it, one line each. */
  readonly reconstructed: readonly string[];
}
