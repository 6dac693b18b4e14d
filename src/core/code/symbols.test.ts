import * as assert from 'node:assert/strict';
import { GrammarLoader, nodeModulesAssetLocator } from './grammarLoader';
import { languageById, type LanguageId } from './languages';
import { extractSymbols, type SourceSymbols } from './symbols';

const loader = new GrammarLoader(nodeModulesAssetLocator());

async function symbolsOf(language: LanguageId, code: string): Promise<SourceSymbols> {
  const symbols = extractSymbols(await loader.load(languageById(language)), code);
  assert.ok(symbols, `${language} gave no tree`);
  return symbols;
}

/** name → [kind, qualified name, calls] for a compact comparison. */
function summary(symbols: SourceSymbols): Record<string, [string, string[]]> {
  return Object.fromEntries(symbols.units.map((unit) => [unit.qualifiedName, [unit.kind, [...unit.calls]]]));
}

interface Sample {
  readonly code: string;
  readonly expected: Record<string, [string, string[]]>;
  /** Qualified name → the body rows an outline may take. */
  readonly bodies: Record<string, [number, number] | undefined>;
}

const SAMPLES: Partial<Record<LanguageId, Sample>> = {
  python: {
    code: ['import os', '', 'class Store:', '    def __init__(self, path):', '        self.path = path', '', '    def load(self):', '        """Read it."""', '        data = read_all(self.path)', '        return parse(data)', '', 'def read_all(path):', '    with open(path) as handle:', '        return handle.read()', ''].join('\n'),
    expected: { Store: ['class', ['parse', 'read_all']], 'Store.__init__': ['method', []], 'Store.load': ['method', ['parse', 'read_all']], read_all: ['function', ['open', 'read']] },
    bodies: { 'Store.__init__': [4, 4], 'Store.load': [8, 9], read_all: [12, 13] },
  },
  typescript: {
    code: ['export class Store {', '  constructor(private path: string) {', '    this.path = path;', '  }', '  load(): string {', '    const data = readAll(this.path);', '    return parse(data);', '  }', '}', 'export function readAll(path: string): string {', '  return fs.readFileSync(path, "utf8");', '}', 'const helper = (value: number) => {', '  return value + 1;', '};'].join('\n'),
    expected: { Store: ['class', ['parse', 'readAll']], 'Store.constructor': ['method', []], 'Store.load': ['method', ['parse', 'readAll']], readAll: ['function', ['readFileSync']], helper: ['function', []] },
    bodies: { 'Store.constructor': [2, 2], 'Store.load': [5, 6], readAll: [10, 10], helper: [13, 13] },
  },
  javascript: {
    code: ['class Store {', '  load() {', '    return parse(readAll(this.path));', '  }', '}', 'function readAll(path) {', '  return fs.readFileSync(path);', '}', 'module.exports.save = function save(store) {', '  store.write();', '};'].join('\n'),
    expected: { Store: ['class', ['parse', 'readAll']], 'Store.load': ['method', ['parse', 'readAll']], readAll: ['function', ['readFileSync']], save: ['function', ['write']] },
    bodies: { 'Store.load': [2, 2], readAll: [6, 6], save: [9, 9] },
  },
  go: {
    code: ['package store', '', 'func (s *Store) Load() string {', '\tdata := readAll(s.path)', '\treturn s.parse(data)', '}', '', 'func readAll(path string) string {', '\treturn os.ReadFile(path)', '}'].join('\n'),
    expected: { Load: ['method', ['parse', 'readAll']], readAll: ['function', ['ReadFile']] },
    bodies: { Load: [3, 4], readAll: [8, 8] },
  },
  rust: {
    code: ['impl Store {', '    fn load(&self) -> String {', '        let data = read_all(&self.path);', '        Self::parse(data)', '    }', '}', 'fn read_all(path: &str) -> String {', '    println!("{}", path);', '    fs::read_to_string(path).unwrap()', '}'].join('\n'),
    expected: { Store: ['class', ['parse', 'read_all']], 'Store.load': ['method', ['parse', 'read_all']], read_all: ['function', ['println', 'read_to_string', 'unwrap']] },
    bodies: { 'Store.load': [2, 3], read_all: [7, 8] },
  },
  java: {
    code: ['class Store {', '    Store(String path) {', '        this.path = path;', '    }', '    String load() {', '        return parse(readAll(path));', '    }', '}'].join('\n'),
    expected: { Store: ['class', ['parse', 'readAll']], 'Store.Store': ['method', []], 'Store.load': ['method', ['parse', 'readAll']] },
    bodies: { 'Store.Store': [2, 2], 'Store.load': [5, 5] },
  },
  csharp: {
    code: ['class Store {', '    public Store(string path) {', '        this.path = path;', '    }', '    string Load() {', '        return Parse(ReadAll(path));', '    }', '}'].join('\n'),
    expected: { Store: ['class', ['Parse', 'ReadAll']], 'Store.Store': ['method', []], 'Store.Load': ['method', ['Parse', 'ReadAll']] },
    bodies: { 'Store.Store': [2, 2], 'Store.Load': [5, 5] },
  },
  cpp: {
    code: ['#include <string>', 'class Store {', ' public:', '  std::string load() {', '    return parse(readAll(path));', '  }', '};', 'std::string Store::save() {', '  return helper::write(path);', '}'].join('\n'),
    expected: { Store: ['class', ['parse', 'readAll']], 'Store.load': ['method', ['parse', 'readAll']], save: ['function', ['write']] },
    bodies: { 'Store.load': [4, 4], save: [8, 8] },
  },
  ruby: {
    code: ['class Store', '  def initialize(path)', '    @path = path', '  end', '  def load', '    parse(read_all(@path))', '  end', 'end'].join('\n'),
    expected: { Store: ['class', ['parse', 'read_all']], 'Store.initialize': ['method', []], 'Store.load': ['method', ['parse', 'read_all']] },
    bodies: { 'Store.initialize': [2, 2], 'Store.load': [5, 5] },
  },
  php: {
    code: ['<?php', 'function read_all($path) {', '    return file_get_contents($path);', '}', 'class Store {', '    public function load() {', '        return $this->parse(read_all($this->path));', '    }', '}'].join('\n'),
    expected: { read_all: ['function', ['file_get_contents']], Store: ['class', ['parse', 'read_all']], 'Store.load': ['method', ['parse', 'read_all']] },
    bodies: { read_all: [2, 2], 'Store.load': [6, 6] },
  },
  bash: {
    code: ['load() {', '  read_all "$1"', '  echo done', '}'].join('\n'),
    expected: { load: ['function', ['echo', 'read_all']] },
    bodies: { load: [1, 2] },
  },
};

