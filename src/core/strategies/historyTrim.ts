/**
 * history_trim: shrinks the agent's own earlier messages, keeping what it did and concluded.
 *
 * An assistant message in history keeps every action verbatim (tool-call parts are never
 * touched; fenced command blocks, action tags, patches and code inside its text stay byte for
 * byte), its labels, the last sentences before its action, the sentences that state a
 * finding, an outcome or a decision, and every sentence naming a path, identifier or number
 * that is not visible elsewhere in the request. The exploratory rest is replaced by one
 * marker per text part (later gaps in the same part show `…`); the marker's handle gives the
 * whole text back byte for byte through the stash.
 *
 * Never altered: opaque parts (Anthropic `thinking` / `redacted_thinking` blocks with their
 * signatures, OpenAI reasoning items and anything else a converter did not understand), tool
 * calls, text parts carrying citations, and every message that is not the assistant's.
 *
 * When a message is decided. The runner memoizes every history message on the turn it first
 * appears there and replays it byte for byte afterwards, so a message is trimmed exactly once:
 * on the first request in which it is history, which in an agent loop is the request right
 * after the model wrote it. "Keep the latest N assistant turns verbatim" cannot hold in that
 * scheme without rewriting a cached message later (a cache miss on every turn from that
 * message on), so this strategy reads the rule as content, not age: what the latest turns
 * must carry forward (the action taken and the conclusion it was based on) is kept for every
 * turn, and the exploratory reasoning of even the latest turn goes behind its marker. The
 * decision for a message depends only on its own bytes, the messages before it and the
 * options, so it is the same on every turn and in every replay. Measured on 20 trajectories,
 * deciding later would keep most of the token saving but lose the cached-cost saving: trimming
 * at first sight saves 13.5% tokens and 13.7% cached cost; keeping the latest one verbatim
 * (and trimming it a turn later) 12.9% and 1.7%; keeping the latest two, 12.3% and −5.7%.
 *
 * Thinking blocks: Anthropic lets old ones (outside the current tool-use loop) be left out,
 * but the runner forbids dropping parts, and the provider strips them from the context
 * anyway; so they stay as they are.
 */
import type { z } from 'zod';
import type { ChatMessage, ChatRequest, Part, TextPart } from '../chat/types';
import { partText } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { Deadline } from '../pipeline/deadline';
import { visibleNames } from './history/names';
import { planTrim, renderTrim } from './history/trimPlan';
import { optionDefaults } from '../pipeline/optionSchema';
import { HISTORY_TRIM_OPTIONS } from './options/historyTrimOptions';

export const HISTORY_TRIM_ID = 'history_trim';

/** Options of history_trim, as its schema in `options/` declares them (type, default, bounds, description). */
export type HistoryTrimOptions = Readonly<z.output<typeof HISTORY_TRIM_OPTIONS>>;

export const HISTORY_TRIM_DEFAULTS: HistoryTrimOptions = optionDefaults(HISTORY_TRIM_OPTIONS);

/** Builds the strategy; it keeps a cache of what each message shows, keyed by the message object. */
export function createHistoryTrim(): Strategy {
  const seen = new SeenIndex();
  return {
    id: HISTORY_TRIM_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...HISTORY_TRIM_DEFAULTS },
    optionSchema: HISTORY_TRIM_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const options = readOptions(context.options);
      const messages = [...request.messages];
      const handles: string[] = [];
      let trimmedMessages = 0;
      let droppedSentences = 0;
      let candidates = 0;
      // What the messages before the candidate show, gathered as far as a question needs (each
      // message once, in the form it goes out in), not looked up in every earlier message per name.
      // The names questions may be about are the candidates' own, gathered on the first question:
      // most candidates ask none (a message of tool calls, or nothing it could drop).
      const askable = (): Set<string> => {
        const asked = new Set<string>();
        for (let index = context.frozenCount; index < context.freshStart; index++) {
          if (request.messages[index]!.role === 'assistant') for (const name of seen.namesOf(request.messages[index]!)) asked.add(name);
        }
        return asked;
      };
      const shown = new ShownSoFar(seen, messages, context.deadline, askable);
      for (let index = context.frozenCount; index < context.freshStart; index++) {
        const message = messages[index]!;
        if (message.role !== 'assistant') continue;
        candidates++;
        shown.before(index);
        const trimmed = trimMessage(message, shown, options, context);
        if (!trimmed) continue;
        messages[index] = trimmed.message;
        handles.push(...trimmed.handles);
        droppedSentences += trimmed.droppedSentences;
        trimmedMessages++;
      }
      if (trimmedMessages === 0) {
        return {
          request,
          action: 'nothing-to-do',
          reason: candidates === 0 ? 'no assistant message became history on this turn' : 'no assistant message had enough exploratory reasoning to trim',
          details: { candidates },
        };
      }
      return {
        request: { ...request, messages },
        action: 'history-trimmed',
        reason: `trimmed the exploratory reasoning of ${trimmedMessages} assistant message(s), keeping actions, code and conclusions`,
        handles,
        details: { candidates, trimmedMessages, droppedSentences },
      };
    },
  };
}

