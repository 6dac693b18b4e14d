/**
 * Logs: repeated entries folded into the first one with a count (`… [×21]`). Entries fold
 * only when they differ in bookkeeping (see `bookkeepingKey`). Warnings and errors are
 * never dropped: they fold only into an identical-but-for-bookkeeping line right before them.
 */
import { bookkeepingKey, isSevereLine, withCount } from './bookkeeping';
import { splitLines, stripAnsi, trailingNewline } from './limits';
import { cleanResult, type CleanResult } from './types';

interface LogEntry {
  /** The entry's lines as written: a first line and its continuation lines (indented, stack frames). */
  readonly lines: string[];
  key: string;
  severe: boolean;
  count: number;
}

/** A continuation belongs to the entry above it: indented lines, stack frames, "Caused by". */
function isContinuation(line: string): boolean {
  return /^[ \t]/.test(line) || line.startsWith('Caused by') || line === '}' || line === ']';
}

/** Groups lines into entries, one per logged event. */
export function logEntries(lines: readonly string[]): LogEntry[] {
  const entries: LogEntry[] = [];
  for (const line of lines) {
    const last = entries[entries.length - 1];
    if (last !== undefined && line.trim() !== '' && isContinuation(line) && last.lines.length < 200) last.lines.push(line);
    else entries.push({ lines: [line], key: '', severe: false, count: 1 });
  }
  for (const entry of entries) {
    entry.key = entry.lines.map(bookkeepingKey).join('\n');
    entry.severe = entry.lines.some(isSevereLine);
  }
  return entries;
}

/** Folds repeated log entries. */
export function cleanLog(text: string): CleanResult {
  const lines = splitLines(stripAnsi(text));
  const entries = logEntries(lines);
  const firstByKey = new Map<string, LogEntry>();
  const kept: LogEntry[] = [];
  let folded = 0;
  let foldedSevere = 0;
  let blankRuns = 0;
  for (const entry of entries) {
    if (entry.key === '') {
      // Keep one blank line of a run; blank lines are layout, not events.
      const previous = kept[kept.length - 1];
      if (previous !== undefined && previous.key === '') {
        blankRuns++;
        continue;
      }
      kept.push(entry);
      continue;
    }
    if (entry.severe) {
      const previous = kept[kept.length - 1];
      if (previous !== undefined && previous.key === entry.key) {
        previous.count++;
        folded++;
        foldedSevere++;
      } else {
        kept.push(entry);
      }
      continue;
    }
    const first = firstByKey.get(entry.key);
    if (first !== undefined) {
      first.count++;
      folded++;
      continue;
    }
    firstByKey.set(entry.key, entry);
    kept.push(entry);
  }
  const output: string[] = [];
  for (const entry of kept) {
    output.push(withCount(entry.lines[0]!, entry.count), ...entry.lines.slice(1));
  }
  const removed: string[] = [];
  if (folded > 0) {
    const distinct = kept.filter((entry) => entry.count > 1).length;
    removed.push(`${folded} repeated log entries folded into ${distinct} counted line${distinct === 1 ? '' : 's'}${foldedSevere > 0 ? ` (${foldedSevere} of them repeated warnings/errors, folded in place)` : ''}`);
  }
  if (blankRuns > 0) removed.push(`${blankRuns} blank lines`);
  if (text !== stripAnsi(text)) removed.push('terminal colour codes');
  return cleanResult(text, output.join('\n') + trailingNewline(text), 'log', removed);
}
