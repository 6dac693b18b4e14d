// Builds Herald: the extension host bundle, the `herald` CLI, the sidebar's browser code,
// and copies the .wasm files the code loads into dist/.
//   node esbuild.mjs               development build (source maps)
//   node esbuild.mjs --production  minified, what the VSIX ships
//   node esbuild.mjs --watch       rebuild on change
import * as esbuild from 'esbuild';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = dirname(new URL(import.meta.url).pathname);

/** Binary assets loaded at run time, copied flat into dist/ (see AssetLocator in src/core/ports.ts). */
const WASM_ASSETS = [
  // tree-sitter's runtime and the grammars VS Code itself ships.
  { from: 'node_modules/web-tree-sitter', match: (name) => name === 'tree-sitter.wasm' },
  { from: 'node_modules/@vscode/tree-sitter-wasm/wasm', match: (name) => /^tree-sitter-.+\.wasm$/.test(name) },
  // onnxruntime-web's plain wasm backend (SIMD, threads optional) and its loader.
  { from: 'node_modules/onnxruntime-web/dist', match: (name) => /^ort-wasm-simd-threaded\.(wasm|mjs)$/.test(name) },
];

function copyAssets() {
  mkdirSync(join(root, 'dist'), { recursive: true });
  let copied = 0;
  for (const asset of WASM_ASSETS) {
    const folder = join(root, asset.from);
    if (!existsSync(folder)) throw new Error(`Herald build: ${asset.from} is missing; run npm ci`);
    for (const name of readdirSync(folder).filter(asset.match)) {
      copyFileSync(join(folder, name), join(root, 'dist', name));
      copied++;
    }
  }
  return copied;
}

function webviewEntries() {
  const folder = join(root, 'src/webview/entries');
  if (!existsSync(folder)) return [];
  return readdirSync(folder).filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts')).map((name) => join(folder, name));
}

const common = {
  bundle: true,
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

const builds = [
  {
    ...common,
    ...importMetaShim,
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
];
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
  await Promise.all(present.map((build) => esbuild.build(build)));
  const copied = copyAssets();
  if (existsSync(join(root, 'dist/cli.js'))) chmodSync(join(root, 'dist/cli.js'), 0o755);
  console.log(`Herald build: ${present.length} bundles${production ? ' (production)' : ''}, ${copied} wasm files copied to dist/`);
}
