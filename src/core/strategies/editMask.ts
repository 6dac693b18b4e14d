/**
 * edit_mask: the content an old file-writing tool call carried becomes a marker once the tool
 * confirmed the write. Agents write files through their tool calls (Copilot's `create_file`,
 * `replace_string_in_file`, `insert_edit_into_file`, `apply_patch`; Claude Code's `Write`,
 * `Edit`, `MultiEdit`; here-documents in shell commands) and every later request carries that
 * content again, though it now sits on disk where the agent can read it (in mini-swe-agent's
 * sessions such command blocks are about a fifth of everything billed). The marker keeps the
 * path, the line count and the first line; the original is stashed and comes back byte for
 * byte through its handle. The call keeps its keys and every other value: only the content
 * value changes (for a here-document, only its body, so the command still shows the
 * redirection and the terminator).
 *
 * When. A call is decided once, on the first request in which it is history: its result is
 * then in the request (the fresh input, or history), and the assistant message is new in the
 * request (the model wrote it last turn), so the rewrite costs no cache write. A write whose
 * result does not plainly confirm it (an error flag, a failure word, a non-zero exit status, no
 * result at all) keeps its content: the model may need to send it again. Arguments that are a
 * JSON text keep every other byte; a value written with optional escapes (`\u00e9`, `\/`) is
 * left as it is, since its exact bytes could not be rebuilt from the stashed text.
 *
 * Before history_trim. A text command's here-document sits in the action block history_trim
 * keeps verbatim, so this strategy's marker stays in history_trim's kept text and its site
 * becomes a nested site of history_trim's elision (history_trim's original holds it). The other
 * way round, this strategy would rewrite the inside of history_trim's replacement, whose site
 * could then not be placed any more.
 */
import type { z } from 'zod';
import type { ChatMessage, ChatRequest, Part, TextPart, ToolCallPart } from '../chat/types';
import { partText } from '../chat/types';
import { argumentEntries, withArgumentStrings, type JsonStringValue } from '../chat/toolCallArguments';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { heredocSummary, writeCallOf, type WrittenContent } from './edits/writeCalls';
import { heredocWrites } from './edits/heredocs';
import { fileWriteConfirmed, shellWriteConfirmed } from './edits/writeConfirmation';
import { forEachMentionedName, visibleNames } from './history/names';
import { splitUnits } from './history/textUnits';
import { includesName, nameGrams, NameIndex, type IndexedText } from './edits/nameSearch';
import { booleanOption, numberOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { EDIT_MASK_OPTIONS } from './options/editMaskOptions';

export const EDIT_MASK_ID = 'edit_mask';

/** Options of edit_mask, as its schema in `options/` declares them (type, default, bounds, description). */
export type EditMaskOptions = Readonly<z.output<typeof EDIT_MASK_OPTIONS>>;

export const EDIT_MASK_DEFAULTS: EditMaskOptions = optionDefaults(EDIT_MASK_OPTIONS);

/** Most characters of the names line after a marker. */
const NAMES_LINE_CHARS = 600;

interface Tally {
  masked: number;
  unconfirmed: number;
  handles: string[];
  /** The message being decided: the names it shows itself do not count as shown elsewhere. */
  messageIndex: number;
  messages: readonly ChatMessage[];
  readonly seen: NameIndex;
  /** Each message's text and trigram set, looked up once a request (when first looked in). */
  indexed?: (IndexedText | undefined)[];
  /** Per name, the first message found to show it other than the one it was looked up for (-1: none), for the request. */
  foundIn?: Map<string, number>;
}

export function createEditMask(): Strategy {
  const seen = new NameIndex();
  return {
    id: EDIT_MASK_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: EDIT_MASK_DEFAULTS,
    optionSchema: EDIT_MASK_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const options: EditMaskOptions = {
        minSavedTokens: numberOption(context.options, EDIT_MASK_ID, 'minSavedTokens', 0),
        keepNames: booleanOption(context.options, EDIT_MASK_ID, 'keepNames'),
        textCommands: booleanOption(context.options, EDIT_MASK_ID, 'textCommands'),
      };
      const tally: Tally = { masked: 0, unconfirmed: 0, handles: [], messageIndex: -1, messages: request.messages, seen };
      let messages: ChatMessage[] | undefined;
      for (let index = context.frozenCount; index < context.freshStart; index++) {
        const message = request.messages[index]!;
        if (message.role !== 'assistant') continue;
        tally.messageIndex = index;
        const masked = maskMessage(request.messages, index, options, context, tally);
        if (masked === message) continue;
        messages ??= [...request.messages];
        messages[index] = masked;
      }
      const details = { masked: tally.masked, unconfirmed: tally.unconfirmed };
      if (!messages) {
        return { request, action: 'nothing-to-do', reason: tally.unconfirmed > 0 ? `${tally.unconfirmed} write(s) not confirmed by their result, kept` : 'no confirmed file write became history on this turn', details };
      }
      return {
        request: { ...request, messages },
        action: 'edit-content-masked',
        reason: `masked the content of ${tally.masked} confirmed file write(s) that became history${tally.unconfirmed > 0 ? `; ${tally.unconfirmed} unconfirmed kept` : ''}`,
        handles: tally.handles,
        details,
      };
    },
  };
}

