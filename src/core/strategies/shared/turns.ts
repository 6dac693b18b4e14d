/**
 * Turn arithmetic under decide-once. A history message is decided the first time it is
 * history and that decision is replayed for good, so "keep the last N turns verbatim" cannot
 * mean "by age on every turn". Herald's reading, shared by the strategies with a
 * `keepRecentTurns` option: on a *warm* request (the undecided history is the one turn that
 * just became history, which the model has already seen verbatim as fresh input) messages are
 * judged on their content; on a *cold* request (the memo knows nothing of a longer history: a
 * restart, the CLI given a whole conversation) the last `keepRecentTurns` turns of history are
 * kept verbatim, because the model has not yet acted on them.
 */
import type { ChatRequest } from '../../chat/types';
import type { StrategyContext } from '../../pipeline/types';

/** For each message, how many assistant messages come after it (the fresh input has 0). */
export function turnsFromEnd(request: ChatRequest): number[] {
  const result = new Array<number>(request.messages.length).fill(0);
  let seen = 0;
  for (let index = request.messages.length - 1; index >= 0; index--) {
    result[index] = seen;
    if (request.messages[index]?.role === 'assistant') seen++;
  }
  return result;
}

/** True when more than one turn of history is being decided in this request. */
export function isColdStart(request: ChatRequest, context: Pick<StrategyContext, 'frozenCount' | 'freshStart'>): boolean {
  let assistants = 0;
  for (let index = context.frozenCount; index < context.freshStart; index++) {
    if (request.messages[index]?.role === 'assistant') assistants++;
  }
  return assistants > 1;
}

/**
 * A predicate telling which messages count as recent and are kept verbatim: on a cold start,
 * history within the last `keepRecentTurns` turns; on a warm request, none.
 */
export function recentTurnGuard(
  request: ChatRequest,
  context: Pick<StrategyContext, 'frozenCount' | 'freshStart'>,
  keepRecentTurns: number,
): (messageIndex: number) => boolean {
  if (keepRecentTurns <= 0 || !isColdStart(request, context)) return () => false;
  const distance = turnsFromEnd(request);
  return (messageIndex) => (distance[messageIndex] ?? 0) <= keepRecentTurns;
}
