import * as assert from 'node:assert/strict';
import { GrammarLoader, nodeModulesAssetLocator } from './grammarLoader';
import { extractMentions } from './mentions';
import { ReferenceGraph, samePath, type GraphSource, type WorkingSetOptions } from './referenceGraph';
import { SourceAnalyzer } from './sourceAnalyzer';

const analyzer = new SourceAnalyzer(new GrammarLoader(nodeModulesAssetLocator()));
const OPTIONS: WorkingSetOptions = { calleeDepth: 1, maxDefinitionsPerCallee: 2, keepConstructors: true, maxDefinitionsPerUsage: 2 };

async function source(id: string, filePath: string, lines: string[], firstLine = 1): Promise<GraphSource> {
  const analysis = await analyzer.analyze(lines.join('\n'), { path: filePath, firstLine }, { maxErrorShare: 0.2 });
  assert.equal(analysis.status, 'parsed');
  if (analysis.status !== 'parsed') throw new Error('unparsed');
  return { id, source: analysis.source, symbols: analysis.symbols };
}

const A = ['def run(items):', '    data = prepare(items)', '    return emit(data)', '', 'def prepare(items):', '    retry_budget = 3', '    return sorted(items)', '', 'def emit(data):', '    print(data)', '', 'class Job:', '    def __init__(self):', '        self.items = []', '    def start(self):', '        return run(self.items)'];
const B = ['def prepare(items):', '    return list(items)', '', 'def emit(data):', '    return data', '', 'def other():', '    retry_budget = 5', '    return retry_budget'];

describe('ReferenceGraph', () => {
  it('targets mentioned definitions and follows calls, preferring the caller’s own file', async () => {
    const graph = new ReferenceGraph([await source('a', 'pkg/a.py', A), await source('b', 'pkg/b.py', B)]);
    const set = graph.workingSet(extractMentions('run() fails'), OPTIONS);
    assert.deepEqual([...set.keys].sort(), ['pkg/a.py::emit', 'pkg/a.py::prepare', 'pkg/a.py::run']);
    assert.equal(set.targeted, 1);
  });

  it('does not follow a call whose name is defined in too many places', async () => {
    const graph = new ReferenceGraph([await source('a', 'pkg/a.py', A), await source('b', 'pkg/b.py', B)]);
    const set = graph.workingSet(extractMentions('Job.start()'), { ...OPTIONS, maxDefinitionsPerCallee: 1 });
    // start → run (one definition) is followed; its class context brings __init__.
    assert.deepEqual([...set.keys].sort(), ['pkg/a.py::Job.__init__', 'pkg/a.py::Job.start', 'pkg/a.py::run']);
  });

  it('targets the code using a rare code-shaped name, and the definitions a quoted line comes from', async () => {
    const graph = new ReferenceGraph([await source('a', 'pkg/a.py', A), await source('b', 'pkg/b.py', B)]);
    const byUsage = graph.workingSet(extractMentions('what is retry_budget for?'), { ...OPTIONS, calleeDepth: 0 });
    assert.deepEqual([...byUsage.keys].sort(), ['pkg/a.py::prepare', 'pkg/b.py::other']);
    const tooCommon = graph.workingSet(extractMentions('what is retry_budget for?'), { ...OPTIONS, calleeDepth: 0, maxDefinitionsPerUsage: 1 });
    assert.equal(tooCommon.keys.size, 0);
    const byQuote = graph.workingSet(extractMentions('I will change\n    return sorted(items)\nnow'), { ...OPTIONS, calleeDepth: 0 });
    assert.deepEqual([...byQuote.keys], ['pkg/a.py::prepare']);
  });

  it('targets by line through any spelling of the same path, and keys every read of a file alike', async () => {
    const whole = await source('a', 'pkg/a.py', A);
    const range = await source('r', '/testbed/pkg/a.py', A.slice(4, 10), 5);
    const graph = new ReferenceGraph([whole, range]);
    const set = graph.workingSet(extractMentions('File "/testbed/pkg/a.py", line 9, in emit'), { ...OPTIONS, calleeDepth: 0 });
    assert.deepEqual([...set.keys], ['/testbed/pkg/a.py::emit']);
    const unit = whole.symbols.units.find((candidate) => candidate.name === 'emit')!;
    assert.equal(graph.keyOf(whole, unit), graph.keyOf(range, range.symbols.units.find((candidate) => candidate.name === 'emit')!));
  });

  it('matches paths by trailing parts', () => {
    assert.ok(samePath('/testbed/a/b.py', 'a/b.py'));
    assert.ok(!samePath('/testbed/a/b.py', 'b/b.py'));
    assert.ok(!samePath('xa/b.py', 'a/b.py'));
  });
});
