/**
 * A mini-swe-agent trajectory as the steps of an agent (its reasoning, one shell command, the
 * command's output), and each command as the Copilot tool call that does the same thing: a
 * file read as `read_file`, a grep as `grep_search`, a listing as `list_dir`, a `find -name` as
 * `file_search`, a heredoc that writes a file as `create_file` (or `apply_patch`), a `sed -i`
 * substitution as `replace_string_in_file` (or `insert_edit_into_file`), a Python snippet as
 * the Pylance MCP server's `mcp_pylance_mcp_s_pylanceRunCodeSnippet`, anything else as
 * `run_in_terminal`. The command's real output is the tool's result.
 */
import type { Trajectory } from '../sharedData';

/** One step of the agent: what it thought, the command it ran and what came back. */
export interface TrajectoryStep {
  /** The reasoning before the command block, without the `THOUGHT:` label. */
  readonly thought: string;
  readonly command: string;
  /** The command's exit code (undefined when the observation did not say). */
  readonly returnCode?: number;
  /** The command's output as the agent saw it. */
  readonly output: string;
  /** The model's own reasoning text, when the provider returned it. */
  readonly reasoning?: string;
  /** The provider's id of the response that made this step. */
  readonly responseId?: string;
}

/** A Copilot tool call standing for one step. */
export interface CopilotCall {
  readonly name: string;
  readonly arguments: Record<string, unknown>;
  /** The tool's result text. */
  readonly result: string;
  /** Reads nothing it changes: such calls may go out together in one batch. */
  readonly readOnly: boolean;
}

/** Which edit tools the model family gets (Copilot offers Claude the string-replace tools, GPT models apply_patch). */
export type EditStyle = 'replace-string' | 'apply-patch';

const WORKSPACE = '/testbed';
/** Copilot's confirmation of a successful edit (the export's own wording). */
const EDITED = (path: string): string => `The following files were successfully edited:\n${path}\n`;

interface RawTrajectoryMessage {
  readonly role: string;
  readonly content: string;
  readonly extra?: { readonly response?: { readonly id?: string; readonly choices?: readonly { readonly message?: { readonly reasoning?: string | null } }[] } };
}

