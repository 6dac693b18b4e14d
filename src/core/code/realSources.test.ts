/**
 * code_graph's parser and outliner on real code installed by `test/setup/fetchSources.sh`:
 * an npm package's TypeScript and JavaScript (zod, express), the Python standard library on
 * this machine, and Debian's Go standard library. Skips, saying so, when the setup has not run.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { MemoryBlobStore, Stash, findMarkers } from '../stash';
import { GrammarLoader, nodeModulesAssetLocator } from './grammarLoader';
import { languageFromPath } from './languageDetection';
import { outlineSource } from './outliner';
import { SourceAnalyzer } from './sourceAnalyzer';

const CACHE = path.resolve(__dirname, '..', '..', '..', 'test', '.cache', 'sources');
const analyzer = new SourceAnalyzer(new GrammarLoader(nodeModulesAssetLocator()));

/** Up to `count` files under `folder` with one of the extensions, 4–40 KB, in a stable order. */
function sample(folder: string, extensions: readonly string[], count: number): string[] {
  const found: string[] = [];
  const walk = (directory: string): void => {
    for (const entry of fs.readdirSync(directory, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (found.length >= count) return;
      const full = path.join(directory, entry.name);
      if (entry.isDirectory() && !/^(test|tests|testdata|site-packages|node_modules|__pycache__)$/.test(entry.name)) walk(full);
      else if (entry.isFile() && extensions.some((extension) => entry.name.endsWith(extension)) && !entry.name.endsWith('.d.ts')) {
        const size = fs.statSync(full).size;
        if (size >= 4_000 && size <= 40_000) found.push(full);
      }
    }
  };
  walk(fs.realpathSync(folder));
  return found;
}

const CORPORA: { name: string; folder: string; extensions: string[] }[] = [
  { name: 'TypeScript (zod from npm)', folder: 'npm-zod', extensions: ['.ts'] },
  { name: 'JavaScript (express from npm)', folder: 'npm-express', extensions: ['.js'] },
  { name: 'Python standard library', folder: 'python-stdlib', extensions: ['.py'] },
  { name: 'Go standard library (Debian golang-1.19-src)', folder: 'go-src', extensions: ['.go'] },
];

describe('code_graph on real source code', () => {
  for (const corpus of CORPORA) {
    it(`parses and outlines ${corpus.name} losslessly`, async function () {
      const folder = path.join(CACHE, corpus.folder);
      if (!fs.existsSync(folder)) {
        console.log(`      skipped: ${folder} is missing; run test/setup/fetchSources.sh first`);
        this.skip();
      }
      const files = sample(folder, corpus.extensions, 6);
      assert.ok(files.length >= 3, `too few ${corpus.name} files found`);
      const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
      let definitions = 0;
      let elided = 0;
      for (const file of files) {
        const text = fs.readFileSync(file, 'utf8');
        // As `cat -n` shows it, so prefixes must survive too.
        const numbered = text.split('\n').map((line, index) => `${String(index + 1).padStart(6)}\t${line}`).join('\n');
        const analysis = await analyzer.analyze(numbered, { path: file, firstLine: 1 }, { maxErrorShare: 0.2 });
        assert.equal(analysis.status, 'parsed', `${file}: ${'reason' in analysis ? analysis.reason : analysis.status}`);
        if (analysis.status !== 'parsed') continue;
        assert.equal(analysis.source.language.id, languageFromPath(file)?.id);
        assert.ok(analysis.symbols.errorShare < 0.05, `${file}: ${analysis.symbols.errorShare}`);
        definitions += analysis.symbols.units.length;
        const outline = outlineSource(analysis.source, analysis.symbols, () => false, stash, { minBodyLines: 5, kind: 'code_graph' });
        elided += outline.elided.length;
        assert.equal(await stash.expandText(outline.text), numbered, `${file} does not expand back`);
        assert.equal(findMarkers(outline.text).length, outline.elided.length);
        // Every line that is not a marker is one of the original lines, numbered as before.
        const originalLines = new Set(numbered.split('\n'));
        for (const line of outline.text.split('\n')) if (!line.includes('[herald: ')) assert.ok(originalLines.has(line), `${file}: invented line ${line}`);
        assert.ok(outline.text.length < numbered.length || outline.elided.length === 0);
      }
      assert.ok(definitions > files.length, `${corpus.name}: too few definitions found (${definitions})`);
      assert.ok(elided > 0, `${corpus.name}: nothing was elided`);
    });
  }
});
