import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultAssetLocator, GrammarError, GrammarLoader, nodeModulesAssetLocator, RUNTIME_FILE } from './grammarLoader';
import { LANGUAGES, grammarFiles, languageById } from './languages';

describe('GrammarLoader', () => {
  const locator = nodeModulesAssetLocator();

  it('loads every grammar with web-tree-sitter and compiles each language query', async () => {
    const loader = new GrammarLoader(locator);
    for (const language of LANGUAGES) {
      const grammar = await loader.load(language);
      assert.equal(grammar.language.id, language.id);
      const names = new Set(grammar.captureNames);
      assert.ok([...names].some((name) => name.startsWith('definition.')), `${language.id} query defines nothing`);
      assert.ok(names.has('reference.call'), `${language.id} query has no references`);
      assert.ok(names.has('name') && names.has('body'), `${language.id} query lacks name/body`);
    }
  });

  it('loads a grammar once and hands back the same parser', async () => {
    const loader = new GrammarLoader(locator);
    const first = await loader.load(languageById('go'));
    const second = await loader.load(languageById('go'));
    assert.equal(first, second);
  });

  it('names a missing grammar file and where it was looked for, without throwing anything else', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-grammar-'));
    const loader = new GrammarLoader({ wasmPath: (file) => (file === RUNTIME_FILE ? locator.wasmPath(file) : path.join(directory, file)) });
    await assert.rejects(loader.load(languageById('go')), (error: unknown) => {
      assert.ok(error instanceof GrammarError);
      assert.equal(error.message, `Herald: grammar tree-sitter-go.wasm not found at ${path.join(directory, 'tree-sitter-go.wasm')}`);
      return true;
    });
  });

  it('reports a damaged grammar file as a load error', async () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-grammar-'));
    fs.writeFileSync(path.join(directory, 'tree-sitter-rust.wasm'), 'this is not wasm');
    const loader = new GrammarLoader({ wasmPath: (file) => (file === RUNTIME_FILE ? locator.wasmPath(file) : path.join(directory, file)) });
    await assert.rejects(loader.load(languageById('rust')), /Herald: grammar tree-sitter-rust\.wasm at .* could not be loaded/);
  });

  it('finds assets beside the bundle first, else in node_modules', () => {
    const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-dist-'));
    fs.writeFileSync(path.join(directory, 'tree-sitter-python.wasm'), '');
    const locator = defaultAssetLocator(directory);
    assert.equal(locator.wasmPath('tree-sitter-python.wasm'), path.join(directory, 'tree-sitter-python.wasm'));
    assert.equal(locator.wasmPath('tree-sitter-go.wasm'), nodeModulesAssetLocator().wasmPath('tree-sitter-go.wasm'));
    assert.match(locator.wasmPath(RUNTIME_FILE), /node_modules[\\/]web-tree-sitter[\\/]tree-sitter\.wasm$/);
  });

  it('lists the grammar files a build must ship, all present in @vscode/tree-sitter-wasm', () => {
    const files = grammarFiles();
    assert.equal(files.length, LANGUAGES.length);
    for (const file of files) assert.ok(fs.existsSync(locator.wasmPath(file)), file);
    assert.ok(fs.existsSync(locator.wasmPath(RUNTIME_FILE)));
  });
});
