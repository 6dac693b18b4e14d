/**
 * Herald's own in-turn tools: tools Herald adds to a request and answers itself inside the
 * turn, so the caller never sees a call to a tool it does not know (`herald_retrieve` today).
 * Each tool is one {@link OwnTool} entry in the registry (`ownTools.ts`); the request flow
 * offers, recognises and answers them the same way in every host.
 */
import type { ChatRequest, ToolDefinition } from '../chat/types';
import type { TargetInformation } from './forwardTarget';

/** What an own tool may look at when it is offered and answered. */
export interface OwnToolContext {
  /** The request as the caller sent it (before the pipeline): the caller's own tools, in full. */
  readonly original: ChatRequest;
  /** The request as it goes to the target (optimized, with the tools offered so far). */
  readonly request: ChatRequest;
  readonly target: TargetInformation;
  /**
   * True when Herald's optimizer ran on this request (it may elide, so markers may appear): a
   * tool that answers markers is offered then, from the session's first request. False when the
   * optimizer is off or failed (the request goes out as the caller sent it).
   */
  readonly optimized: boolean;
  /** The session the pipeline ran the request under, when it ran. */
  readonly sessionId?: string;
  /** The original behind a stash handle, or undefined. */
  readonly retrieve: (handle: string) => Promise<string | undefined>;
  /**
   * Records tools the catalog loaded for this session, so they keep their full schema on every
   * later request (the tool_catalog strategy's pin). Absent when the host keeps no session state.
   */
  readonly loadTools?: (names: readonly string[]) => void;
  /** The tools block the pipeline gives this request now (after {@link loadTools}); absent when the optimizer is off. */
  readonly currentTools?: () => Promise<readonly ToolDefinition[] | undefined>;
  readonly signal: AbortSignal;
}

/** Herald's answer to one call of its own tool. */
export interface OwnToolAnswer {
  /** The tool result the model gets. */
  readonly text: string;
  /** The result reports a failure (a bad argument), so the model reads it as one. */
  readonly isError?: boolean;
  /**
   * A change to the next round's request besides the answer (a tool catalog adds the full
   * schemas it loaded). Applied after the answer is appended.
   */
  readonly revise?: (request: ChatRequest) => ChatRequest;
}

export interface OwnTool {
  /** The name the model calls it by. The caller's own tool of the same name always wins. */
  readonly name: string;
  /**
   * The definition to add to this request, or undefined when the tool is not offered. Called
   * once per turn, after the pipeline; a tool a strategy already put in the request (under
   * this name, absent from the caller's tools) is answered without being offered again.
   * The answer must be the same on every request of a session (decided by the host's setup,
   * never by what this request happens to carry): the tools block heads the cached prefix, and
   * a tool offered from the middle of a session makes the provider write it all again.
   */
  offer(context: OwnToolContext): ToolDefinition | undefined;
  /** Answers one call; `input` is the call's arguments as an object. */
  answer(input: object, context: OwnToolContext): Promise<OwnToolAnswer>;
}
