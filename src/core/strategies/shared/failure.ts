/**
 * Whether a tool output reports a failure. Failures are never removed: the strategies that
 * hide whole outputs (dedupe, masking) leave them alone, and the digesters keep their lines.
 */
import type { ToolOutputSegment } from '../../chat/toolOutput';

/**
 * Lines that say something failed: tracebacks, errors, failed tests, panics. Anchored on
 * words a tool prints, not on prose that merely mentions errors.
 */
const FAILURE_LINE =
  /^(?:Traceback \(most recent call last\)|\s*[\w.]*(?:Error|Exception): \S|\s*(?:FAILED|FAIL|ERROR|FATAL)\b:? |\s*(?:panic|error(?:\[\w+\])?|fatal): |.*\b[1-9]\d* (?:failed|errors?)\b|\s*not ok \d|.*\bSegmentation fault\b|.*\[(?:error|fatal|crit|alert|emerg)\]|.*(?:^|[\s[(])(?:ERROR|FATAL|CRITICAL)(?:[\s\]:)]|$))/m;

/** True when the output is flagged as failed, exited non-zero, or prints a failure line. */
export function isFailureOutput(segment: Pick<ToolOutputSegment, 'isError' | 'exitCode' | 'text'>): boolean {
  if (segment.isError) return true;
  if (segment.exitCode !== undefined && segment.exitCode !== 0) return true;
  return FAILURE_LINE.test(segment.text);
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