/**
 * What each earlier message shows a reader: its names and its lines. Keyed by the message object, so the
 * history the runner replays from its memo (the same objects turn after turn) is indexed once.
 */
class SeenIndex {
  private readonly names = new WeakMap<ChatMessage, Set<string>>();
  private readonly lines = new WeakMap<ChatMessage, Set<string>>();
  /** Each part's text (a tool call's arguments as JSON), made once a message. */
  private readonly texts = new WeakMap<ChatMessage, readonly string[]>();

  private textsOf(message: ChatMessage): readonly string[] {
    let texts = this.texts.get(message);
    if (!texts) {
      texts = message.parts.map(partText);
      this.texts.set(message, texts);
    }
    return texts;
  }

  namesOf(message: ChatMessage): Set<string> {
    let names = this.names.get(message);
    if (!names) {
      names = visibleNames(this.textsOf(message).join('\n'));
      this.names.set(message, names);
    }
    return names;
  }

  /**
   * Whether the message shows `name`, its names gathered only when its text holds the name: every
   * name is a piece of the text (no name holds a line break, so each part is searched on its
   * own), and a text without it cannot show it, which a plain search tells far more cheaply.
   */
  shows(message: ChatMessage, name: string): boolean {
    const names = this.names.get(message);
    if (names) return names.has(name);
    if (!this.textsOf(message).some((text) => text.includes(name))) return false;
    return this.namesOf(message).has(name);
  }

  /** Trimmed lines, and each again without a leading line number (`nl`, `cat -n`, `grep -n` output). */
  linesOf(message: ChatMessage): Set<string> {
    let lines = this.lines.get(message);
    if (!lines) {
      lines = new Set<string>();
      for (const line of message.parts.map(partText).join('\n').split('\n')) {
        const trimmed = line.trim();
        if (trimmed.length === 0) continue;
        lines.add(trimmed);
        const unnumbered = trimmed.replace(LEADING_LINE_NUMBER, '').trim();
        if (unnumbered !== trimmed) lines.add(unnumbered);
      }
      this.lines.set(message, lines);
    }
    return lines;
  }
}

/**
 * Whether a name or a line shows in the messages before the candidate. Each is the union of
 * what the messages show, extended message by message only until a question is answered, so a
 * request's messages are read at most once however many questions are asked (scanning every
 * earlier message per question was quadratic), and no further than a question needs.
 */
class ShownSoFar {
  private readonly names = new Set<string>();
  private readonly lines = new Set<string>();
  /** The names of `asked` the messages read so far show (see hasAskedName). */
  private readonly askedShown = new Set<string>();
  /** The names questions are expected about, made once the direct lookups' budget is spent (see hasName). */
  private asked: ReadonlySet<string> | undefined;
  /** Message-by-message lookups made so far by {@link hasNameDirectly}, and how many may be. */
  private directLookups = 0;
  private readonly directBudget: number;
  private namesRead = 0;
  private askedRead = 0;
  private linesRead = 0;
  private limit = 0;

  /**
   * @param messages the request's messages, those before the candidate in the form they go out in.
   * @param askable the names questions are expected about (the candidates' own names): for these
   *   only they are gathered, not every name of every earlier output (outputs carry thousands).
   *   Called once, when the direct lookups' budget is spent.
   */
  constructor(private readonly seen: SeenIndex, private readonly messages: readonly ChatMessage[], private readonly deadline: Deadline, private readonly askable: () => ReadonlySet<string> = () => new Set()) {
    this.directBudget = DIRECT_LOOKUPS_PER_MESSAGE * messages.length;
  }

  /** Questions from now on are about the messages before `index`. */
  before(index: number): void {
    this.limit = index;
  }

  /**
   * Most requests ask few questions (a cold 100k-token session: one or two), and gathering
   * `asked` reads the names of every candidate, whole files written by its tool calls included.
   * So the first questions are answered by looking the name up in each earlier message's names,
   * until that has cost a few lookups per message; from then on the unions answer, so the
   * work stays linear in the request however many questions come. Both give the same answer.
   */
  hasName(name: string): boolean {
    if (this.asked === undefined && this.directLookups + this.limit <= this.directBudget) return this.hasNameDirectly(name);
    const asked = (this.asked ??= this.askable());
    return asked.has(name) ? this.hasAskedName(name, asked) : this.hasAnyName(name);
  }

  /** Whether a message before the limit shows the name, looked up in each in turn. */
  private hasNameDirectly(name: string): boolean {
    for (let index = 0; index < this.limit; index++) {
      this.directLookups++;
      const shown = this.seen.shows(this.messages[index]!, name);
      this.deadline.check();
      if (shown) return true;
    }
    return false;
  }

  /** The same answer as hasAnyName for a name of `asked`, gathering only those names from each message. */
  private hasAskedName(name: string, asked: ReadonlySet<string>): boolean {
    if (this.askedShown.has(name)) return true;
    while (this.askedRead < this.limit) {
      const names = this.seen.namesOf(this.messages[this.askedRead++]!);
      // Whichever of the two sets is smaller is walked.
      if (names.size <= asked.size) {
        for (const each of names) if (asked.has(each)) this.askedShown.add(each);
      } else {
        for (const each of asked) if (names.has(each)) this.askedShown.add(each);
      }
      this.deadline.check();
      if (names.has(name)) return true;
    }
    return false;
  }