/** The steps of a trajectory, in order (an assistant message with no command block ends the list). */
export function stepsOf(trajectory: Trajectory): TrajectoryStep[] {
  const messages = trajectory.messages as unknown as RawTrajectoryMessage[];
  const steps: TrajectoryStep[] = [];
  for (let index = 2; index < messages.length; index += 2) {
    const assistant = messages[index]!;
    const observation = messages[index + 1];
    if (assistant.role !== 'assistant') break;
    // The agent's one command block (its reasoning may quote other fenced code before it).
    const block = /```(?:bash|sh)\n([\s\S]*?)\n```/.exec(assistant.content) ?? /```\n([\s\S]*?)\n```(?![\s\S]*```)/.exec(assistant.content);
    if (!block) break;
    const thought = assistant.content.slice(0, block.index).replace(/^\s*THOUGHT:\s*/, '').trim();
    const response = assistant.extra?.response;
    const reasoning = response?.choices?.[0]?.message?.reasoning ?? undefined;
    const parsed = observation ? parseObservation(observation.content) : { output: '' };
    steps.push({ thought, command: block[1]!, ...parsed, ...(reasoning ? { reasoning } : {}), ...(response?.id ? { responseId: response.id } : {}) });
  }
  return steps;
}

/** `<returncode>N</returncode>` and the `<output>` inside, or the whole rest when it was cut (head, elided, tail). */
function parseObservation(text: string): { returnCode?: number; output: string } {
  const code = /<returncode>(-?\d+)<\/returncode>/.exec(text);
  const output = /<output>\n?([\s\S]*?)<\/output>\s*$/.exec(text);
  const rest = code ? text.slice(code.index + code[0].length).replace(/^\n/, '') : text;
  return { ...(code ? { returnCode: Number(code[1]) } : {}), output: output ? output[1]! : rest };
}

function absolute(path: string): string {
  return path.startsWith('/') ? path : `${WORKSPACE}/${path.replace(/^\.\//, '')}`;
}

/** The first sentence of the agent's reasoning, as the one-line explanation Copilot's tools ask for. */
function explanationOf(thought: string): string {
  const sentence = /^[^\n]*?[.!?](?=\s|$)/.exec(thought)?.[0] ?? thought.split('\n')[0] ?? '';
  return sentence.length > 160 ? `${sentence.slice(0, 157)}...` : sentence;
}

/** The Copilot call that does what the step's command did. */
export function callOf(step: TrajectoryStep, style: EditStyle): CopilotCall {
  const command = step.command.replace(/^cd \/testbed\s*&&\s*/, '').trim();
  const failed = step.returnCode !== undefined && step.returnCode !== 0;
  const output = step.output;
  const explanation = explanationOf(step.thought);
  let match: RegExpExecArray | null;
  if ((match = /^cat\s*(?:<<\s*-?(['"]?)(\w+)\1\s*>\s*(\S+)|>\s*(\S+)\s*<<\s*-?(['"]?)(\w+)\5)\n([\s\S]*?)\n(\w+)\s*$/.exec(command)) && match[8] === (match[2] ?? match[6])) {
    const path = absolute(match[3] ?? match[4]!);
    const content = `${match[7]!}\n`;
    if (style === 'apply-patch') {
      const patch = ['*** Begin Patch', `*** Add File: ${path}`, ...content.replace(/\n$/, '').split('\n').map((line) => `+${line}`), '*** End Patch'].join('\n');
      return { name: 'apply_patch', arguments: { input: patch, explanation }, result: failed ? output : EDITED(path), readOnly: false };
    }
    return { name: 'create_file', arguments: { filePath: path, content }, result: failed ? output : EDITED(path), readOnly: false };
  }
  if ((match = /^sed -i(?:\.bak)? (['"])s([/|#])((?:(?!\2).)*)\2((?:(?!\2).)*)\2g?\1 (\S+)$/.exec(command))) {
    const path = absolute(match[5]!);
    if (style === 'apply-patch') {
      return { name: 'insert_edit_into_file', arguments: { filePath: path, code: `// ...existing code...\n${match[4]!}\n// ...existing code...`, explanation }, result: failed ? output : EDITED(path), readOnly: false };
    }
    return { name: 'replace_string_in_file', arguments: { filePath: path, oldString: match[3]!, newString: match[4]! }, result: failed ? output : EDITED(path), readOnly: false };
  }
  if ((match = /^python3?\s+-\s*<<\s*(['"]?)(\w+)\1\n([\s\S]*?)\n\2\s*$/.exec(command)) || (match = /^python3? -c (['"])([\s\S]+)\1$/.exec(command))) {
    const snippet = match.length > 3 ? match[3]! : match[2]!;
    return { name: 'mcp_pylance_mcp_s_pylanceRunCodeSnippet', arguments: { workspaceRoot: `file://${WORKSPACE}`, codeSnippet: snippet, workingDirectory: WORKSPACE }, result: output, readOnly: false };
  }
  if (!failed) {
    const read = readOf(command);
    if (read) return { name: 'read_file', arguments: read, result: output, readOnly: true };
    if ((match = /^grep\s+((?:-[A-Za-z]+\s+)*)(?:(['"])(.+?)\2|([^\s'"|]+))(?:\s+([^\s|]+))?$/.exec(command))) {
      const flags = match[1] ?? '';
      const query = match[3] ?? match[4]!;
      const where = match[5];
      const isRegexp = /E|P/.test(flags) || /[\\^$*+?()[\]{}|]/.test(query);
      return { name: 'grep_search', arguments: { query, isRegexp, ...(where && where !== '.' ? { includePattern: /\.\w+$/.test(where) ? where : `${where.replace(/\/$/, '')}/**` } : {}) }, result: output, readOnly: true };
    }
    if ((match = /^ls(?:\s+-[A-Za-z]+)*(?:\s+([^\s|;&]+))?$/.exec(command))) {
      return { name: 'list_dir', arguments: { path: absolute(match[1] ?? '.') }, result: output, readOnly: true };
    }
    if ((match = /^find\s+(\S+)\s+(?:-type [fd]\s+)?-i?name\s+(['"]?)([^'"\s]+)\2(?:\s+-type [fd])?$/.exec(command))) {
      return { name: 'file_search', arguments: { query: `**/${match[3]!}` }, result: output, readOnly: true };
    }
  }
  return { name: 'run_in_terminal', arguments: { command: step.command, explanation, isBackground: false }, result: failed ? `${output}\nCommand exited with code ${step.returnCode}` : output, readOnly: false };
}

/** `cat FILE`, `sed -n 'A,Bp' FILE`, `nl -ba FILE | sed -n 'A,Bp'`, `head -n N FILE` as read_file arguments. */
function readOf(command: string): Record<string, unknown> | undefined {
  let match: RegExpExecArray | null;
  if ((match = /^cat\s+([^\s|;&<>]+)$/.exec(command))) return { filePath: absolute(match[1]!) };
  if ((match = /^sed -n\s+['"]?(\d+),(\d+)p['"]?\s+([^\s|;&]+)$/.exec(command)) || (match = /^nl -ba\s+([^\s|]+)\s*\|\s*sed -n\s+['"]?(\d+),(\d+)p['"]?$/.exec(command))) {
    const [file, start, end] = command.startsWith('nl') ? [match[1]!, match[2]!, match[3]!] : [match[3]!, match[1]!, match[2]!];
    return { filePath: absolute(file), offset: Number(start), limit: Number(end) - Number(start) + 1 };
  }
  if ((match = /^head\s+-n?\s*(\d+)\s+([^\s|;&]+)$/.exec(command))) return { filePath: absolute(match[2]!), offset: 1, limit: Number(match[1]) };
  return undefined;
}