function maskMessage(messages: readonly ChatMessage[], index: number, options: EditMaskOptions, context: StrategyContext, tally: Tally): ChatMessage {
  const message = messages[index]!;
  let parts: Part[] | undefined;
  message.parts.forEach((part, partIndex) => {
    let next: Part = part;
    if (part.type === 'tool_call') next = maskCall(part, messages, index, options, context, tally);
    else if (part.type === 'text' && options.textCommands) next = maskTextCommands(part, messages[index + 1], options, context, tally);
    if (next === part) return;
    parts ??= [...message.parts];
    parts[partIndex] = next;
  });
  return parts ? { ...message, parts } : message;
}

function maskCall(call: ToolCallPart, messages: readonly ChatMessage[], index: number, options: EditMaskOptions, context: StrategyContext, tally: Tally): ToolCallPart {
  const entries = argumentEntries(call.arguments);
  const write = writeCallOf(call.name, entries);
  if (!write) return call;
  const result = resultOf(messages, index + 1, call.id);
  const confirmed = result !== undefined && (write.kind === 'file' ? fileWriteConfirmed(result.text, result.isError) : shellWriteConfirmed(result.text, result.isError));
  if (!confirmed) {
    tally.unconfirmed++;
    return call;
  }
  // A value the model wrote with optional escapes cannot be written back byte for byte from its text.
  const exact = entries.map((entry) => !('canonical' in entry) || (entry as JsonStringValue).canonical);
  const values = entries.map((entry) => entry.value);
  let changed = false;
  for (const [valueIndex, contents] of byValue(write.contents)) {
    if (!exact[valueIndex]) continue;
    const masked = maskSpans(values[valueIndex]!, contents, options, context, tally);
    if (masked !== values[valueIndex]) {
      values[valueIndex] = masked;
      changed = true;
    }
  }
  return changed ? { ...call, arguments: withArgumentStrings(call.arguments, values) } : call;
}

/** A here-document written to a file in a text command (a fenced shell block), when the next message shows it ran cleanly. */
function maskTextCommands(part: TextPart, next: ChatMessage | undefined, options: EditMaskOptions, context: StrategyContext, tally: Tally): TextPart {
  if (!part.text.includes('<<')) return part;
  const units = splitUnits(part.text);
  const contents: WrittenContent[] = [];
  let offset = 0;
  for (const unit of units) {
    if (unit.kind === 'action') {
      for (const write of heredocWrites(unit.text)) {
        contents.push({ index: 0, span: { start: offset + write.start, end: offset + write.end }, summary: heredocSummary(unit.text.slice(write.start, write.end), write.path, write.append) });
      }
    }
    offset += unit.text.length;
  }
  if (contents.length === 0) return part;
  // A text agent's observation is the next message; without an exit status it says nothing about the write.
  const observation = next && next.role === 'user' ? next.parts.map(partText).join('\n') : '';
  if (!/<returncode>|exit(?:ed with)? code/i.test(observation) || !shellWriteConfirmed(observation, undefined)) {
    tally.unconfirmed += contents.length;
    return part;
  }
  const text = maskSpans(part.text, contents, options, context, tally);
  return text === part.text ? part : { ...part, text };
}

/** `value` with each content span (or the whole value) replaced by its marker, where that saves enough. */
function maskSpans(value: string, contents: readonly WrittenContent[], options: EditMaskOptions, context: StrategyContext, tally: Tally): string {
  let out = '';
  let at = 0;
  for (const content of [...contents].sort((a, b) => (a.span?.start ?? 0) - (b.span?.start ?? 0))) {
    const start = content.span?.start ?? 0;
    const end = content.span?.end ?? value.length;
    if (start < at || end <= start) continue;
    const original = value.slice(start, end);
    if (!mayPay(original, content.summary, options.minSavedTokens, context)) continue;
    const names = options.keepNames ? unseenNames(original, value.slice(0, start) + value.slice(end), tally) : '';
    const input = { original, summary: content.summary, kind: EDIT_MASK_ID, ...(names ? { render: (marker: string) => `${marker}\nnames: ${names}` } : {}) };
    if (!savesEnough(original, context.stash.preview(input).replacement, options.minSavedTokens, context)) continue;
    const elision = context.stash.elide(input);
    out += value.slice(at, start) + elision.replacement;
    at = end;
    tally.masked++;
    tally.handles.push(elision.handle);
  }
  return at === 0 ? value : out + value.slice(at);
}

