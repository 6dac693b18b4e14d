/**
 * `herald demo`: runs the default pipeline on the embedded sample session and prints what
 * was saved and why: tokens before and after, each strategy's decision, and a handle to try
 * with `herald retrieve`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../core/chat';
import { Pipeline } from '../core/pipeline';
import { RecordingLogger } from '../core/ports';
import { createStrategies } from '../core/strategies';
import { parseOptions, type CliCommand } from './io';
import type { OptionSpec } from './optionSpec';
import { sampleRequest } from './sample';
import { openStashDirectory } from './stashDirectory';
import { expandRequest } from './expandCommand';
import { sitesFrom } from '../core/pipeline';
import { cliStrategyEnvironment } from './optimizeCommand';

/** `herald demo`'s options: the parser and `herald demo --help` read them. */
export const DEMO_OPTIONS = {
  stash: { value: 'DIR', help: 'the stash folder (default: a new temporary folder)' },
  json: { help: 'print the report as JSON' },
  print: { help: 'print the optimized request instead of the report' },
} satisfies OptionSpec;

export const demoCommand: CliCommand = async (args, io) => {
  const { options } = parseOptions(args, DEMO_OPTIONS);
  const directoryName = typeof options.stash === 'string' ? options.stash : fs.mkdtempSync(path.join(os.tmpdir(), 'herald-demo-'));
  const logger = new RecordingLogger();
  const directory = openStashDirectory(directoryName, logger);
  const request = parseRequest(sampleRequest());
  const pipeline = new Pipeline(createStrategies(cliStrategyEnvironment()), {}, { stash: directory.stash, memo: directory.memo, state: directory.state, logger });
  const result = await pipeline.run(request);
  directory.save();
  // Lossless means every message's content comes back; tool order and descriptions are not content.
  const expanded = await expandRequest(result.request, directory.stash, sitesFrom(result.elisions));
  const lossless = JSON.stringify(serializeRequest({ ...expanded, tools: [] })) === JSON.stringify(serializeRequest({ ...request, tools: [] }));

  if (options.json === true) {
    io.stdout(JSON.stringify({ tokensBefore: result.tokensBefore, tokensAfter: result.tokensAfter, lossless, decisions: result.decisions, stash: directoryName }, null, 2) + '\n');
    return 0;
  }
  if (options.print === true) {
    io.stdout(JSON.stringify(serializeRequest(result.request), null, 2) + '\n');
    return 0;
  }
  const saved = result.tokensBefore - result.tokensAfter;
  const out: string[] = [];
  out.push('Herald demo: an agent session that read src/checkout.ts twice, ran a test suite (2 failures),', 'read a 600-line service log, patched the bug and re-ran the tests.', '');
  out.push(`Tokens: ${result.tokensBefore} → ${result.tokensAfter}  (saved ${saved}, ${percent(saved, result.tokensBefore)})  in ${result.durationMs.toFixed(1)} ms`);
  out.push(`Lossless: ${lossless ? 'yes — every marker expands back to the original, byte for byte' : 'NO — an elision did not expand back (a bug; please report it)'}`, '');
  out.push('What each strategy did:');
  const width = Math.max(...result.decisions.map((decision) => decision.strategy.length), 8);
  for (const decision of result.decisions) {
    const delta = decision.tokensBefore - decision.tokensAfter;
    const figure = delta > 0 ? `-${delta} tokens` : decision.status;
    out.push(`  ${decision.strategy.padEnd(width)}  ${figure.padEnd(14)} ${decision.action}: ${decision.reason}`);
  }
  if (result.decisions.length === 0) out.push('  (no strategy is enabled in this build)');
  const handle = result.decisions.flatMap((decision) => decision.handles)[0];
  out.push('');
  if (handle) out.push(`Try: node dist/cli.js retrieve ${handle} --stash ${directoryName}`);
  out.push('See the optimized request: node dist/cli.js demo --print');
  if (logger.lines.length > 0) out.push('', 'Problems:', ...logger.lines.map((line) => `  ${line.level} ${line.code}: ${line.message}`));
  io.stdout(out.join('\n') + '\n');
  return lossless ? 0 : 1;
};

function percent(part: number, whole: number): string {
  return whole === 0 ? '0%' : `${((100 * part) / whole).toFixed(1)}%`;
}
