/**
 * Logs: every event kept once, repeats folded into it with a count and the time span they cover.
 * Entries fold by template (see `logTemplates.ts`): the first one stands for the rest, and the
 * values that varied (addresses, nodes, domains) are listed with their counts. A warning or an
 * error stays whole and loses nothing: it folds by template only when its repeats differ in one
 * value, every value listed; else, like stack traces, only with repeats identical but for
 * bookkeeping (see `bookkeepingKey`).
 */
import { bookkeepingKeys, isSevereLine } from './bookkeeping';
import { lineTemplate, SlotCounts, type LineTemplate } from './logTemplates';
import { MAX_PATTERN_LINE_CHARS, splitLines, stripAnsi, trailingNewline } from './limits';
import { cleanResult, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';

interface LogEntry {
  /** The entry's lines as written: a first line and its continuation lines (indented, stack frames). */
  readonly lines: string[];
  /**
   * Its lines' bookkeeping keys (see `bookkeepingKey`), one a line, made only where folding reads
   * them: for an entry of several lines, and for a warning or an error. An ordinary one-line
   * entry folds by its template, which masks the line itself.
   */
  key?: string;
  /** A blank line alone: layout, not an event. */
  blank: boolean;
  severe: boolean;
  count: number;
}

/** A continuation belongs to the entry above it: indented lines, stack frames, "Caused by". */
function isContinuation(line: string): boolean {
  return /^[ \t]/.test(line) || line.startsWith('Caused by') || line === '}' || line === ']';
}

/** Entries whose keys are made in one batch. */
const KEYED_ENTRIES = 2_048;

/** Groups lines into entries, one per logged event. */
function logEntries(lines: readonly string[]): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of lines) {
    checkDeadline();
    const last = entries[entries.length - 1];
    const empty = line.trim() === '';
    if (last !== undefined && !empty && isContinuation(line) && last.lines.length < 200) {
      last.lines.push(line);
      last.blank = false;
    } else {
      // Blank: its bookkeeping key would be empty. A line too long for the patterns is its own key, however blank.
      entries.push({ lines: [line], blank: empty && line.length <= MAX_PATTERN_LINE_CHARS, severe: false, count: 1 });
    }
  }
  entries.forEach((entry, index) => {
    if (index % KEYED_ENTRIES === 0) checkDeadline();
    entry.severe = entry.lines.some(isSevereLine);
  });
  // Keys are made for a few thousand lines at a time (one pattern pass over them all), the
  // deadline checked between, and only for the entries that fold by them: most lines of a log
  // are ordinary one-line events, and masking them twice (here and for their template) was a
  // third of the cleaner's time.
  const keyed = entries.filter((entry) => entry.lines.length > 1 || entry.severe);
  for (let first = 0; first < keyed.length; first += KEYED_ENTRIES) {
    checkDeadline();
    const batch = keyed.slice(first, first + KEYED_ENTRIES);
    const keys = bookkeepingKeys(batch.flatMap((entry) => entry.lines));
    let at = 0;
    for (const entry of batch) {
      entry.key = keys.slice(at, at + entry.lines.length).join('\n');
      at += entry.lines.length;
    }
  }
  return entries;
}

/** The time of day a line was logged at, as it wrote it, when it has one. */
const TIME_OF_DAY = /\b\d{1,2}:\d{2}:\d{2}(?:[.,:]\d{1,6})?\b/;

interface Group {
  readonly entry: LogEntry;
  count: number;
  readonly firstTime?: string;
  lastTime?: string;
  readonly slots?: SlotCounts;
}

