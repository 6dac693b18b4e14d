/**
 * `herald users add|remove|list --users FILE`: the team file a shared gateway reads with
 * `herald serve --users FILE`. `add` prints the new user's token once (the file keeps only its
 * SHA-256); a running gateway sees the change within a second.
 */
import { describeError } from '../core/errors';
import { addUser, readTeamFile, removeUser } from '../gateway/users';
import { CliError, parseOptions, type CliCommand } from './io';
import type { OptionSpec } from './optionSpec';

export const USERS_USAGE = 'users add NAME [--admin] | remove NAME | list  --users FILE';

/** `herald users`' options, one line each: the parser and `herald users --help` read them. */
export const USERS_OPTIONS = {
  users: { value: 'FILE', help: 'the team file (the one herald serve --users reads); created by the first add' },
  admin: { help: 'with add: the user sees every user\'s requests' },
} satisfies OptionSpec;

export const usersCommand: CliCommand = async (args, io) => {
  const { options, positional } = parseOptions(args, USERS_OPTIONS);
  const [action, name, ...rest] = positional;
  if (typeof options.users !== 'string') throw new CliError('herald users: give the team file with --users FILE (the file herald serve --users reads)');
  const file = options.users;
  if (rest.length > 0) throw new CliError(`herald users: unexpected argument "${rest[0]}"`);
  try {
    if (action === 'add' && name) {
      const token = addUser(file, name, options.admin === true);
      io.stdout(`${token}\n`);
      io.stderr(`herald: ${name}${options.admin === true ? ' (admin)' : ''} added to ${file}. The token above is shown only this once: give it to ${name}, who sends it as x-herald-token (or a base URL ending /herald/<token>).\n`);
      return 0;
    }
    if (action === 'remove' && name) {
      if (!removeUser(file, name)) throw new CliError(`herald users: there is no ${name} in ${file}`, 1);
      io.stderr(`herald: ${name} removed from ${file}; their token no longer opens the gateway.\n`);
      return 0;
    }
    if (action === 'list' && !name) {
      for (const user of readTeamFile(file).users) io.stdout(`${user.name}${user.admin ? ' (admin)' : ''}${user.created ? `  added ${user.created}` : ''}\n`);
      return 0;
    }
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError(describeError(error).replace(/^Herald:/, 'herald users:'), 1);
  }
  throw new CliError(`herald users: usage: herald ${USERS_USAGE}`);
};
