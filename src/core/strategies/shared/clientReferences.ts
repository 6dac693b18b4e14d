/**
 * The client's own references back into the conversation. Agent clients answer some tool calls
 * with a pointer instead of the content, and the pointer is only as good as what it points at:
 *
 * - a repeated read of an unchanged file: Claude Code's "Wasted call — file unchanged since your
 *   last Read. Refer to that earlier tool_result instead.", Qwen Code's "[File app.py unchanged
 *   since last read in this session — the full content was provided earlier…]": the earlier
 *   result of the same tool on the same file must stay readable;
 * - a long output the client saved to a file with a preview ("Full output saved to: <path>",
 *   "The full output has been saved to: <path>"):
 *   the note, and the path in it, must stay readable where it is.
 *
 * This finds those results, so the strategies that rewrite tool output leave them as they are
 * ({@link protectedSegmentKeys}), and pairs each pointer with the result it points at
 * ({@link clientPointers}), so a pointer to a result Herald elided before the pointer existed
 * can be answered.
 */
import { findToolOutputs, type ToolOutputSegment } from '../../chat/toolOutput';
import type { ChatRequest } from '../../chat/types';

/** A result that only says the file is unchanged since an earlier read (Claude Code's, Qwen Code's wording). */
const UNCHANGED_POINTER = /unchanged since (?:your |the )?last read/i;
/** The file a Qwen Code-style pointer names: "[File app.py unchanged since last read…". */
const NAMED_FILE = /\bFile (\S+) unchanged since/;
/** A note that the whole output was saved to a file, with its path (Claude Code's "Full output saved to:", Qwen Code's "The full output has been saved to:"). */
const SAVED_OUTPUT_NOTE = /\b(?:full )?output (?:was |has been |is )?saved to:? \S/i;
/** Argument names clients give the file a read tool reads. */
const PATH_KEYS = ['file_path', 'absolute_path', 'filePath', 'path', 'filename', 'file'];

/** A pointer result and the earlier result it points back to. */
export interface ClientPointer {
  readonly pointer: ToolOutputSegment;
  readonly target: ToolOutputSegment;
}

/** True when a tool result's text is a client's "unchanged since last read" pointer. */
export function isUnchangedPointer(text: string): boolean {
  return text.length < 2000 && UNCHANGED_POINTER.test(text);
}

/** True when a tool result carries a "full output saved to <path>" note. */
export function hasSavedOutputNote(text: string): boolean {
  return SAVED_OUTPUT_NOTE.test(text);
}

/** Every "unchanged since last read" pointer of the request with the earlier result it points at (the latest read of the same file before it). */
export function clientPointers(request: ChatRequest): ClientPointer[] {
  const segments = findToolOutputs(request).filter((segment) => segment.source === 'tool_result');
  if (!segments.some((segment) => isUnchangedPointer(segment.text))) return [];
  const paths = callPaths(request);
  const pointers: ClientPointer[] = [];
  segments.forEach((segment, index) => {
    if (!isUnchangedPointer(segment.text)) return;
    const path = segment.callId !== undefined ? paths.get(segment.callId) : undefined;
    const named = NAMED_FILE.exec(segment.text)?.[1];
    for (let earlier = index - 1; earlier >= 0; earlier--) {
      const candidate = segments[earlier]!;
      if (candidate.messageIndex >= segment.messageIndex || isUnchangedPointer(candidate.text)) continue;
      const candidatePath = candidate.callId !== undefined ? paths.get(candidate.callId) : undefined;
      if (candidatePath === undefined) continue;
      const sameFile = path !== undefined ? candidatePath === path && candidate.toolName === segment.toolName : named !== undefined && endsWithName(candidatePath, named);
      if (sameFile) {
        pointers.push({ pointer: segment, target: candidate });
        break;
      }
    }
  });
  return pointers;
}

/** Keys of the segments no strategy may rewrite: results a later pointer leads to, and results carrying a saved-output note. */
export function protectedSegmentKeys(request: ChatRequest): ReadonlySet<string> {
  const known = protectedByMessages.get(request.messages);
  if (known) return known;
  const keys = new Set<string>();
  for (const { target } of clientPointers(request)) keys.add(target.key);
  for (const segment of findToolOutputs(request)) if (segment.source === 'tool_result' && hasSavedOutputNote(segment.text)) keys.add(segment.key);
  protectedByMessages.set(request.messages, keys);
  return keys;
}

/** Worked out once per message array (the strategies of one run share it; arrays are never mutated). */
const protectedByMessages = new WeakMap<readonly unknown[], ReadonlySet<string>>();

/** The file each tool call names, by call id. */
function callPaths(request: ChatRequest): Map<string, string> {
  const paths = new Map<string, string>();
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool_call') continue;
      const path = pathOf(part.arguments);
      if (path !== undefined) paths.set(part.id, path);
    }
  }
  return paths;
}

function pathOf(argumentsValue: unknown): string | undefined {
  let value = argumentsValue;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (typeof value !== 'object' || value === null) return undefined;
  for (const key of PATH_KEYS) {
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'string' && field.length > 0) return field;
  }
  return undefined;
}

function endsWithName(path: string, name: string): boolean {
  return path === name || path.endsWith(`/${name}`) || path.endsWith(`\\${name}`);
}
