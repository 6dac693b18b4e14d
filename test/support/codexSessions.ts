/**
 * Codex-shaped sessions built from the mini-swe-agent trajectories: every request as the
 * Responses API body a Codex-like client would send (instructions, input items, a `shell`
 * function tool, each bash block a `function_call` with its `function_call_output`), stateless
 * (`store: false`, the whole input each time). The trajectories' text is real; the item shape is
 * reconstructed from the Responses API reference, not recorded from Codex.
 */
import type { Trajectory } from './sharedData';

const SHELL_TOOL = {
  type: 'function',
  name: 'shell',
  description: 'Runs a shell command and returns its output.',
  strict: false,
  parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] },
};

/** The command of an assistant message's last ```bash block, or undefined. */
function commandOf(text: string): string | undefined {
  const blocks = [...text.matchAll(/```bash\n([\s\S]*?)```/g)];
  return blocks.length > 0 ? blocks[blocks.length - 1]![1]!.trimEnd() : undefined;
}

/** Every request of the trajectory as a Responses API body, in order. */
export function codexRequests(trajectory: Trajectory, model = 'gpt-5-codex'): Record<string, unknown>[] {
  const [system, ...rest] = trajectory.messages;
  const input: unknown[] = [];
  const requests: Record<string, unknown>[] = [];
  let pendingCall: string | undefined;
  rest.forEach((message, index) => {
    if (message.role === 'assistant') {
      requests.push({ model, instructions: system?.content ?? '', input: [...input], tools: [SHELL_TOOL], tool_choice: 'auto', parallel_tool_calls: false, store: false, stream: true, include: ['reasoning.encrypted_content'] });
      const command = commandOf(message.content);
      const thought = command === undefined ? message.content : message.content.slice(0, message.content.lastIndexOf('```bash')).trimEnd();
      if (thought.length > 0) input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: thought, annotations: [] }] });
      if (command !== undefined) {
        pendingCall = `call_${index}`;
        input.push({ type: 'function_call', call_id: pendingCall, name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', command] }) });
      }
      return;
    }
    if (pendingCall !== undefined) {
      input.push({ type: 'function_call_output', call_id: pendingCall, output: message.content });
      pendingCall = undefined;
    } else {
      input.push({ type: 'message', role: 'user', content: [{ type: 'input_text', text: message.content }] });
    }
  });
  return requests;
}