describe('extractSymbols', () => {
  for (const [language, sample] of Object.entries(SAMPLES) as [LanguageId, Sample][]) {
    it(`reads ${language} definitions, their calls and body rows`, async () => {
      const symbols = await symbolsOf(language, sample.code);
      assert.deepEqual(summary(symbols), sample.expected);
      for (const [name, rows] of Object.entries(sample.bodies)) {
        const unit = symbols.units.find((candidate) => candidate.qualifiedName === name);
        assert.deepEqual(unit?.bodyRows && [unit.bodyRows.first, unit.bodyRows.last], rows, `${language} ${name}`);
      }
      assert.equal(symbols.errorShare, 0);
    });
  }

  it('parses TSX with the TypeScript query', async () => {
    const symbols = await symbolsOf('tsx', ['export function View(props: Props) {', '  const value = compute(props);', '  return <div>{value}</div>;', '}'].join('\n'));
    assert.deepEqual(summary(symbols), { View: ['function', ['compute']] });
  });

  it('keeps a Python docstring and a one-line body out of the elidable rows', async () => {
    const symbols = await symbolsOf('python', ['def short(): return 1', 'def documented():', '    """Only a docstring."""'].join('\n'));
    assert.equal(symbols.units[0]!.bodyRows, undefined);
    assert.equal(symbols.units[1]!.bodyRows, undefined);
  });

  it('leaves a brace body whose closing brace shares a line with code unelidable', async () => {
    const symbols = await symbolsOf('typescript', ['function f() {', '  a();', '  b(); }'].join('\n'));
    assert.equal(symbols.units[0]!.bodyRows, undefined);
  });

  it('measures the share of rows in parse errors and flags broken definitions', async () => {
    const symbols = await symbolsOf('typescript', ['function ok() {', '  return 1;', '}', 'function broken( {', '  return ;;; )))', '}'].join('\n'));
    assert.ok(symbols.errorShare > 0 && symbols.errorShare < 1);
    const ok = symbols.units.find((unit) => unit.name === 'ok');
    assert.equal(ok?.hasError, false);
  });
});
