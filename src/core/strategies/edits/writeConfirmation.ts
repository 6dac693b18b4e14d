/**
 * Whether a tool's result confirmed a write. Conservative: anything short of a plain success
 * keeps the call's content, so a write that failed (the content never reached the file, and
 * the model may need to send it again) is never masked.
 *
 * - Edit tools: the result is not flagged as an error, says it succeeded (Copilot's "The
 *   following files were successfully edited", Claude Code's "File created successfully at",
 *   "has been updated", "Applied 3 edits") and mentions no failure at all (a partly failed
 *   multi-file edit, or lint errors reported after the edit, keep the content too).
 * - Shell commands: the result is not flagged as an error, its exit status is 0 where it shows
 *   one (mini-swe-agent's `<returncode>`, "Exit code N", "exited with code N"), and it reports
 *   no failure to create or write a file.
 */

const SUCCESS = /\b(?:success(?:ful(?:ly)?)?|succeeded|created|updated|written|wrote|saved|applied|edited|modified|replaced|inserted)\b/i;
const FAILURE = /\b(?:errors?|fail(?:ed|s|ure)?|could ?n[o']t|cannot|can't|unable|not found|no such|does ?n[o']t exist|denied|invalid|refused|rejected|exception|traceback|conflict)\b/i;
const EXIT_STATUS = /<returncode>\s*(-?\d+)\s*<\/returncode>|\bexit(?:ed with)? code:? ?(-?\d+)\b/i;
const WRITE_FAILURE = /no such file or directory|permission denied|cannot create|can't create|read-only file system|is a directory|not a directory|no space left|disk quota/i;

/** True when an edit tool's result says the write succeeded. */
export function fileWriteConfirmed(result: string, isError: boolean | undefined): boolean {
  if (isError === true) return false;
  // Lines of the file quoted back (Claude Code's `cat -n` snippet: "  14→…") are code, not the tool's verdict.
  const verdict = result.split('\n').filter((line) => !QUOTED_FILE_LINE.test(line)).join('\n');
  return SUCCESS.test(verdict) && !FAILURE.test(verdict);
}

const QUOTED_FILE_LINE = /^\s*\d+(?:→|\t)/;

/** True when a shell command that wrote a file through a here-document finished cleanly. */
export function shellWriteConfirmed(result: string, isError: boolean | undefined): boolean {
  if (isError === true) return false;
  const status = EXIT_STATUS.exec(result);
  if (status && Number(status[1] ?? status[2]) !== 0) return false;
  return !WRITE_FAILURE.test(result);
}
