/**
 * Whether a tool output reports a failure. Failures are never removed: the strategies that
 * hide whole outputs (dedupe, masking) leave them alone, and the digesters keep their lines.
 */
import type { ToolOutputSegment } from '../../chat/toolOutput';

/**
 * Lines that say something failed: tracebacks, errors, failed tests, panics, a non-zero exit
 * code. Anchored on words a tool prints, not on prose that merely mentions errors, nor on a
 * shell envelope's empty error field (Qwen Code's `run_shell_command` ends every output with
 * `Error: (none)` and `Exit Code: 0`).
 */
const FAILURE_LINE =
  /^(?:Traceback \(most recent call last\)|\s*[\w.]*(?:Error|Exception): (?!\(none\)\s*$)\S|Exit [Cc]ode: -?[1-9]|\s*(?:FAILED|FAIL|ERROR|FATAL)\b:? |\s*(?:panic|error(?:\[\w+\])?|fatal): |.*\b[1-9]\d* (?:failed|errors?)\b|\s*not ok \d|.*\bSegmentation fault\b|.*\[(?:error|fatal|crit|alert|emerg)\]|.*(?:^|[\s[(])(?:ERROR|FATAL|CRITICAL)(?:[\s\]:)]|$))/m;

/**
 * Commands and tools that show a file's contents: what they print is the file, so a line in
 * it that reads like an error (a docstring's `ValueError: …`) is not a failure report.
 */
const FILE_READ_COMMAND = /^\s*(?:cd [^&;|]+&&\s*)?(?:cat(?!\s*(?:<<|>))|nl|head|tail|less|more|bat|sed -n|awk)\b(?![^|]*\|\s*(?:sh|bash|python\d?)\b)/;
const FILE_READ_TOOL = /(?:^|_)(?:read|view|open|cat)(?:_|$)|read_?file|view_?file/i;

/** True when the output is flagged as failed, exited non-zero, or prints a failure line. */
export function isFailureOutput(segment: Pick<ToolOutputSegment, 'isError' | 'exitCode' | 'text' | 'command' | 'toolName'>): boolean {
  if (segment.isError) return true;
  if (segment.exitCode !== undefined && segment.exitCode !== 0) return true;
  if (isFileRead(segment)) return false;
  return FAILURE_LINE.test(segment.text);
}

/** True when the output is a file's contents shown by a read command or tool. */
export function isFileRead(segment: Pick<ToolOutputSegment, 'command' | 'toolName'>): boolean {
  if (segment.command !== undefined && FILE_READ_COMMAND.test(segment.command)) return true;
  return segment.toolName !== undefined && FILE_READ_TOOL.test(segment.toolName);
}

/** The lines of a text that report a failure, at most `limit` of them, in order. */
export function failureLines(text: string, limit: number): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    if (found.length >= limit) break;
    if (FAILURE_LINE_SINGLE.test(line)) found.push(line);
  }
  return found;
}

const FAILURE_LINE_SINGLE = new RegExp(FAILURE_LINE.source);
