/**
 * What a tool output shows of a file, read from the command or tool call that produced it:
 * `cat [-n] f`, `nl [-ba] f`, `sed -n 'a,bp' f`, `head`/`tail`, those piped into `sed -n`,
 * `head` or `tail`, and editor read-file tool calls. Anything else is not a file read.
 */
import { isObject } from '../chat/objects';

export interface ReadHint {
  /** The file's path as the command or call named it. */
  readonly path: string;
  /** 1-based number of the first line shown, when known. */
  readonly firstLine?: number;
  /** 1-based number of the last line shown, when the command bounds it. */
  readonly lastLine?: number;
}

const READ_PROGRAMS = new Set(['cat', 'nl', 'sed', 'head', 'tail']);

/** The file read by a shell command, when the command is exactly one file read. */
export function readHintFromCommand(command: string): ReadHint | undefined {
  const reads: ReadHint[] = [];
  for (const simple of splitCommands(command)) {
    const stages = splitOutsideQuotes(simple, '|').map((stage) => tokenize(stage.trim()));
    const first = stages[0];
    if (!first || first.length === 0) continue;
    const program = baseName(first[0]!);
    if (!READ_PROGRAMS.has(program)) continue;
    let hint = firstStage(program, first.slice(1));
    if (!hint) continue;
    for (const stage of stages.slice(1)) {
      hint = hint ? narrow(hint, stage) : undefined;
    }
    if (hint) reads.push(hint);
  }
  // Two reads in one command print back to back with no boundary: not one file.
  return reads.length === 1 ? reads[0] : undefined;
}

/**
 * The file read by an editor tool call (`read_file`, `Read`, `view`, `str_replace_editor view`…):
 * its path argument and, when given, the first line it starts at.
 */
export function readHintFromToolCall(toolName: string, argumentsValue: unknown): ReadHint | undefined {
  let value = argumentsValue;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return undefined;
    }
  }
  if (!isObject(value)) return undefined;
  const command = typeof value.command === 'string' ? value.command : undefined;
  if (typeof value.command === 'string' && command !== 'view') {
    if (/^(bash|shell|run|terminal|exec)/i.test(toolName) || /\s/.test(command ?? '')) return readHintFromCommand(command ?? '');
    return undefined;
  }
  if (command !== 'view' && !/read|view|open|file|cat|show/i.test(toolName)) return undefined;
  const pathValue = ['filePath', 'file_path', 'path', 'target_file', 'file', 'filename', 'uri'].map((key) => value[key]).find((field) => typeof field === 'string');
  if (typeof pathValue !== 'string') return undefined;
  const range = value.view_range;
  const start = firstNumber(value.startLine, value.start_line, value.offset, value.line, Array.isArray(range) ? range[0] : undefined);
  const end = firstNumber(value.endLine, value.end_line, Array.isArray(range) ? range[1] : undefined);
  const limit = firstNumber(value.limit);
  const lastLine = end !== undefined && end > 0 ? end : limit !== undefined && start !== undefined ? start + limit - 1 : undefined;
  return hintOf(pathValue.replace(/^file:\/\//, ''), start !== undefined && start > 0 ? start : 1, lastLine);
}

/** A hint without undefined fields, so hints compare and print cleanly. */
function hintOf(filePath: string, firstLine?: number, lastLine?: number): ReadHint {
  return { path: filePath, ...(firstLine === undefined ? {} : { firstLine }), ...(lastLine === undefined ? {} : { lastLine }) };
}

function firstStage(program: string, args: readonly string[]): ReadHint | undefined {
  const files = args.filter((arg) => !arg.startsWith('-'));
  switch (program) {
    case 'cat':
    case 'nl':
      return files.length === 1 && !hasOption(args, ['-s']) ? { path: files[0]!, firstLine: 1 } : undefined;
    case 'sed': {
      if (!args.includes('-n') || args.some((arg) => /^-[a-zA-Z]*i/.test(arg))) return undefined;
      const script = files[0];
      const range = script === undefined ? undefined : sedRange(script);
      return range && files.length === 2 ? hintOf(files[1]!, range.first, range.last) : undefined;
    }
    case 'head': {
      const count = lineCountOption(args);
      const file = operandsAfterCount(args);
      return file ? hintOf(file, 1, count ?? 10) : undefined;
    }
    case 'tail': {
      const file = operandsAfterCount(args);
      return file ? { path: file } : undefined;
    }
    default:
      return undefined;
  }
}

/** A later pipeline stage narrows what the first one printed. */
function narrow(hint: ReadHint, stage: readonly string[]): ReadHint | undefined {
  if (stage.length === 0) return undefined;
  const program = baseName(stage[0]!);
  const args = stage.slice(1);
  const first = hint.firstLine;
  if (program === 'sed' && args.includes('-n')) {
    const script = args.find((arg) => !arg.startsWith('-'));
    const range = script === undefined ? undefined : sedRange(script);
    if (!range || first === undefined) return undefined;
    return hintOf(hint.path, first + range.first - 1, range.last === undefined ? hint.lastLine : first + range.last - 1);
  }
  if (program === 'head') {
    const count = lineCountOption(args) ?? 10;
    return hintOf(hint.path, first, first === undefined ? undefined : first + count - 1);
  }
  if (program === 'tail') return { path: hint.path };
  // grep, awk, wc…: the output is no longer the file's lines in order.
  return undefined;
}

/** `'12,40p'`, `'12,+5p'`, `'12,$p'`, `'12p'`. */
function sedRange(script: string): { first: number; last?: number } | undefined {
  const match = /^(\d+)(?:,(\+?)(\d+|\$))?p$/.exec(script.trim());
  if (!match) return undefined;
  const first = Number(match[1]);
  if (match[3] === undefined) return { first, last: first };
  if (match[3] === '$') return { first };
  const value = Number(match[3]);
  return { first, last: match[2] === '+' ? first + value : value };
}

function lineCountOption(args: readonly string[]): number | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-n' && args[index + 1] !== undefined) return Math.abs(Number.parseInt(args[index + 1]!, 10)) || undefined;
    const attached = /^-n?(\d+)$/.exec(arg) ?? /^--lines=(\d+)$/.exec(arg);
    if (attached) return Number(attached[1]);
  }
  return undefined;
}

