/**
 * `npm run bench`: runs every `*.bench.ts` in this folder (or those named on the command
 * line, e.g. `npm run bench -- pipeline`) and prints each report. Figures are medians or
 * ratios over several runs: the machine is shared and noisy. Reports are also written as
 * JSON to bench-results/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface BenchReport {
  readonly title: string;
  /** Human-readable lines, printed as they are. */
  readonly lines: readonly string[];
  /** Machine-readable figures, saved to bench-results/<name>.json. */
  readonly figures?: Readonly<Record<string, unknown>>;
}

interface BenchModule {
  bench(): Promise<BenchReport>;
}

async function main(): Promise<void> {
  const wanted = process.argv.slice(2);
  const files = fs.readdirSync(__dirname).filter((name) => name.endsWith('.bench.ts')).sort()
    .filter((name) => wanted.length === 0 || wanted.some((word) => name.includes(word)));
  if (files.length === 0) {
    console.error(`Herald bench: no benchmark matches ${wanted.join(', ')}`);
    process.exitCode = 1;
    return;
  }
  const outDir = path.resolve(__dirname, '..', '..', 'bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  for (const file of files) {
    const started = Date.now();
    const module = (await import(path.join(__dirname, file))) as BenchModule;
    const report = await module.bench();
    console.log(`\n## ${report.title}  (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    for (const line of report.lines) console.log(line);
    fs.writeFileSync(path.join(outDir, file.replace('.bench.ts', '.json')), JSON.stringify(report, null, 2));
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.stack : String(error));
  process.exitCode = 1;
});
