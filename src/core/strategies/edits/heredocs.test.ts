import { strict as assert } from 'node:assert';
import { heredocWrites } from './heredocs';

function bodies(command: string): { path: string; append: boolean; body: string }[] {
  return heredocWrites(command).map((write) => ({ path: write.path, append: write.append, body: command.slice(write.start, write.end) }));
}

describe('here-documents that write files', () => {
  it('finds the body of cat and tee here-documents and the file they write', () => {
    assert.deepEqual(bodies("cat <<'EOF' > reproduce.py\nimport x\nprint(1)\nEOF\npython reproduce.py"), [{ path: 'reproduce.py', append: false, body: 'import x\nprint(1)' }]);
    assert.deepEqual(bodies('cat > a.txt << EOF\nhello\nEOF'), [{ path: 'a.txt', append: false, body: 'hello' }]);
    assert.deepEqual(bodies('cat <<EOF >> tests/t.py\n\ndef t():\n  pass\nEOF\n'), [{ path: 'tests/t.py', append: true, body: '\ndef t():\n  pass' }]);
    assert.deepEqual(bodies('tee -a log.txt <<EOF\nx\nEOF'), [{ path: 'log.txt', append: true, body: 'x' }]);
    assert.deepEqual(bodies('cat <<-EOF > f\n\tindented\n\tEOF'), [{ path: 'f', append: false, body: '\tindented' }]);
    assert.deepEqual(bodies('cat <<A > a\n1\nA\ncat <<B > b\n2\nB'), [{ path: 'a', append: false, body: '1' }, { path: 'b', append: false, body: '2' }]);
  });

  it('leaves here-documents that feed a program, a commit message or nothing it can name', () => {
    assert.deepEqual(bodies("python3 - <<'EOF'\nprint(1)\nEOF"), []);
    assert.deepEqual(bodies('git commit -m "$(cat <<\'EOF\'\nmsg\nEOF\n)"'), []);
    assert.deepEqual(bodies('cat <<EOF > never_closed\nbody'), []);
    assert.deepEqual(bodies('cat <<A <<B > f\n1\nA\n2\nB'), [], 'two bodies after one line are not told apart');
    assert.deepEqual(bodies('grep x <<< "here string" > out'), []);
  });
});
