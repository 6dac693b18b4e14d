import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { itWithData, sharedPath } from '../../../test/support/sharedData';
import { detectContentFormat } from './detect';

describe('detectContentFormat', () => {
  it('trusts the command that produced the output', () => {
    const cases: [string, string][] = [
      ['cd /repo && python -m pytest tests/test_x.py -x 2>&1 | tail -50', 'test-output'],
      ['npx jest --ci', 'test-output'],
      ['go test ./...', 'test-output'],
      ['cargo test --workspace', 'test-output'],
      ['/testbed/tests/runtests.py timezones', 'test-output'],
      ['grep -rn "refund" src | head -40', 'grep'],
      ['rg -n TODO', 'grep'],
      ['git diff HEAD~1', 'diff'],
      ['find . -name "*.py"', 'file-listing'],
      ['ls -R astropy/table | grep ".py" | head -n 20', 'file-listing'],
      ['kubectl logs api-7d9f', 'log'],
    ];
    for (const [command, format] of cases) assert.equal(detectContentFormat('whatever it printed', { command }), format, command);
    assert.equal(detectContentFormat('plain words here', { command: 'python script.py' }), 'text');
  });

  it('uses the path when there is no telling command', () => {
    assert.equal(detectContentFormat('<p>hi</p>', { path: 'docs/page.html' }), 'html');
    assert.equal(detectContentFormat('{"a":1}', { path: 'data.json' }), 'json');
    assert.equal(detectContentFormat('anything', { path: 'server.log' }), 'log');
  });

  itWithData('reads a real JUnit report named by its path as test output', () => {
    const junit = fs.readFileSync(sharedPath('test-reports', 'jest-junit.xml'), 'utf8');
    assert.equal(detectContentFormat(junit, { path: 'reports/jest-junit.xml' }), 'test-output');
  });

  itWithData('recognises the shared material by its shape', () => {
    for (const page of ['bbc-1', 'wikipedia', 'nytimes-1']) {
      assert.equal(detectContentFormat(fs.readFileSync(sharedPath('html', page, 'source.html'), 'utf8')), 'html', page);
    }
    for (const file of ['get-repository.json', 'errors.json', 'paginate-issues.json']) {
      assert.equal(detectContentFormat(fs.readFileSync(sharedPath('json', 'github-api', file), 'utf8')), 'json', file);
    }
    for (const file of ['golang-json.json', 'dart-json.json', 'mocha-json.json', 'rspec-json.json', 'dotnet-nunit.xml', 'python-xunit-pytest.xml']) {
      assert.equal(detectContentFormat(fs.readFileSync(sharedPath('test-reports', file), 'utf8')), 'test-output', file);
    }
  });

  itWithData('leaves prose as text', () => {
    const folder = sharedPath('prose', 'paul-graham-essays');
    const essays = fs.readdirSync(folder).sort();
    assert.ok(essays.length > 10);
    for (const essay of essays) assert.equal(detectContentFormat(fs.readFileSync(`${folder}/${essay}`, 'utf8')), 'text', essay);
  });

  it('says text for empty and unrecognised content', () => {
    for (const text of ['', '   \n  ', 'Just a sentence.', 'def f():\n    return 1\n']) assert.equal(detectContentFormat(text), 'text');
  });
});
