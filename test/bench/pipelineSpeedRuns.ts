/**
 * One process's runs for `pipelineSpeed.bench.ts`: the form named in the JSON argument
 * (`{ spec: { label, tree, bundle? }, runs }`: a bundled core's file, or a checkout's sources),
 * measured by `measureForm`, printed as one JSON line.
 */
import { loadBundledCore, sourceCore } from './shippedCore';
import { measureForm, type FormSpec } from './pipelineSpeed.bench';

async function main(): Promise<void> {
  const { spec, runs } = JSON.parse(process.argv[2] ?? '{}') as { spec?: FormSpec; runs?: number };
  if (spec === undefined || typeof runs !== 'number') throw new Error('Herald bench: pipelineSpeedRuns.ts takes one JSON argument, { "spec": { "label", "tree", "bundle"? }, "runs" }');
  const core = spec.bundle !== undefined ? loadBundledCore(spec.bundle, spec.label) : await sourceCore(spec.tree, spec.label);
  console.log(JSON.stringify(await measureForm(core, runs)));
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