/**
 * False when masking `original` cannot save `minSaved` tokens whatever names line follows the
 * marker, so the names are not looked for (most small edits do not pay). A content of 4096
 * characters or more may pass {@link savesEnough} uncounted, so it is not judged here. A marker
 * ends in `]` after its handle's last letter or digit, so with a line after it that `]` becomes
 * `]\n` (still one piece, at least one token) and `names: …` adds a piece of its own: the
 * replacement with names counts at least one token more than the marker alone, and one without
 * names is the marker. If the marker alone leaves too little saved, so does every replacement.
 */
function mayPay(original: string, summary: string, minSaved: number, context: StrategyContext): boolean {
  if (original.length >= 4096) return true;
  const marker = context.stash.preview({ original, summary, kind: EDIT_MASK_ID }).replacement;
  return context.tokens.count(original) - context.tokens.count(marker) >= minSaved;
}

/**
 * Whether masking `original` behind `replacement` saves at least `minSaved` tokens. A content
 * many times longer than its marker clearly does (a token is at most a few dozen characters),
 * so a whole file is not run through the tokenizer just to learn that; shorter ones are counted.
 */
function savesEnough(original: string, replacement: string, minSaved: number, context: StrategyContext): boolean {
  if (original.length >= 4096 && original.length >= 16 * (replacement.length + minSaved)) return true;
  return context.tokens.count(original) - context.tokens.count(replacement) >= minSaved;
}

/**
 * The names `original` mentions that no other message, and nothing else of its own value,
 * shows: one comma-separated line, cut to {@link NAMES_LINE_CHARS}.
 */
function unseenNames(original: string, rest: string, tally: Tally): string {
  const own = visibleNames(rest);
  // A few dozen names looked up in each message's text: far cheaper than indexing every name the
  // request shows. Trigram sets let most messages, and most of a long one, be passed over
  // without reading them (see edits/nameSearch.ts); a message is indexed when first looked in.
  const indexed = (tally.indexed ??= new Array<IndexedText | undefined>(tally.messages.length));
  const entryAt = (index: number): IndexedText => (indexed[index] ??= tally.seen.indexOf(tally.messages[index]!));
  // A message found to show a name is kept for the request: the next write that mentions it is a lookup.
  const foundIn = (tally.foundIn ??= new Map<string, number>());
  const shownElsewhere = (name: string): boolean => {
    const known = foundIn.get(name);
    if (known !== undefined && known >= 0 && known !== tally.messageIndex) return true;
    const found = nearestShowing(tally.messages.length, tally.messageIndex, entryAt, name);
    foundIn.set(name, found);
    return found >= 0;
  };
  // Names are looked up in order only until the line is full: the rest could not change it.
  let line = '';
  let full = false;
  forEachMentionedName(original, (name) => {
    if (own.has(name) || shownElsewhere(name)) return true;
    if (line.length + name.length + 2 > NAMES_LINE_CHARS) {
      full = true;
      return false;
    }
    line = line ? `${line}, ${name}` : name;
    return true;
  });
  return full ? `${line}, …` : line;
}

/**
 * The message other than `from` nearest to it that shows `name`, or -1. The write's own result
 * and the read before it mostly show its names, so the search goes out from the write (the
 * message after, the one before, two after, …) rather than from the first message: the answer,
 * whether any other message shows the name, is the same.
 */
function nearestShowing(count: number, from: number, entryAt: (index: number) => IndexedText, name: string): number {
  const grams = nameGrams(name);
  const reach = Math.max(from, count - 1 - from);
  for (let distance = 1; distance <= reach; distance++) {
    const after = from + distance;
    if (after < count && includesName(entryAt(after), name, grams)) return after;
    const before = from - distance;
    if (before >= 0 && includesName(entryAt(before), name, grams)) return before;
  }
  return -1;
}

function byValue(contents: readonly WrittenContent[]): Map<number, WrittenContent[]> {
  const groups = new Map<number, WrittenContent[]>();
  for (const content of contents) groups.set(content.index, [...(groups.get(content.index) ?? []), content]);
  return groups;
}

/** The result of call `id` among the messages from `from` on: its text and error flag. */
function resultOf(messages: readonly ChatMessage[], from: number, id: string): { text: string; isError: boolean | undefined } | undefined {
  for (let index = from; index < messages.length; index++) {
    for (const part of messages[index]!.parts) {
      if (part.type === 'tool_result' && part.callId === id) return { text: partText(part), isError: part.isError };
    }
  }
  return undefined;
}
