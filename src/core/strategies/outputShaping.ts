/**
 * output_shaping (off by default): on a routine tool-resume turn, appends one constant note
 * at the request's tail asking the model to reference paths and diffs instead of restating
 * context or re-printing unchanged files. It targets output tokens, which no input strategy
 * touches, and claims no saving (the effect is not measurable per request).
 *
 * Off by default because the note is instruction-shaped text inside message content, and
 * agentic clients increasingly treat such text as a prompt injection and refuse it.
 *
 * Cache: the note stays on the message it was added to. When that message becomes history
 * it is decided again by the same rule (a function of the messages up to it), so it keeps the
 * note and the next turn repeats it byte for byte.
 */
import type { z } from 'zod';
import { freshStartOf } from '../pipeline/freshInput';
import type { ChatMessage, ChatRequest, Part } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { booleanOption, numberOption } from './shared/optionReads';
import { classifyTurn } from './shared/routineTurn';
import { optionDefaults } from '../pipeline/optionSchema';
import { OUTPUT_SHAPING_OPTIONS } from './options/outputShapingOptions';

export const OUTPUT_SHAPING_ID = 'output_shaping';

/** The one note; constant so every turn's tail is the same bytes. */
export const OUTPUT_SHAPING_NOTE = '[Herald note: in your reply, reference files by path and show changes as diffs; do not restate earlier context or re-print unchanged content.]';
const SEPARATOR = '\n\n';

/** Options of output_shaping, as its schema in `options/` declares them (type, default, bounds, description). */
export type OutputShapingOptions = Readonly<z.output<typeof OUTPUT_SHAPING_OPTIONS>>;

export const OUTPUT_SHAPING_DEFAULTS: OutputShapingOptions = optionDefaults(OUTPUT_SHAPING_OPTIONS);

export function createOutputShaping(): Strategy {
  return {
    id: OUTPUT_SHAPING_ID,
    defaultEnabled: false,
    kind: 'transform',
    // The note lands on the fresh tail: after the cached prefix.
    touchesFresh: true,
    annotatesTail: true,
    defaults: OUTPUT_SHAPING_DEFAULTS,
    optionSchema: OUTPUT_SHAPING_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const minTurns = numberOption(context.options, OUTPUT_SHAPING_ID, 'minAssistantTurns', 0);
      const keepInHistory = booleanOption(context.options, OUTPUT_SHAPING_ID, 'keepNotesInHistory');
      const original = context.original;
      let messages: ChatMessage[] | undefined;
      let noted = 0;
      let tailNoted = false;
      const first = keepInHistory ? context.frozenCount : Math.max(context.frozenCount, request.messages.length - 1);
      for (let index = first; index < request.messages.length; index++) {
        const isTail = index === request.messages.length - 1 || request.messages[index + 1]?.role === 'assistant';
        if (!isTail || request.messages[index]!.role === 'assistant') continue;
        const prefix: ChatRequest = { ...original, messages: original.messages.slice(0, index + 1) };
        const turn = classifyTurn(prefix, freshStartOf(prefix.messages), minTurns);
        if (!turn.routine || turn.failed) continue;
        const withNote = appendNote(request.messages[index]!);
        if (!withNote) continue;
        messages ??= [...request.messages];
        messages[index] = withNote;
        noted++;
        if (index === request.messages.length - 1) tailNoted = true;
      }
      if (!messages) return { request, action: 'output-note-skipped', reason: 'not a routine tool-resume turn' };
      return {
        request: { ...request, messages },
        action: 'output-note-added',
        reason: tailNoted ? 'routine tool-resume turn: one constant note at the tail; no saving is claimed' : 'kept the note on earlier routine turns for a stable prefix',
        details: { notes: noted, tail: tailNoted },
      };
    },
  };
}

/** The message with the note after its last text, or undefined when it has no text to extend. */
function appendNote(message: ChatMessage): ChatMessage | undefined {
  for (let index = message.parts.length - 1; index >= 0; index--) {
    const part = message.parts[index]!;
    const next = appendToPart(part);
    if (next === 'already') return undefined;
    if (!next) continue;
    const parts = [...message.parts];
    parts[index] = next;
    return { ...message, parts };
  }
  return undefined;
}

function appendToPart(part: Part): Part | 'already' | undefined {
  if (part.type === 'text') return part.text.endsWith(OUTPUT_SHAPING_NOTE) ? 'already' : { ...part, text: part.text + SEPARATOR + OUTPUT_SHAPING_NOTE };
  if (part.type !== 'tool_result') return undefined;
  for (let index = part.content.length - 1; index >= 0; index--) {
    const inner = part.content[index]!;
    if (inner.type !== 'text') continue;
    if (inner.text.endsWith(OUTPUT_SHAPING_NOTE)) return 'already';
    const content = [...part.content];
    content[index] = { ...inner, text: inner.text + SEPARATOR + OUTPUT_SHAPING_NOTE };
    return { ...part, content };
  }
  return undefined;
}
