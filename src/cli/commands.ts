/**
 * The `herald` command table: name → what it does, what it reads, its options and how it runs.
 * Each command declares its options in its own file; `herald <command> --help` is written from
 * that declaration. Add a command with one entry.
 */
import { CONTEXT_OPTIONS, contextCommand } from './contextCommand';
import { DEMO_OPTIONS, demoCommand } from './demoCommand';
import { EXPAND_OPTIONS, expandCommand } from './expandCommand';
import { FILTER_OPTIONS, filterCommand } from './filterCommand';
import type { CliCommand } from './io';
import { OPTIMIZE_OPTIONS, optimizeCommand } from './optimizeCommand';
import type { CommandHelp } from './optionSpec';
import { RETRIEVE_OPTIONS, retrieveCommand } from './retrieveCommand';
import { SERVE_OPTIONS, serveCommand } from './serveCommand';
import { USERS_OPTIONS, usersCommand } from './usersCommand';

export interface CommandEntry extends Omit<CommandHelp, 'name'> {
  readonly run: CliCommand;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  demo: { summary: 'Optimize the embedded sample session and show what was saved and why.', options: DEMO_OPTIONS, run: demoCommand },
  optimize: {
    summary: 'Optimize one request: the optimized request goes to stdout, each strategy\'s decision to --decisions FILE.',
    stdin: 'a request (OpenAI Chat Completions, OpenAI Responses or Anthropic Messages JSON)',
    options: OPTIMIZE_OPTIONS,
    notes: ['Example: herald optimize --decisions decisions.json < request.json > optimized.json'],
    run: optimizeCommand,
  },
  context: {
    summary: 'Print the Markdown bundle of rules and reference a knowledge library gives for a task.',
    options: CONTEXT_OPTIONS,
    notes: ['Example: herald context --library .herald --task "add a refund endpoint" --max-tokens 4000'],
    run: contextCommand,
  },
  retrieve: { summary: 'Print the original behind a handle, byte for byte.', arguments: 'HANDLE', options: RETRIEVE_OPTIONS, notes: ['Example: herald retrieve hr_k2p4q7m3x9a5b6c1'], run: retrieveCommand },
  filter: {
    summary: 'Keep the candidates that answer a question: the kept items and a report of every decision go to stdout as JSON.',
    stdin: '{"question": "…", "candidates": [{"id": "…", "content": "…"}], "aggressiveness"?, "max_tokens"?, "agent"?, "model"?}',
    options: FILTER_OPTIONS,
    run: filterCommand,
  },
  serve: {
    summary: 'Run the local gateway: OpenAI Chat Completions (/v1/chat/completions), Responses (/v1/responses) and Anthropic Messages (/v1/messages), every request optimized on its way to the provider with the client\'s own credentials.',
    options: SERVE_OPTIONS,
    notes: ['Point OpenAI clients at http://127.0.0.1:8787/v1 and Anthropic clients at http://127.0.0.1:8787. Stop with Ctrl-C.'],
    run: serveCommand,
  },
  expand: {
    summary: 'Expand every elision of an optimized request back to its original (the lossless check).',
    stdin: 'an optimized request',
    options: EXPAND_OPTIONS,
    run: expandCommand,
  },
  users: {
    summary: 'Add, remove or list the users of a shared gateway (herald serve --users FILE); add prints the new user\'s token once.',
    arguments: 'add NAME [--admin] | remove NAME | list',
    options: USERS_OPTIONS,
    notes: ['Example: herald users add alice --users team.json'],
    run: usersCommand,
  },
};
