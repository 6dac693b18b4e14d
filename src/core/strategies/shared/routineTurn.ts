/**
 * The "routine tool-resume turn" both output_shaping and reasoning_budget wait for: the
 * current turn's fresh input is nothing but tool results (the agent resuming after its own
 * call), not a new question, and the conversation has been going for a while.
 */
import { findToolOutputs } from '../../chat/toolOutput';
import type { ChatMessage, ChatRequest } from '../../chat/types';

export interface TurnShape {
  /** The fresh input is tool output only and enough assistant turns came before. */
  readonly routine: boolean;
  /** A fresh tool result is flagged failed (error flag, non-zero exit code, an error opening). */
  readonly failed: boolean;
  /** Assistant messages before the fresh input. */
  readonly assistantTurns: number;
  /** Why the turn is not routine, or `routine`; no prompt text. */
  readonly reason: string;
}

/** A tool result that opens like this is treated as failed even without a provider flag. */
const ERROR_OPENING = /^\s*(error|exception|traceback|fatal)\b/i;
/** How agents that paste command output into a user message (mini-swe-agent) open it. */
const PASTED_EXIT = /^\s*<returncode>\s*(-?\d+)\s*<\/returncode>/;

export function classifyTurn(request: ChatRequest, freshStart: number, minAssistantTurns: number): TurnShape {
  const messages = request.messages;
  const fresh = messages.slice(freshStart);
  const assistantTurns = messages.slice(0, freshStart).filter((message) => message.role === 'assistant').length;
  const pasted = findToolOutputs(request).filter((segment) => segment.source === 'pasted' && segment.messageIndex >= freshStart);
  let failed = false;
  for (const segment of pasted) if (segment.exitCode !== undefined && segment.exitCode !== 0) failed = true;
  const pastedExit = (message: ChatMessage): number | undefined => {
    const first = message.parts[0];
    const match = message.role === 'user' && first?.type === 'text' ? PASTED_EXIT.exec(first.text) : null;
    return match ? Number(match[1]) : undefined;
  };
  for (const message of fresh) if ((pastedExit(message) ?? 0) !== 0) failed = true;
  for (const message of fresh) {
    for (const part of message.parts) {
      if (part.type !== 'tool_result') continue;
      const firstText = part.content.find((inner) => inner.type === 'text');
      if (part.isError === true || (firstText?.type === 'text' && ERROR_OPENING.test(firstText.text))) failed = true;
    }
  }
  const shape = (routine: boolean, reason: string): TurnShape => ({ routine, failed, assistantTurns, reason });
  if (fresh.length === 0 || freshStart === 0) return shape(false, 'first turn');
  const observation = (message: ChatMessage, index: number): boolean => {
    if (message.role === 'assistant' || message.role === 'system' || message.parts.length === 0) return false;
    if (message.parts.every((part) => part.type === 'tool_result')) return true;
    // An agent that pastes its command output into a user message (mini-swe-agent) marks it with an exit code.
    return message.role === 'user' && message.parts.every((part) => part.type === 'text') &&
      (pastedExit(message) !== undefined || pasted.some((segment) => segment.messageIndex === index && segment.exitCode !== undefined));
  };
  if (!fresh.every((message, offset) => observation(message, freshStart + offset))) return shape(false, 'fresh input is not only tool output');
  if (assistantTurns < minAssistantTurns) return shape(false, `only ${assistantTurns} assistant turns so far`);
  return shape(true, 'routine');
}
