/** The `herald` command table: name → what it does and how it runs. Add a command with one line. */
import { CONTEXT_USAGE, contextCommand } from './contextCommand';
import { demoCommand } from './demoCommand';
import { expandCommand } from './expandCommand';
import { filterCommand } from './filterCommand';
import type { CliCommand } from './io';
import { optimizeCommand } from './optimizeCommand';
import { retrieveCommand } from './retrieveCommand';
import { SERVE_USAGE, serveCommand } from './serveCommand';
import { USERS_USAGE, usersCommand } from './usersCommand';

export interface CommandEntry {
  readonly usage: string;
  readonly summary: string;
  readonly run: CliCommand;
}

export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  demo: { usage: 'demo [--json] [--print] [--stash DIR]', summary: 'optimize the embedded sample session and show what was saved and why', run: demoCommand },
  optimize: {
    usage: 'optimize [--format openai|anthropic|responses] [--enable ids] [--disable ids] [--window-tokens N] [--stash DIR] [--decisions FILE] [--embedding-model DIR] [--time-limit MS] [--rewrite-share 0-1]',
    summary: 'read a request on stdin, print the optimized request',
    run: optimizeCommand,
  },
  context: { usage: CONTEXT_USAGE, summary: 'print the Markdown bundle of rules and reference a knowledge library gives for a task', run: contextCommand },
  retrieve: { usage: 'retrieve HANDLE [--stash DIR]', summary: 'print the original behind a handle, byte for byte', run: retrieveCommand },
  filter: {
    usage: 'filter [--judge-url URL --judge-model M [--judge-kind openai|anthropic]] [--thresholds FILE] [--no-quality-check] [--lexical] [--pretty]',
    summary: 'read {question, candidates} on stdin, print the kept items and a report of every decision',
    run: filterCommand,
  },
  serve: { usage: SERVE_USAGE, summary: 'run the local gateway: OpenAI Chat Completions, Responses and Anthropic Messages, every request optimized on its way to the provider', run: serveCommand },
  users: { usage: USERS_USAGE, summary: 'add, remove or list the users of a shared gateway (herald serve --users FILE); add prints the new token once', run: usersCommand },
  expand: { usage: 'expand [--stash DIR] [--format openai|anthropic|responses]', summary: 'read an optimized request, print it with every marker expanded', run: expandCommand },
};
