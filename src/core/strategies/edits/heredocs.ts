/**
 * Here-documents that write a file, in a shell command: `cat <<'EOF' > path`, `cat > path <<EOF`,
 * `cat <<EOF >> path`, `tee [-a] path <<EOF`. Only the body is ever replaced: the command line,
 * the redirection and the terminator stay, so the command still reads as what it did. A
 * here-document fed to anything else (`python - <<EOF`, a commit message through `git commit
 * -F -`) is not a file's content that can be read back from disk, and is never matched.
 */

/** One here-document body that became a file's content. */
export interface HeredocWrite {
  /** Offset of the body in the command (the line after the operator's line). */
  readonly start: number;
  /** Offset just past the body's last character (its final line break stays, before the terminator). */
  readonly end: number;
  /** The file the body was written to, as the command spells it. */
  readonly path: string;
  /** `>>` or `tee -a`: the body was appended. */
  readonly append: boolean;
}

const OPERATOR = /(?<!<)<<(-|~)?[ \t]*\\?(['"]?)([A-Za-z_][\w.-]*)\2(?!<)/g;
/** A redirection of standard output to a file (not `2>`, `&>`, `>&2`). */
const REDIRECT = /(?<![\d&>])(>>?)[ \t]*(['"]?)([^\s'"<>|;&()]+)\2/;
const TEE = /\btee\b((?:[ \t]+-[a-zA-Z]+)*)[ \t]+(['"]?)([^\s'"<>|;&()-][^\s'"<>|;&()]*)\2/;
const CAT = /(?:^|[\s;&|(])cat(?=[\s<>]|$)/;

/** Every here-document in `command` whose body is written to a file, in order. */
export function heredocWrites(command: string): HeredocWrite[] {
  if (!command.includes('<<')) return [];
  const writes: HeredocWrite[] = [];
  let lineStart = 0;
  while (lineStart < command.length) {
    const newline = command.indexOf('\n', lineStart);
    if (newline < 0) break;
    const line = command.slice(lineStart, newline);
    const operators = [...line.matchAll(OPERATOR)];
    // Several bodies after one line cannot be told apart without parsing each: the rest of the command is left alone.
    if (operators.length > 1) break;
    if (operators.length === 0) {
      lineStart = newline + 1;
      continue;
    }
    const operator = operators[0]!;
    const tabs = operator[1] === '-';
    const word = operator[3]!;
    const bodyStart = newline + 1;
    const terminator = findTerminator(command, bodyStart, word, tabs);
    if (terminator < 0) break;
    const rest = line.slice(0, operator.index) + ' ' + line.slice(operator.index! + operator[0].length);
    const target = targetOf(rest);
    // The body is everything up to the terminator line, less the line break that ends it.
    const end = terminator > bodyStart ? terminator - 1 : bodyStart;
    if (target && end > bodyStart) writes.push({ start: bodyStart, end, path: target.path, append: target.append });
    const after = command.indexOf('\n', terminator);
    lineStart = after < 0 ? command.length : after + 1;
  }
  return writes;
}

/** Where the consumer of the here-document writes: a `cat` with a redirection, or `tee`. */
function targetOf(line: string): { path: string; append: boolean } | undefined {
  const tee = TEE.exec(line);
  if (tee) return { path: tee[3]!, append: /-[a-zA-Z]*a/.test(tee[1] ?? '') };
  if (!CAT.test(line)) return undefined;
  const redirect = REDIRECT.exec(line);
  return redirect ? { path: redirect[3]!, append: redirect[1] === '>>' } : undefined;
}

/** Offset of the terminator line (`word` alone on a line, after tabs for `<<-`), or -1. */
function findTerminator(command: string, from: number, word: string, tabs: boolean): number {
  let start = from;
  while (start <= command.length) {
    const newline = command.indexOf('\n', start);
    const line = command.slice(start, newline < 0 ? command.length : newline).replace(/\r$/, '');
    if ((tabs ? line.replace(/^\t+/, '') : line) === word) return start;
    if (newline < 0) return -1;
    start = newline + 1;
  }
  return -1;
}
