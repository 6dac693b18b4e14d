/**
 * Stack traces (Python, JavaScript, Java/Kotlin/C#, Go, Rust, Ruby, Dart): the exception
 * lines and the project's own frames stay; runs of library and runtime frames become one
 * line naming how many and where; a frame repeated in a row (recursion) becomes one line
 * with a count.
 */
import { MAX_PATTERN_LINE_CHARS, splitLines, stripAnsi, trailingNewline } from './limits';
import { cleanResult, type CleanResult } from './types';
import { checkDeadline } from '../pipeline/deadline';

/** A frame line, per runtime. */
const FRAME_LINE: readonly RegExp[] = [
  /^\s+File "[^"]{1,1000}", line \d+/, // Python
  /^\s+at \S/, // JavaScript, Java, C#
  /^\s*#\d+\s+\S/, // Dart, gdb
  /^\s+\d+: \S/, // Rust backtrace
  /^\s+[\w.$/-]{1,300}\.(?:go|rs|rb|dart|py|js|ts):\d+/, // Go (file:line under the function), Rust "at" lines
  /^\s*[\w/.-]{1,300}\.rb:\d+:in /, // Ruby
  /^\s*\.\.\. \d+ more$/, // Java "... 12 more"
];

/** A Go frame's first line, the function; a frame only when its file line follows. */
const GO_FUNCTION_LINE = /^[\w.*/()[\]$-]{1,300}\(.*\)$|^created by \S/;

/** Frames of libraries and runtimes, not of the project. */
const LIBRARY_FRAME = /node_modules[\\/]|site-packages[\\/]|dist-packages[\\/]|[\\/]lib[\\/]python\d|<frozen |\(node:|node:internal|\(internal[\\/]|\binternal[\\/](?:process|modules|timers)|<anonymous>\)?$|^\s+at (?:java|javax|jdk|sun|kotlin|kotlinx|scala|org\.junit|org\.apache|org\.springframework|io\.netty|com\.sun|System|Microsoft|NUnit|Xunit)\.|\/usr\/(?:local\/)?(?:lib|go)\/|GOROOT|\/rustc\/|library[\\/](?:std|core|alloc)[\\/]|\/\.cargo\/registry\/|\/gems\/|\/\.pub-cache\/|package:(?:flutter|flutter_test|test_api|stack_trace)\/|dart:[a-z_]+/;

/** Whether a line is a stack frame. */
export function isFrameLine(line: string): boolean {
  // Every frame shape carries a line number or a frame index, except "at f (Native Method)".
  if (line.length > MAX_PATTERN_LINE_CHARS || !(/\d/.test(line) || /^\s+at /.test(line))) return false;
  // A loop, not `some` with a closure: this runs on every line of every output's format check.
  for (const pattern of FRAME_LINE) if (pattern.test(line)) return true;
  return false;
}

/** Whether a frame is in a library or the runtime rather than the project. */
export function isLibraryFrame(line: string): boolean {
  return line.length <= MAX_PATTERN_LINE_CHARS && LIBRARY_FRAME.test(line);
}

/** A library's short name for the collapsed line: `express`, `django`, `java.util`. */
function libraryName(line: string): string {
  const nodeModule = /node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(line);
  if (nodeModule !== null) return nodeModule[1]!.replace(/\\/g, '/');
  const pythonPackage = /(?:site|dist)-packages[\\/]([^\\/"]+)/.exec(line);
  if (pythonPackage !== null) return pythonPackage[1]!;
  // Python's standard library: `…/lib/python3.6/unittest/case.py` is `unittest`.
  const pythonModule = /[\\/]lib[\\/]python\d[\d.]*[\\/]([A-Za-z_]\w*)/.exec(line);
  if (pythonModule !== null) return pythonModule[1]!;
  const javaPackage = /^\s+at ((?:[a-z]\w*\.){1,2})/.exec(line);
  if (javaPackage !== null) return javaPackage[1]!.replace(/\.$/, '');
  if (/node:|internal[\\/]/.test(line)) return 'node internals';
  if (/dart:|package:/.test(line)) return /(dart:[a-z_]+|package:[\w]+)/.exec(line)?.[1] ?? 'dart';
  return 'runtime';
}

/** Python frames are two lines: the `File …` line and the source line under it. */
function frameGroups(lines: readonly string[]): string[][] {
  const groups: string[][] = [];
  for (let index = 0; index < lines.length; index++) {
    checkDeadline();
    const line = lines[index]!;
    const next = lines[index + 1];
    const pythonFrame = /^\s+File "/.test(line) && next !== undefined && /^\s{4,}\S/.test(next) && !isFrameLine(next);
    const goFrame = line.length <= 1_000 && GO_FUNCTION_LINE.test(line) && next !== undefined && /^\s+\S+\.(?:go|s):\d+/.test(next);
    if (pythonFrame || goFrame) {
      groups.push([line, next!]);
      index++;
    } else {
      groups.push([line]);
    }
  }
  return groups;
}

/** Collapses library frames and recursion; keeps exceptions and project frames verbatim. */
export function cleanStackTrace(text: string): CleanResult {
  const lines = splitLines(stripAnsi(text));
  const groups = frameGroups(lines);
  const output: string[] = [];
  let collapsedLibrary = 0;
  let collapsedRepeats = 0;
  let libraryRun: string[][] = [];
  const flushLibrary = (): void => {
    if (libraryRun.length === 0) return;
    // A run of one or two lines (one or two one-line frames, one two-line Python or Go frame)
    // costs about what the line that would replace it costs; from three lines on (two Python
    // frames: unittest's `testPartExecutor` and `run` above every failure) the line is cheaper.
    let runLines = 0;
    for (const group of libraryRun) runLines += group.length;
    if (runLines <= 2) {
      for (const group of libraryRun) output.push(...group);
    } else {
      const names = [...new Set(libraryRun.map((group) => libraryName(group[0]!)))];
      const indent = /^\s*/.exec(libraryRun[0]![0]!)?.[0] ?? '';
      output.push(`${indent}… ${libraryRun.length} library frames (${names.slice(0, 4).join(', ')}${names.length > 4 ? ', …' : ''})`);
      collapsedLibrary += libraryRun.length;
    }
    libraryRun = [];
  };
  let previous: string | undefined;
  let repeats = 0;
  const flushRepeats = (): void => {
    if (repeats > 0) output.push(`    [previous frame repeated ×${repeats}]`);
    collapsedRepeats += repeats;
    repeats = 0;
  };
  for (const group of groups) {
    const first = group[0]!;
    const frame = group.length === 2 || isFrameLine(first);
    const joined = group.join('\n');
    if (frame && joined === previous) {
      repeats++;
      continue;
    }
    flushRepeats();
    previous = frame ? joined : undefined;
    // A Go frame names its file on the second line, so the whole frame is judged.
    if (frame && isLibraryFrame(joined)) {
      libraryRun.push(group);
      continue;
    }
    flushLibrary();
    output.push(...group);
  }
  flushRepeats();
  flushLibrary();
  const removed: string[] = [];
  if (collapsedLibrary > 0) removed.push(`${collapsedLibrary} library frames collapsed`);
  if (collapsedRepeats > 0) removed.push(`${collapsedRepeats} repeated frames folded`);
  return cleanResult(text, output.join('\n') + trailingNewline(text), 'stack-trace', removed);
}
