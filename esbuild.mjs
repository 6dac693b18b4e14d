// Builds Herald: the extension host bundle, the `herald` CLI, the OCR worker, the sidebar's
// browser code, and copies the binary files the code loads at run time into dist/.
// The VSIX ships dist/ alone (no node_modules), so everything a bundle reads from disk must be
// there; test/unit/dist/ runs the built CLI from a copy of dist/ to prove it.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, what the VSIX ships
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = dirname(new URL(import.meta.url).pathname);

/**
 * The grammars the code outliner has a language for (src/core/code/languages.ts); the other
 * grammars @vscode/tree-sitter-wasm ships (css, ini, regex, powershell) are never loaded.
 */
function usedGrammars() {
  const languages = readFileSync(join(root, 'src/core/code/languages.ts'), 'utf8');
  const names = new Set([...languages.matchAll(/grammarFile: '(tree-sitter-[\w-]+\.wasm)'/g)].map((match) => match[1]));
  if (names.size === 0) throw new Error('Herald build: no grammarFile found in src/core/code/languages.ts');
  return names;
}

/**
 * Binary files loaded at run time, copied flat into dist/ (see AssetLocator in
 * src/core/ports.ts and src/core/strategies/ocr/ocrAssets.ts, whose file lists these match).
 */
const ASSETS = [
  // tree-sitter's runtime and the grammars Herald outlines with.
  { from: 'node_modules/web-tree-sitter', names: new Set(['tree-sitter.wasm']) },
  { from: 'node_modules/@vscode/tree-sitter-wasm/wasm', names: usedGrammars() },
  // onnxruntime-web's plain wasm backend (SIMD, threads optional) and its loader; not the jsep/jspi variants.
  { from: 'node_modules/onnxruntime-web/dist', names: new Set(['ort-wasm-simd-threaded.wasm', 'ort-wasm-simd-threaded.mjs']) },
  // The Tesseract core the OCR worker loads (SIMD; in Node tesseract.js always takes a full
  // core, never an -lstm one; see shippedCoreOnly) and the English "best" LSTM model.
  { from: 'node_modules/tesseract.js-core', names: new Set(['tesseract-core-simd.wasm']) },
  { from: 'node_modules/@tesseract.js-data/eng/4.0.0_best_int', names: new Set(['eng.traineddata.gz']) },
];

/** Kinds of file only copyAssets puts in dist/: one of these not copied by this build is stale. */
const ASSET_FILE = /\.(wasm|mjs|gz)$/;

function copyAssets() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const copied = new Set();
  for (const asset of ASSETS) {
    const folder = join(root, asset.from);
    for (const name of asset.names) {
      if (!existsSync(join(folder, name))) throw new Error(`Herald build: ${asset.from}/${name} is missing; run npm ci`);
      copyFileSync(join(folder, name), join(root, 'dist', name));
      copied.add(name);
    }
  }
  // A file an earlier build copied and this one does not need would still ship in the VSIX.
  for (const name of readdirSync(join(root, 'dist'))) {
    if (ASSET_FILE.test(name) && !copied.has(name)) rmSync(join(root, 'dist', name));
  }
  return copied.size;
}

/**
 * tesseract.js falls back to node-fetch when there is no global fetch; every Node Herald runs
 * on (20+, VS Code's Electron) has one, so the bundles get the global instead of node-fetch and
 * its URL parser (about 400 KB).
 */
const globalFetch = {
  name: 'global-fetch',
  setup(build) {
    build.onResolve({ filter: /^node-fetch$/ }, () => ({ path: 'node-fetch', namespace: 'global-fetch' }));
    build.onLoad({ filter: /.*/, namespace: 'global-fetch' }, () => ({
      contents: 'module.exports = (...args) => globalThis.fetch(...args);',
      loader: 'js',
    }));
  },
};

/** Packages whose code or data ships inside dist/, for the third-party notices. */
const BUNDLED_PACKAGES = ['web-tree-sitter', '@vscode/tree-sitter-wasm', 'minisearch', 'stemmer', 'onnxruntime-web', 'zod', 'gpt-tokenizer', 'yaml', 'tesseract.js', 'tesseract.js-core', '@tesseract.js-data/eng',
  // The gateway's Redis store and metrics, and what they bundle.
  'ioredis', '@ioredis/commands', 'cluster-key-slot', 'denque', 'lodash.defaults', 'lodash.isarguments', 'redis-errors', 'redis-parser', 'standard-as-callback', 'debug', 'ms', 'prom-client', 'tdigest', 'bintrees'];

/** dist/THIRD-PARTY-NOTICES.txt: each bundled package's name, version, licence and licence text. */
function writeNotices() {
  const parts = ['Herald bundles the following packages. Their licences follow.', ''];
  for (const name of BUNDLED_PACKAGES) {
    const folder = join(root, 'node_modules', name);
    if (!existsSync(folder)) continue;
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(folder).find((file) => /^licen[cs]e(\.(md|txt))?$/i.test(file));
    parts.push('='.repeat(78), `${name} ${manifest.version} — ${manifest.license ?? 'see package'}`, '='.repeat(78));
    parts.push(licenceFile ? readFileSync(join(folder, licenceFile), 'utf8').trim() : `Licensed under ${manifest.license}; no licence file is published with the package.`, '');
  }
  writeFileSync(join(root, 'dist', 'THIRD-PARTY-NOTICES.txt'), parts.join('\n'));
}