/** The one file operand of `head`/`tail`, skipping the value of `-n`. */
function operandsAfterCount(args: readonly string[]): string | undefined {
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === '-n' || arg === '-c') {
      index++;
      continue;
    }
    if (!arg.startsWith('-')) operands.push(arg);
  }
  return operands.length === 1 ? operands[0] : undefined;
}

function hasOption(args: readonly string[], options: readonly string[]): boolean {
  return args.some((arg) => options.includes(arg));
}

function firstNumber(...values: unknown[]): number | undefined {
  for (const value of values) {
    if (typeof value === 'number' && Number.isFinite(value)) return value;
    if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  }
  return undefined;
}

function baseName(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}

/** Simple commands of a command line: split on `&&`, `||`, `;` and newlines outside quotes. */
function splitCommands(command: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (let index = 0; index < command.length; index++) {
    const char = command[index]!;
    if (quote) {
      if (char === quote) quote = undefined;
      current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      current += char;
      continue;
    }
    const pair = command.slice(index, index + 2);
    if (pair === '&&' || pair === '||') {
      pieces.push(current);
      current = '';
      index++;
      continue;
    }
    if (char === ';' || char === '\n') {
      pieces.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  pieces.push(current);
  return pieces.map((piece) => piece.trim()).filter((piece) => piece.length > 0 && !piece.startsWith('#'));
}

function splitOutsideQuotes(text: string, separator: string): string[] {
  const pieces: string[] = [];
  let current = '';
  let quote: string | undefined;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
    } else if (char === '"' || char === "'") quote = char;
    else if (char === separator) {
      pieces.push(current);
      current = '';
      continue;
    }
    current += char;
  }
  pieces.push(current);
  return pieces;
}

/** Shell words with quotes removed; redirections and `cd` prefixes are left for the caller to reject. */
function tokenize(text: string): string[] {
  const words: string[] = [];
  let current = '';
  let quote: string | undefined;
  let started = false;
  for (const char of text) {
    if (quote) {
      if (char === quote) quote = undefined;
      else current += char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      started = true;
      continue;
    }
    if (/\s/.test(char)) {
      if (started) words.push(current);
      current = '';
      started = false;
      continue;
    }
    current += char;
    started = true;
  }
  if (started) words.push(current);
  // Output redirected to a file or a here-document: not a read shown in the output.
  if (words.some((word) => word.startsWith('>') || word.startsWith('<<'))) return [];
  return words;
}
