/**
 * One process's runs for `pipelineSpeed.bench.ts`, printed as one JSON line. The JSON argument
 * is `{ spec: { label, tree, bundle? }, runs }` for one form (a bundled core's file, or a
 * checkout's sources) measured by `measureForm`, or `{ pair: [first, second], runs }` for two
 * forms' cold decisions alternated in this process by `measurePaired`.
 */
import { loadBundledCore, sourceCore, type PipelineCore } from './shippedCore';
import { measureForm, measurePaired, type FormSpec } from './pipelineSpeed.bench';

async function coreOf(spec: FormSpec): Promise<PipelineCore> {
  return spec.bundle !== undefined ? loadBundledCore(spec.bundle, spec.label) : sourceCore(spec.tree, spec.label);
}

async function main(): Promise<void> {
  const { spec, pair, runs } = JSON.parse(process.argv[2] ?? '{}') as { spec?: FormSpec; pair?: [FormSpec, FormSpec]; runs?: number };
  if (typeof runs !== 'number' || (spec === undefined && pair === undefined)) throw new Error('Herald bench: pipelineSpeedRuns.ts takes one JSON argument, { "spec": { "label", "tree", "bundle"? }, "runs" } or { "pair": [first, second], "runs" }');
  if (pair !== undefined) console.log(JSON.stringify(await measurePaired(await coreOf(pair[0]), await coreOf(pair[1]), runs)));
  else console.log(JSON.stringify(await measureForm(await coreOf(spec!), runs)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
