/**
 * Failures that repeat one another in a console test run. A run where six tests fail the same
 * way prints the same traceback six times, each under its own test's header. The first block
 * through those frames stays whole; each later one becomes its header and one line naming the
 * block it repeats and where its own frame differs.
 *
 * Blocks are unittest's (`ERROR: test_x (module.Case)` between rules of `=` and `-`) and pytest's
 * (`____ test_x ____` inside FAILURES or ERRORS). Two blocks repeat each other when their
 * frames (file and function, the test's own name and every line number set aside) are the same;
 * source lines quoted under frames do not count. When their error lines differ too (other values
 * in the same assertion), the later block keeps its own error lines under the fold. A block with
 * no frame or no error line is never folded.
 */
import { checkDeadline } from '../pipeline/deadline';

interface FailureBlock {
  /** Index of the header line (`ERROR: …`, `____ … ____`). */
  readonly header: number;
  /** First line after the block (exclusive). */
  readonly end: number;
  readonly name: string;
}

const UNITTEST_HEADER = /^(?:ERROR|FAIL): (\S+)(?: \(.+\))?$/;
const PYTEST_HEADER = /^_{3,} (.+?) _{3,}$/;
const EQUALS_RULE = /^={20,}$/;
const DASH_RULE = /^-{20,}$/;
/** A frame's location: Python's `File "…", line N, in f`, pytest's `path:N: …`, JavaScript's and Java's `at …`. */
const FRAME = /^\s*File "[^"]+", line \d+, in \S+|^[^\s:][^:]{0,300}:\d+: \S|^\s+at \S/;
/** pytest's error lines and the last line of a Python traceback. */
const ERROR_LINE = /^E\s|^[A-Za-z_][\w.]*(?:Error|Exception|Failure|Warning|Exit|Interrupt)\b(?::.*)?$/;

/** The failure blocks of a console test run, in order. */
function failureBlocks(lines: readonly string[]): FailureBlock[] {
  const starts: { header: number; name: string }[] = [];
  for (let index = 0; index < lines.length; index++) {
    if ((index & 511) === 0) checkDeadline();
    const line = lines[index]!;
    const unittest = UNITTEST_HEADER.exec(line);
    if (unittest !== null && index > 0 && EQUALS_RULE.test(lines[index - 1]!)) starts.push({ header: index, name: unittest[1]! });
    const pytest = unittest === null ? PYTEST_HEADER.exec(line.trim()) : null;
    if (pytest !== null) starts.push({ header: index, name: pytest[1]! });
  }
  return starts.map((start, at) => {
    const next = starts[at + 1];
    let end = next === undefined ? lines.length : next.header;
    // unittest: the rule of `=` above the next header, or the `-` rule above "Ran N tests".
    if (next !== undefined && EQUALS_RULE.test(lines[end - 1] ?? '')) end--;
    for (let index = start.header + 2; index < end; index++) {
      const line = lines[index]!;
      if ((DASH_RULE.test(line) && /^Ran \d+ tests?\b/.test(lines[index + 1] ?? '')) || /^=+ .* =+$/.test(line.trim())) {
        end = index;
        break;
      }
    }
    return { header: start.header, end, name: start.name };
  });
}

/** The test's own name as its frame names it: `test_x` of `Case.test_x[param]`. */
function ownName(block: FailureBlock): string {
  return block.name.replace(/\[.*$/, '').split(/[.:]/).pop() ?? block.name;
}

/** A block's frames (its test's own name and every line number set aside) and its error lines. */
function storyOf(lines: readonly string[], block: FailureBlock): { frames: string; errors: string[] } | undefined {
  const own = ownName(block);
  const frames: string[] = [];
  const errors: string[] = [];
  for (let index = block.header + 1; index < block.end; index++) {
    const line = lines[index]!;
    if (FRAME.test(line)) frames.push(line.split(own).join('<test>').replace(/\d+/g, 'N').trim());
    else if (ERROR_LINE.test(line.trim())) errors.push(line);
  }
  if (frames.length === 0 || errors.length === 0) return undefined;
  return { frames: frames.join('\n'), errors };
}

/** The block's own frame, for the folded line: the first frame that names the test. */
function ownFrame(lines: readonly string[], block: FailureBlock): string | undefined {
  const own = ownName(block);
  for (let index = block.header + 1; index < block.end; index++) {
    const line = lines[index]!;
    if (FRAME.test(line) && line.includes(own)) return line.trim();
  }
  return undefined;
}

/**
 * The run with each failure block that repeats an earlier one's frames folded to its header, one
 * line, and its error lines where they differ. `folded` counts the blocks folded, `dropped` the
 * lines they lost.
 */
export function foldRepeatedFailures(lines: readonly string[]): { lines: string[]; folded: number; dropped: number } {
  const blocks = failureBlocks(lines);
  if (blocks.length < 2) return { lines: [...lines], folded: 0, dropped: 0 };
  const firstOf = new Map<string, { block: FailureBlock; errors: string }>();
  const replaced = new Map<number, { block: FailureBlock; first: FailureBlock; errors?: string[] }>();
  for (const block of blocks) {
    const story = storyOf(lines, block);
    if (story === undefined) continue;
    const errors = story.errors.map((line) => line.trim()).join('\n');
    const first = firstOf.get(story.frames);
    if (first === undefined) firstOf.set(story.frames, { block, errors });
    // The same frames with other values in the error: the error lines stay, the frames go.
    else replaced.set(block.header, { block, first: first.block, errors: errors === first.errors ? undefined : story.errors });
  }
  if (replaced.size === 0) return { lines: [...lines], folded: 0, dropped: 0 };
  const output: string[] = [];
  let dropped = 0;
  for (let index = 0; index < lines.length; index++) {
    const fold = replaced.get(index);
    if (fold === undefined) {
      output.push(lines[index]!);
      continue;
    }
    const { block, first, errors } = fold;
    const frame = ownFrame(lines, block);
    output.push(lines[index]!);
    const named = /\s/.test(first.name) ? `"${first.name}"` : first.name;
    output.push(`  [same frames ${errors === undefined ? 'and error ' : ''}as ${named} above${frame === undefined ? '' : `; its own frame: ${frame}`}]`);
    if (errors !== undefined) output.push(...errors);
    // Keep a blank line before the next block's rule, as the run printed it.
    const trailingBlank = block.end - 1 > index && lines[block.end - 1] === '' ? 1 : 0;
    dropped += block.end - index - 1 - trailingBlank - 1 - (errors?.length ?? 0);
    if (trailingBlank === 1) output.push('');
    index = block.end - 1;
  }
  return { lines: output, folded: replaced.size, dropped: Math.max(0, dropped) };
}