function webviewEntries() {
  const folder = join(root, 'src/webview/entries');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).map((name) => join(folder, name));
}

const common = {
  bundle: true,
  plugins: [globalFetch],
  minify: production,
  sourcemap: production ? false : 'linked',
  logLevel: 'warning',
  legalComments: 'none',
};

// web-tree-sitter and onnxruntime-web locate files from `import.meta.url`, which a CommonJS
// bundle does not have: give them the bundle's own file URL.
const importMetaShim = {
  define: { 'import.meta.url': '__heraldImportMetaUrl' },
  banner: { js: "const __heraldImportMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

/**
 * The one Tesseract core dist/ ships (see ASSETS). tesseract.js's node worker would take the
 * relaxed-SIMD core where WebAssembly offers it (VS Code's Electron) and the SIMD core elsewhere
 * (Node 20): relaxed SIMD's results may differ from one processor to another, so the same
 * screenshot could read differently in the extension and the CLI. Every host gets the SIMD
 * core instead (deterministic, and 1.3 MB less in the VSIX); the cores without SIMD become a
 * clear error.
 */
const SHIPPED_CORE = 'tesseract-core-simd';
const shippedCoreOnly = {
  name: 'shipped-tesseract-core',
  setup(build) {
    build.onResolve({ filter: /^tesseract\.js-core\/tesseract-core[\w-]*$/ }, (args) => {
      const core = args.path.slice('tesseract.js-core/'.length);
      if (core === SHIPPED_CORE) return undefined;
      if (core === 'tesseract-core-relaxedsimd') return build.resolve(`tesseract.js-core/${SHIPPED_CORE}`, { kind: args.kind, resolveDir: args.resolveDir });
      return { path: core, namespace: 'unshipped-core' };
    });
    build.onLoad({ filter: /.*/, namespace: 'unshipped-core' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`Herald: the Tesseract core ${args.path} is not shipped (OCR needs WebAssembly SIMD)`)});`,
      loader: 'js',
    }));
  },
};

const builds = [
  {
    ...common,
    ...importMetaShim,
    // VS Code's extension host (Node 22) turns every read of the global `navigator` into a
    // PendingMigrationError in the log; bundled libraries (zod, onnxruntime-web) only probe it to
    // detect a browser, so in the extension bundle it is simply not there.
    define: { ...importMetaShim.define, navigator: 'undefined' },
    entryPoints: { extension: join(root, 'src/vscode/extension.ts') },
    outdir: join(root, 'dist'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode'],
  },
  {
    ...common,
    entryPoints: { cli: join(root, 'src/cli/main.ts') },
    outdir: join(root, 'dist'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    define: importMetaShim.define,
    banner: { js: `#!/usr/bin/env node\n${importMetaShim.banner.js}` },
  },
  {
    // tesseract.js starts its node worker from a script path, which inside node_modules does
    // not exist in the VSIX: bundle it (with the core's JavaScript, which loads its .wasm from
    // the script's own folder) beside the other bundles. See ocrAssets.ts and ocrWorkerEntry.ts.
    ...common,
    plugins: [...common.plugins, shippedCoreOnly],
    entryPoints: { 'ocr-worker': join(root, 'src/core/strategies/ocr/ocrWorkerEntry.ts') },
    outdir: join(root, 'dist'),
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
];
// The gateway's optimizer workers (src/gateway/optimizerPool.ts starts dist/gateway-worker.js
// from beside cli.js or extension.js): the pipeline, its strategies and the store clients.
builds.push({
  ...common,
  ...importMetaShim,
  define: { ...importMetaShim.define, navigator: 'undefined' },
  entryPoints: { 'gateway-worker': join(root, 'src/gateway/optimizerWorker.ts') },
  outdir: join(root, 'dist'),
  platform: 'node',
  format: 'cjs',
  target: 'node20',
});
const webviews = webviewEntries();
if (webviews.length > 0) {
  builds.push({ ...common, entryPoints: webviews, outdir: join(root, 'dist/webview'), platform: 'browser', format: 'iife', target: 'es2022' });
}

// The extension entry may not exist yet in a partial checkout; build what is there.
const present = builds.filter((build) => Object.values(build.entryPoints).every((entry) => existsSync(entry)));

if (watch) {
  for (const build of present) {
    const context = await esbuild.context(build);
    await context.watch();
  }
  copyAssets();
  console.log('Herald build: watching for changes…');
} else {
  // A production build is what the VSIX ships: start from an empty dist/ so no source map or
  // file of an earlier build goes along.
  if (production) rmSync(join(root, 'dist'), { recursive: true, force: true });
  await Promise.all(present.map((build) => esbuild.build(build)));
  const copied = copyAssets();
  writeNotices();
  if (existsSync(join(root, 'dist/cli.js'))) chmodSync(join(root, 'dist/cli.js'), 0o755);
  console.log(`Herald build: ${present.length} bundles${production ? ' (production)' : ''}, ${copied} asset files copied to dist/`);
}
