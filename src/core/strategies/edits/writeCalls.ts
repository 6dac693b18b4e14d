/**
 * Which tool calls write files, and which of their argument values carry the written content:
 *
 * - Copilot: `create_file` (content), `replace_string_in_file` (oldString, newString),
 *   `multi_replace_string_in_file` (each replacement's), `insert_edit_into_file` (code),
 *   `apply_patch` (the patch input), `edit_notebook_file` (newCode);
 * - Claude Code: `Write` (content), `Edit` (old_string, new_string), `MultiEdit` (each edit's),
 *   `NotebookEdit` (new_source);
 * - the Anthropic text-editor tool and MCP file servers (file_text, old_str, new_str, newText,
 *   oldText, content), by the same keys, when the call's name says it writes;
 * - here-documents written to a file inside a shell command (any `command` / `cmd` / `script`
 *   value): the body only.
 *
 * A value is addressed by its index among the call's string values (`argumentEntries`), so a
 * replacement keeps every key and the arguments stay what they were, but for that value.
 */
import type { ArgumentString } from '../../chat/toolCallArguments';
import { countLines } from '../../stash/marker';
import { heredocWrites } from './heredocs';

/** One value (or, for a here-document, one span of it) whose content went into a file. */
export interface WrittenContent {
  /** Index among the call's string values. */
  readonly index: number;
  /** The span of the value that is file content; the whole value when absent. */
  readonly span?: { readonly start: number; readonly end: number };
  /** The marker's summary: what the content was, where it went, how long it is. */
  readonly summary: string;
}

/** What a file-writing call wrote. */
export interface WriteCall {
  /** `file`: a dedicated edit tool; `shell`: a here-document in a command. */
  readonly kind: 'file' | 'shell';
  readonly paths: readonly string[];
  readonly contents: readonly WrittenContent[];
}

const PATH_KEYS = new Set(['filePath', 'file_path', 'path', 'notebook_path', 'target_file', 'targetFile', 'filename']);
/** Content keys and how a marker names what they held. */
const CONTENT_KEYS: Readonly<Record<string, string>> = {
  content: 'content written to',
  file_text: 'content written to',
  code: 'code inserted into',
  newCode: 'cell code written to',
  new_source: 'cell source written to',
  oldString: 'text replaced in',
  old_string: 'text replaced in',
  old_str: 'text replaced in',
  oldText: 'text replaced in',
  newString: 'replacement text for',
  new_string: 'replacement text for',
  new_str: 'replacement text for',
  newText: 'replacement text for',
};
const PATCH_KEYS = new Set(['input', 'patch']);
const COMMAND_KEYS = new Set(['command', 'cmd', 'script']);
/** Tools known to write files whatever their keys are called. */
const WRITE_TOOLS = new Set([
  'create_file', 'replace_string_in_file', 'multi_replace_string_in_file', 'insert_edit_into_file', 'apply_patch', 'edit_notebook_file',
  'Write', 'Edit', 'MultiEdit', 'NotebookEdit', 'str_replace_based_edit_tool', 'str_replace_editor', 'write_file', 'edit_file', 'create_or_update_file', 'push_files',
]);
/** A verb in a tool's name that says it writes. */
const WRITING_NAME = /(?:^|[_\-.:/]|[a-z](?=[A-Z]))(?:write|edit|create|replace|insert|patch|update|save|apply)/i;

