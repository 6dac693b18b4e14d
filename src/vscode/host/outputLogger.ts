/** The core's Logger written to Herald's LogOutputChannel, each line prefixed with its code. */
import type * as vscode from 'vscode';
import type { Logger } from '../../core/ports';

export function outputLogger(channel: vscode.LogOutputChannel): Logger {
  return {
    info: (code, message) => channel.info(`[${code}] ${message}`),
    warn: (code, message) => channel.warn(`[${code}] ${message}`),
    error: (code, message) => channel.error(`[${code}] ${message}`),
  };
}
