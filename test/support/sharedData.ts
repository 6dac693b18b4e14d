/** Paths into ../shared/data (public material nobody here wrote), and trajectory loading. */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const SHARED_DATA = process.env.HERALD_SHARED_DATA ?? path.resolve(__dirname, '..', '..', '..', 'shared', 'data');

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}

export function hasSharedData(): boolean {
  return fs.existsSync(SHARED_DATA);
}

export interface Trajectory {
  readonly instance: string;
  /** OpenAI-style messages as the agent sent them (role, content, and extra fields). */
  readonly messages: { role: string; content: string; [key: string]: unknown }[];
  /** The final diff the agent submitted. */
  readonly submission: string;
}

export function trajectoryNames(): string[] {
  return fs.readdirSync(sharedPath('trajectories')).filter((name) => !name.startsWith('.')).sort();
}

export function loadTrajectory(instance: string): Trajectory {
  const file = sharedPath('trajectories', instance, `${instance}.traj.json`);
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: Trajectory['messages']; info?: { submission?: string } };
  return { instance, messages: data.messages, submission: data.info?.submission ?? '' };
}

/**
 * Every request the agent sent, in order: the conversation up to (not including) each
 * assistant message, as an OpenAI chat completions body.
 */
export function turnRequests(trajectory: Trajectory, model = 'gpt-4o'): { model: string; messages: unknown[] }[] {
  const requests: { model: string; messages: unknown[] }[] = [];
  trajectory.messages.forEach((message, index) => {
    if (message.role === 'assistant' && index > 0) requests.push({ model, messages: trajectory.messages.slice(0, index) });
  });
  return requests;
}
