/**
 * The scripted agent the loopback provider plays: a task is a list of abstract steps (list a
 * folder, read a file, run a command, grep) and a final answer. Each request is answered with
 * the next step, as a call of the tool the client actually offers for it (Claude Code's `Bash`
 * and `Read`, Codex's `exec_command`, Qwen Code's `run_shell_command`, `read_file`,
 * `grep_search`…), or with a shell command doing the same where the client has no such tool.
 *
 * Which step is next is read from the request itself (the calls the conversation already holds,
 * Herald's own `herald_retrieve` calls left out), so a client's retry or Herald's in-turn round
 * gets the same answer the first request got.
 */
import * as path from 'node:path';

export type Step =
  | { readonly kind: 'list'; readonly path: string }
  | { readonly kind: 'read'; readonly path: string }
  | { readonly kind: 'shell'; readonly command: string }
  | { readonly kind: 'grep'; readonly pattern: string; readonly path: string };

/** One task: what the user asks, the steps the agent takes, and how it answers. */
export interface TaskScript {
  /** Also the tag `[task:<id>]` in the prompt, by which the provider knows the script. */
  readonly id: string;
  /** Tuned on, or held out (reported, never tuned on). */
  readonly set: 'tuning' | 'held-out';
  readonly length: 'short' | 'long';
  readonly prompt: string;
  readonly steps: readonly Step[];
  /** The answer's fixed part; the provider adds the last tool result it saw (when short). */
  readonly answer: string;
}

/** A tool as the client offers it: its name and its input schema's properties. */
export interface OfferedTool {
  readonly name: string;
  readonly properties: Readonly<Record<string, { readonly type?: unknown }>>;
}

/** A call the agent makes: the tool's name and its input object. */
export interface AgentCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
}

/** Herald's own tool, called once a session when a marker shows up and the tool is offered. */
export const HERALD_RETRIEVE = 'herald_retrieve';

const SHELL_NAMES = ['Bash', 'exec_command', 'run_shell_command', 'shell', 'shell_command', 'local_shell'];
const READ_NAMES = ['Read', 'read_file', 'view', 'read'];
const LIST_NAMES = ['LS', 'list_directory', 'list_dir', 'ls'];
const GREP_NAMES = ['Grep', 'grep_search', 'grep_files', 'grep'];
const PATH_KEYS = ['file_path', 'absolute_path', 'path', 'filePath', 'dir_path'];

function byName(tools: readonly OfferedTool[], names: readonly string[]): OfferedTool | undefined {
  for (const name of names) {
    const found = tools.find((tool) => tool.name === name);
    if (found) return found;
  }
  return undefined;
}

function pathKey(tool: OfferedTool): string | undefined {
  return PATH_KEYS.find((key) => key in tool.properties);
}

function shellCall(tools: readonly OfferedTool[], command: string): AgentCall {
  const tool = byName(tools, SHELL_NAMES) ?? tools.find((candidate) => 'command' in candidate.properties || 'cmd' in candidate.properties);
  if (!tool) throw new Error(`Herald live bench: the client offers no shell tool (offered: ${tools.map((entry) => entry.name).join(', ')})`);
  if ('cmd' in tool.properties) return { name: tool.name, input: { cmd: command } };
  const arrayCommand = tool.properties.command?.type === 'array';
  return { name: tool.name, input: arrayCommand ? { command: ['bash', '-lc', command] } : { command } };
}

/** The call that performs `step` with the tools the client offers (paths absolute under `workspace`). */
export function callFor(step: Step, tools: readonly OfferedTool[], workspace: string): AgentCall {
  const absolute = (relative: string): string => path.join(workspace, relative);
  switch (step.kind) {
    case 'shell':
      return shellCall(tools, step.command);
    case 'read': {
      const tool = byName(tools, READ_NAMES);
      const key = tool && pathKey(tool);
      return tool && key ? { name: tool.name, input: { [key]: absolute(step.path) } } : shellCall(tools, `cat ${step.path}`);
    }
    case 'list': {
      const tool = byName(tools, LIST_NAMES);
      const key = tool && pathKey(tool);
      return tool && key ? { name: tool.name, input: { [key]: absolute(step.path) } } : shellCall(tools, `ls -la ${step.path}`);
    }
    case 'grep': {
      const tool = byName(tools, GREP_NAMES);
      if (tool && 'pattern' in tool.properties && 'path' in tool.properties) return { name: tool.name, input: { pattern: step.pattern, path: absolute(step.path) } };
      return shellCall(tools, `grep -rn '${step.pattern.replace(/'/g, "'\\''")}' ${step.path}`);
    }
  }
}

/** What the agent answers a request with. */
export type AgentReply =
  | { readonly kind: 'call'; readonly step: number; readonly call: AgentCall }
  | { readonly kind: 'retrieve'; readonly call: AgentCall }
  | { readonly kind: 'answer'; readonly text: string };

/** What the provider read from a request, whatever its API. */
export interface ConversationView {
  readonly tools: readonly OfferedTool[];
  /** Names of the calls the conversation holds, in order. */
  readonly calls: readonly string[];
  /** Text of the latest tool result, when the request ends with one. */
  readonly lastResult?: string;
  /** Every text of the conversation (markers are looked for in it). */
  readonly texts: readonly string[];
}

const TASK_TAG = /\[task:([a-z0-9-]+)\]/;

/** The task a request belongs to, from the tag in its texts. */
export function taskIdOf(view: ConversationView): string | undefined {
  for (const text of view.texts) {
    const match = TASK_TAG.exec(text);
    if (match) return match[1];
  }
  return undefined;
}

const HANDLE = /hr_[a-z2-7]{16}/;

/** The first Herald handle in the conversation's texts. */
export function firstHandle(view: ConversationView): string | undefined {
  for (const text of view.texts) {
    const match = HANDLE.exec(text);
    if (match) return match[0];
  }
  return undefined;
}

/** The final answer: the task's fixed part and the last result it saw, when that is one short line. */
export function finalAnswer(task: TaskScript, lastResult: string | undefined): string {
  const result = (lastResult ?? '').trim();
  return result.length > 0 && result.length <= 200 && !result.includes('\n') ? `${task.answer} (last result: ${result})` : task.answer;
}

/**
 * The next reply of `task`'s agent to a request: Herald's retrieve once a session (`retrieved`
 * tells whether it already happened) when a marker and the tool are there, else the next step,
 * else the final answer.
 */
export function nextReply(task: TaskScript, view: ConversationView, workspace: string, retrieved: boolean): AgentReply {
  const handle = firstHandle(view);
  if (!retrieved && handle && view.tools.some((tool) => tool.name === HERALD_RETRIEVE)) return { kind: 'retrieve', call: { name: HERALD_RETRIEVE, input: { handle } } };
  const done = view.calls.filter((name) => name !== HERALD_RETRIEVE).length;
  if (done < task.steps.length) return { kind: 'call', step: done, call: callFor(task.steps[done]!, view.tools, workspace) };
  return { kind: 'answer', text: finalAnswer(task, view.lastResult) };
}