  private hasAnyName(name: string): boolean {
    if (this.names.has(name)) return true;
    while (this.namesRead < this.limit) {
      const names = this.seen.namesOf(this.messages[this.namesRead++]!);
      for (const each of names) this.names.add(each);
      this.deadline.check();
      if (names.has(name)) return true;
    }
    return false;
  }

  hasLine(line: string): boolean {
    if (this.lines.has(line)) return true;
    while (this.linesRead < this.limit) {
      const lines = this.seen.linesOf(this.messages[this.linesRead++]!);
      for (const each of lines) this.lines.add(each);
      this.deadline.check();
      if (lines.has(line)) return true;
    }
    return false;
  }
}

/**
 * Lookups per message of the request that questions may cost before ShownSoFar gathers its
 * unions. A lookup may search a message's text; at 16 a session that asks many questions (the
 * scaling bench's shape at 1M tokens) spent a third more in history_trim than with the unions
 * alone, at 4 about the same, and a cold 100k-token session's one or two questions still fit.
 */
const DIRECT_LOOKUPS_PER_MESSAGE = 4;

/** `  267\t`, `267:`, `267 |` and `path/to/file.py:267:` before a listed line. */
const LEADING_LINE_NUMBER = /^(?:[^\s:]+:)?\d+(?:\t|:|\s*\|)/;

interface TrimmedMessage {
  readonly message: ChatMessage;
  readonly handles: readonly string[];
  readonly droppedSentences: number;
}

function trimMessage(message: ChatMessage, earlier: ShownSoFar, options: HistoryTrimOptions, context: StrategyContext): TrimmedMessage | undefined {
  // Names the message's own actions show (tool-call arguments) count as visible for its text;
  // read on the first question (most messages ask none, and arguments carry whole files).
  let ownActionNames: Set<string> | undefined;
  const seenBefore = (name: string): boolean => {
    ownActionNames ??= visibleNames(message.parts.filter((part) => part.type === 'tool_call').map(partText).join('\n'));
    return ownActionNames.has(name) || earlier.hasName(name);
  };
  const shownBefore = (line: string): boolean => earlier.hasLine(line);
  let parts: Part[] | undefined;
  const handles: string[] = [];
  let droppedSentences = 0;
  message.parts.forEach((part, partIndex) => {
    if (!isTrimmableText(part)) return;
    const plan = planTrim(part.text, { keepLastSentences: options.keepLastSentences, seenBefore, shownBefore });
    if (plan.droppedSentences === 0 && plan.droppedQuotes === 0) return;
    const summary = describeDropped(plan.droppedSentences, plan.droppedQuotes);
    // The handle is a function of the original alone, so the saving is known before anything is stashed.
    const input = { original: part.text, summary, kind: HISTORY_TRIM_ID, render: (marker: string) => renderTrim(plan, marker) };
    const saved = context.tokens.count(part.text) - context.tokens.count(context.stash.preview(input).replacement);
    if (saved < options.minSavedTokens) return;
    const elision = context.stash.elide(input);
    parts ??= [...message.parts];
    parts[partIndex] = { ...part, text: elision.replacement } satisfies TextPart;
    handles.push(elision.handle);
    droppedSentences += plan.droppedSentences;
  });
  return parts ? { message: { ...message, parts }, handles, droppedSentences } : undefined;
}

/** The marker's summary: how much of the reasoning went, in words a reader understands. */
function describeDropped(sentences: number, quotes: number): string {
  const pieces: string[] = [];
  if (sentences > 0) pieces.push(`${sentences} sentence${sentences === 1 ? '' : 's'}`);
  if (quotes > 0) pieces.push(`${quotes} quoted block${quotes === 1 ? '' : 's'}`);
  return `${pieces.join(' and ')} elided`;
}

/** Text parts that carry provider metadata tied to their exact wording (citations) are left alone. */
function isTrimmableText(part: Part): part is TextPart {
  return part.type === 'text' && part.text.length > 0 && !(part.extra && 'citations' in part.extra);
}

function readOptions(values: Readonly<Record<string, unknown>>): HistoryTrimOptions {
  const keepLastSentences = values.keepLastSentences ?? HISTORY_TRIM_DEFAULTS.keepLastSentences;
  const minSavedTokens = values.minSavedTokens ?? HISTORY_TRIM_DEFAULTS.minSavedTokens;
  if (typeof keepLastSentences !== 'number' || !Number.isInteger(keepLastSentences) || keepLastSentences < 0) {
    throw new Error(`Herald: history_trim option keepLastSentences must be a whole number of 0 or more, got ${String(keepLastSentences)}`);
  }
  if (typeof minSavedTokens !== 'number' || !Number.isFinite(minSavedTokens) || minSavedTokens < 0) {
    throw new Error(`Herald: history_trim option minSavedTokens must be a number of 0 or more, got ${String(minSavedTokens)}`);
  }
  return { keepLastSentences, minSavedTokens };
}