/** What the call wrote, or undefined when it writes no file content Herald can name. */
export function writeCallOf(name: string, entries: readonly ArgumentString[]): WriteCall | undefined {
  const shell = shellWrites(entries);
  if (shell) return shell;
  const known = WRITE_TOOLS.has(name);
  if (!known && !WRITING_NAME.test(name)) return undefined;
  const paths: string[] = [];
  const contents: WrittenContent[] = [];
  entries.forEach((entry, index) => {
    const key = entry.path[entry.path.length - 1];
    if (typeof key !== 'string') return;
    if (PATH_KEYS.has(key)) {
      if (!paths.includes(entry.value)) paths.push(entry.value);
      return;
    }
    const label = CONTENT_KEYS[key];
    if (label) {
      const sibling = siblingPath(entries, entry);
      // A tool only named like a writer counts when it says which file it wrote.
      if (!known && sibling === undefined) return;
      const path = sibling ?? 'the file';
      contents.push({ index, summary: `${label} ${path}, ${lineCount(entry.value)}${firstLine(entry.value)}` });
    } else if (PATCH_KEYS.has(key) && entry.path.length === 1 && isPatch(entry.value)) {
      const patch = patchSummary(entry.value);
      for (const path of patch.paths) if (!paths.includes(path)) paths.push(path);
      contents.push({ index, summary: `patch to ${patch.paths.join(', ') || 'files'}: +${patch.added} −${patch.removed} lines` });
    }
  });
  return contents.length > 0 ? { kind: 'file', paths, contents } : undefined;
}

function shellWrites(entries: readonly ArgumentString[]): WriteCall | undefined {
  const paths: string[] = [];
  const contents: WrittenContent[] = [];
  entries.forEach((entry, index) => {
    const key = entry.path[entry.path.length - 1];
    if (typeof key !== 'string' || !COMMAND_KEYS.has(key)) return;
    for (const write of heredocWrites(entry.value)) {
      if (!paths.includes(write.path)) paths.push(write.path);
      contents.push({ index, span: { start: write.start, end: write.end }, summary: heredocSummary(entry.value.slice(write.start, write.end), write.path, write.append) });
    }
  });
  return contents.length > 0 ? { kind: 'shell', paths, contents } : undefined;
}

/** The marker summary of a here-document body. */
export function heredocSummary(body: string, path: string, append: boolean): string {
  return `here-document ${append ? 'appended to' : 'written to'} ${path}, ${lineCount(body)}${firstLine(body)}`;
}

/** The path key beside a content value (same object), else the call's top-level path. */
function siblingPath(entries: readonly ArgumentString[], entry: ArgumentString): string | undefined {
  const parent = entry.path.slice(0, -1);
  const sameObject = entries.find((other) => other.path.length === entry.path.length && PATH_KEYS.has(String(other.path[other.path.length - 1])) && parent.every((step, index) => other.path[index] === step));
  return (sameObject ?? entries.find((other) => other.path.length === 1 && PATH_KEYS.has(String(other.path[0]))))?.value;
}

function lineCount(text: string): string {
  const lines = countLines(text);
  return `${lines} line${lines === 1 ? '' : 's'}`;
}

/** `; first line "…"` with the first non-blank line, cut to 60 characters. */
function firstLine(text: string): string {
  const line = text.split('\n').find((candidate) => candidate.trim().length > 0)?.trim();
  if (!line) return '';
  return `; first line "${line.length > 60 ? `${line.slice(0, 59)}…` : line}"`;
}

function isPatch(text: string): boolean {
  return /^\*\*\* (?:Begin Patch|Add File|Update File|Delete File)/m.test(text) || /^(?:---|\+\+\+) \S/m.test(text);
}

/** The files a patch touches and its added and removed lines (Copilot's `*** Update File:` form, or a unified diff). */
function patchSummary(patch: string): { paths: string[]; added: number; removed: number } {
  const paths: string[] = [];
  let added = 0;
  let removed = 0;
  for (const line of patch.split('\n')) {
    const header = /^\*\*\* (?:Add|Update|Delete) File: (.+)$/.exec(line) ?? /^\+\+\+ (?:b\/)?(\S+)/.exec(line);
    if (header) {
      const path = header[1]!.trim();
      if (path !== '/dev/null' && !paths.includes(path)) paths.push(path);
      continue;
    }
    if (line.startsWith('+') && !line.startsWith('+++')) added++;
    else if (line.startsWith('-') && !line.startsWith('---')) removed++;
  }
  return { paths, added, removed };
}