/** Folds repeated log entries (see the module comment). */
export function cleanLog(text: string): CleanResult {
  const lines = splitLines(stripAnsi(text));
  const entries = logEntries(lines);
  const keys = foldingKeys(entries);
  const groups = new Map<string, Group>();
  const order: (Group | LogEntry)[] = [];
  let folded = 0;
  let foldedSevere = 0;
  let blankRuns = 0;
  entries.forEach((entry, index) => {
    checkDeadline();
    if (entry.blank) {
      // Keep one blank line of a run; blank lines are layout, not events.
      const previous = order[order.length - 1];
      if (previous !== undefined && !('entry' in previous) && previous.blank) {
        blankRuns++;
        return;
      }
      order.push(entry);
      return;
    }
    const { key, template, listAll } = keys[index]!;
    const time = TIME_OF_DAY.exec(entry.lines[0]!)?.[0];
    const group = groups.get(key);
    if (group === undefined) {
      const created: Group = { entry, count: 1, ...(time !== undefined ? { firstTime: time, lastTime: time } : {}), ...(template !== undefined ? { slots: new SlotCounts(listAll) } : {}) };
      if (template !== undefined) created.slots!.add(template);
      groups.set(key, created);
      order.push(created);
      return;
    }
    group.count++;
    if (time !== undefined) group.lastTime = time;
    if (template !== undefined) group.slots?.add(template);
    folded++;
    if (entry.severe) foldedSevere++;
  });
  const output: string[] = [];
  let templates = 0;
  for (const item of order) {
    if (!('entry' in item)) {
      output.push(...item.lines);
      continue;
    }
    const { entry, count } = item;
    if (count > 1) templates++;
    output.push(count > 1 ? `${entry.lines[0]!} ${foldNote(item)}` : entry.lines[0]!, ...entry.lines.slice(1));
  }
  const removed: string[] = [];
  if (folded > 0) {
    removed.push(`${folded} repeated log entries folded into ${templates} counted line${templates === 1 ? '' : 's'}${foldedSevere > 0 ? ` (${foldedSevere} of them repeated warnings/errors)` : ''}`);
  }
  if (blankRuns > 0) removed.push(`${blankRuns} blank lines`);
  if (text !== stripAnsi(text)) removed.push('terminal colour codes');
  return cleanResult(text, output.join('\n') + trailingNewline(text), 'log', removed);
}

/** How one entry folds: the key of its group, its template when it folds by one, and whether every slot value is listed. */
interface FoldingKey {
  readonly key: string;
  readonly template?: LineTemplate;
  readonly listAll: boolean;
}

/**
 * Every entry's folding key. Ordinary one-line entries fold by template. A warning or an error
 * folds by template only when its occurrences differ in one slot at most (every value of it is
 * then listed, so nothing about which one is lost); otherwise, and for entries with continuation
 * lines (stack traces), only exact repeats but for bookkeeping fold together.
 */
function foldingKeys(entries: readonly LogEntry[]): FoldingKey[] {
  const templates = entries.map((entry) => (entry.blank || entry.lines.length > 1 ? undefined : lineTemplate(entry.lines[0]!)));
  const varying = new Map<string, Map<number, Set<string>>>();
  entries.forEach((entry, index) => {
    checkDeadline();
    const template = templates[index];
    if (!entry.severe || template === undefined) return;
    const slots = varying.get(template.key) ?? new Map<number, Set<string>>();
    template.slots.forEach((value, slot) => slots.set(slot, (slots.get(slot) ?? new Set()).add(value)));
    varying.set(template.key, slots);
  });
  const oneSlot = (key: string): boolean => [...(varying.get(key)?.values() ?? [])].filter((values) => values.size > 1).length <= 1;
  return entries.map((entry, index) => {
    const template = templates[index];
    // A blank entry is never grouped (cleanLog keeps it as layout); every other entry without a template has its key.
    if (template === undefined) return { key: `!${entry.key ?? ''}`, listAll: false };
    if (!entry.severe) return { key: `~${template.key}`, template, listAll: false };
    return oneSlot(template.key) ? { key: `!~${template.key}`, template, listAll: true } : { key: `!${entry.key!}`, listAll: false };
  });
}

/** `[×21]`, `[×21, 10:00:00–10:05:12]`, `[×139, 06:55:46–11:03:40; from 183.62.140.253 ×139, …]`. */
function foldNote(group: Group): string {
  const span = group.firstTime !== undefined && group.lastTime !== undefined && group.lastTime !== group.firstTime ? `, ${group.firstTime}–${group.lastTime}` : '';
  const slots = group.slots?.describe() ?? [];
  return `[×${group.count}${span}${slots.length > 0 ? `; ${slots.join('; ')}` : ''}]`;
}
