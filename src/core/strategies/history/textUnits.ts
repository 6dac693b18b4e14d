/**
 * Splits an assistant's text into units that history_trim keeps or drops whole: verbatim
 * blocks (fenced code, action tags, code-looking lines, tables), short labels such as
 * mini-swe-agent's `THOUGHT:`, headings, and prose sentences. Every unit carries its own
 * trailing whitespace, so joining the units' texts gives the input back byte for byte.
 */
import { splitSentences } from './sentences';

/** What a unit is, which decides whether it may ever be dropped. */
export type TextUnitKind =
  /** Code lines, a table, a marker, blank lines: never dropped. */
  | 'verbatim'
  /** A fenced block that is not an action (code or output the agent quotes): dropped only when shown earlier. */
  | 'quote'
  /** The fenced block an agent runs as its action (mini-swe-agent's one bash block): never dropped. */
  | 'action'
  /** A leading `THOUGHT:`-style label or a Markdown heading: never dropped (structure, a few tokens). */
  | 'label'
  /** A prose sentence or list item: kept or dropped on its content. */
  | 'sentence';

export interface TextUnit {
  readonly kind: TextUnitKind;
  /** The unit's bytes including its trailing whitespace. */
  readonly text: string;
}

/** Fence languages whose block is a command an agent runs, not code it quotes. */
const ACTION_FENCE_LANGUAGES = new Set(['bash', 'sh', 'shell', 'zsh', 'console', 'shell-session', 'terminal', 'cmd', 'powershell', 'diff', 'patch']);
/** A fence opener at the end of a line that starts with prose: `Run it: ```bash`. */
const INLINE_ACTION_FENCE = /(`{3,}|~{3,})([A-Za-z-]+)[ \t]*\r?\n$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})\s*([^\s`]*)[^\n]*$/;
/** Tags agents wrap their tool calls in when the call lives in the text (SWE-agent, Hermes, XML tool formats). */
const ACTION_TAG_OPEN = /^\s*<(function(?:=[^>\s]*)?|tool_call|invoke|function_calls|command|execute|execute_bash|str_replace_editor|patch|edit)\b[^>]*>/;
/** Lines that are code or data rather than prose. */
const CODE_LINE = /^(?: {4}|\t|\d+\t|\s*\d+\s*\|\s|\|.*\|\s*$|[+-]{3} |@@ |diff --git |\*\*\* (?:Begin|End|Update|Add|Delete) |[ \t]*[{}[\])]+[,;]?\s*$|\s*(?:def |class |import |from \S+ import |return |if .*:\s*$|for .* in .*:\s*$|#include|#!\/))/;
const LABEL = /^([A-Z][A-Za-z ]{0,23}:)([ \t]+|$)/;
const HEADING = /^ {0,3}#{1,6} /;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,3}[.)])\s+/;

/** The units of a text; `units.map((unit) => unit.text).join('')` is the text. */
export function splitUnits(text: string): TextUnit[] {
  const lines = splitLinesKeepingEnds(text);
  const units: TextUnit[] = [];
  let index = 0;
  while (index < lines.length) {
    const inline = inlineActionFence(lines[index]!);
    if (inline && lines[index]!.slice(0, inline.index).trim().length > 0 && ACTION_FENCE_LANGUAGES.has(inline.language.toLowerCase())) {
      // Agents' parsers find "```bash" anywhere in a line (mini-swe-agent's does), so the prose before it is split off.
      lines.splice(index, 1, lines[index]!.slice(0, inline.index), lines[index]!.slice(inline.index));
    }
    const line = lines[index]!;
    const body = line.replace(/\r?\n$/, '');
    const fence = FENCE_OPEN.exec(body);
    if (fence) {
      const end = fenceEnd(lines, index, fence[1]!);
      const block = lines.slice(index, end).join('');
      const language = (fence[2] ?? '').toLowerCase();
      units.push({ kind: ACTION_FENCE_LANGUAGES.has(language) ? 'action' : 'quote', text: block });
      index = end;
      continue;
    }
    const tag = ACTION_TAG_OPEN.exec(body);
    if (tag) {
      const end = tagEnd(lines, index, tag[1]!.replace(/=.*$/, ''));
      units.push({ kind: 'action', text: lines.slice(index, end).join('') });
      index = end;
      continue;
    }
    if (body.trim().length === 0 || CODE_LINE.test(body) || body.includes('[herald: ')) {
      // Blank lines, code and earlier markers stay as they are; a marker keeps its nested original reachable.
      units.push({ kind: 'verbatim', text: line });
      index++;
      continue;
    }
    if (HEADING.test(body)) {
      units.push({ kind: 'label', text: line });
      index++;
      continue;
    }
    let rest = line;
    const label = units.length === 0 ? LABEL.exec(line) : null;
    if (label && !LIST_ITEM.test(line)) {
      const labelText = label[0];
      units.push({ kind: 'label', text: labelText });
      rest = line.slice(labelText.length);
      if (rest.length === 0) {
        index++;
        continue;
      }
    }
    for (const sentence of splitSentences(rest)) units.push({ kind: 'sentence', text: sentence });
    index++;
  }
  return mergeWhitespaceUnits(units);
}

function splitLinesKeepingEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', start)) {
    lines.push(text.slice(start, newline + 1));
    start = newline + 1;
  }
  if (start < text.length) lines.push(text.slice(start));
  return lines;
}

/** Index just past the closing fence (same character, at least as long); an unclosed fence runs to the end. */
function fenceEnd(lines: readonly string[], open: number, fence: string): number {
  const closing = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}\\s*$`);
  for (let index = open + 1; index < lines.length; index++) {
    if (closing.test(lines[index]!.replace(/\r?\n$/, ''))) return index + 1;
  }
  return lines.length;
}

/** Index just past the line that closes an action tag; an unclosed tag runs to the end. */
function tagEnd(lines: readonly string[], open: number, name: string): number {
  const closing = `</${name}>`;
  for (let index = open; index < lines.length; index++) {
    if (lines[index]!.includes(closing)) return index + 1;
  }
  return lines.length;
}

/** A whitespace-only unit joins the unit before it, so gaps never leave stray blank lines behind. */
function mergeWhitespaceUnits(units: readonly TextUnit[]): TextUnit[] {
  const merged: TextUnit[] = [];
  for (const unit of units) {
    const previous = merged[merged.length - 1];
    if (previous && unit.text.trim().length === 0) {
      merged[merged.length - 1] = { kind: previous.kind, text: previous.text + unit.text };
    } else {
      merged.push(unit);
    }
  }
  return merged;
}

/**
 * INLINE_ACTION_FENCE at the end of a line, looked for in the line's last 512 characters only
 * (the pattern is quadratic on a long run of backticks), its start moved back to the start of
 * the fence run, where a search of the whole line would have found it.
 */
function inlineActionFence(line: string): { index: number; language: string } | undefined {
  const offset = Math.max(0, line.length - 512);
  const match = INLINE_ACTION_FENCE.exec(offset === 0 ? line : line.slice(offset));
  if (!match) return undefined;
  const fenceCharacter = match[1]![0]!;
  let index = offset + match.index;
  while (index > 0 && line[index - 1] === fenceCharacter) index--;
  return { index, language: match[2] ?? '' };
}
