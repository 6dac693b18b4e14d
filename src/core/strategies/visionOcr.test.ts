import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import type { TextPart } from '../chat/types';
import { TesseractOcrEngine } from './ocr/ocrEngine';
import { decodePng } from './ocr/pngDecode';
import { boxDiagram, encodePng, hasTestFont, photoLike, textScreenshot } from '../../../test/support/testImages';
import { judgeTextImage } from './ocr/textImageCheck';
import { createVisionOcr, VISION_OCR_DEFAULTS } from './visionOcr';
import { pipelineOf } from '../../../test/support/agentFixtures';

const TRACEBACK = ['Traceback (most recent call last):', '  File "app/main.py", line 42, in run', '    result = parse(config)', 'ValueError: invalid port 80800'];

/** Share of the expected words the OCR text contains. */
function wordRecall(expected: readonly string[], text: string): number {
  const words = expected.join(' ').split(/\s+/).filter(Boolean);
  return words.filter((word) => text.includes(word)).length / words.length;
}

describe('vision_ocr', () => {
  it('reads PNGs of grey and colour pixels', () => {
    const grey = decodePng(encodePng(3, 2, 1, Uint8Array.from([0, 128, 255, 10, 20, 30])))!;
    assert.deepEqual([grey.width, grey.height, [...grey.grey]], [3, 2, [0, 128, 255, 10, 20, 30]]);
    const colour = decodePng(encodePng(2, 1, 3, Uint8Array.from([255, 0, 0, 255, 255, 255])))!;
    assert.deepEqual([...colour.grey], [76, 255]);
    assert.equal(decodePng(Buffer.from('not a png')), undefined);
  });

  it('tells text from diagrams by where the marks are, given the words read', function () {
    if (!hasTestFont()) this.skip();
    const diagram = decodePng(boxDiagram())!;
    // The three labels read perfectly: still a diagram, because the boxes and arrows are not text.
    const labels = [{ x0: 60, x1: 140 }, { x0: 310, x1: 405 }, { x0: 560, x1: 668 }].map((box, index) => ({ text: ['Client', 'Gateway', 'Database'][index]!, confidence: 95, box: { ...box, y0: 115, y1: 140 } }));
    const verdict = judgeTextImage(diagram, { text: 'Client Gateway Database', confidence: 95, words: labels }, VISION_OCR_DEFAULTS);
    assert.equal(verdict.textOnly, false);
    assert.match(verdict.reason, /not text/);
    const screenshot = decodePng(textScreenshot(['one two three']))!;
    const whole = judgeTextImage(screenshot, { text: 'one two three', confidence: 95, words: [{ text: 'one two three', confidence: 95, box: { x0: 0, y0: 0, x1: screenshot.width, y1: screenshot.height } }] }, { ...VISION_OCR_DEFAULTS, minWords: 1 });
    assert.equal(whole.textOnly, true);
  });

  describe('with the Tesseract engine', function () {
    this.timeout(60_000);
    const engine = new TesseractOcrEngine();
    // Starting the engine (compiling the wasm, loading the model) takes seconds; do it once, outside the cases.
    before(async () => {
      if (hasTestFont()) await engine.read(textScreenshot(['warm up']));
    });
    after(() => engine.dispose());

    it('swaps a text screenshot in history for its text, stashes the image and replays the swap byte for byte (OpenAI)', async function () {
      if (!hasTestFont()) this.skip();
      const screenshot = `data:image/png;base64,${textScreenshot(TRACEBACK).toString('base64')}`;
      const opening = [
        { role: 'system', content: 'You are a coding assistant.' },
        { role: 'user', content: [{ type: 'text', text: 'Why does the app crash on start?' }, { type: 'image_url', image_url: { url: screenshot } }] },
      ];
      const { pipeline, stash } = pipelineOf([createVisionOcr({}, engine)], { vision_ocr: {} });
      const first = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: opening }));
      assert.equal(JSON.stringify(serializeRequest(first.request)).includes(screenshot), true, 'the fresh screenshot is seen whole');
      const second = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [...opening, { role: 'assistant', content: 'The port is out of range.' }, { role: 'user', content: 'Which file sets it?' }] }));
      const decision = second.decisions[0]!;
      assert.equal(decision.action, 'screenshots-read-as-text');
      assert.ok(second.tokensAfter < second.tokensBefore - 500, `${second.tokensBefore} → ${second.tokensAfter}`);
      const swapped = second.request.messages[1]!.parts[1] as TextPart;
      assert.equal(swapped.type, 'text');
      assert.match(swapped.text, /^\[herald: screenshot read as text \(4 lines, OCR\) · retrieve hr_[a-z2-7]{16}\]\n/);
      assert.ok(wordRecall(TRACEBACK, swapped.text) >= 0.8, swapped.text);
      assert.equal(await stash.retrieve(decision.handles[0]!), screenshot, 'the original image comes back byte for byte');
      assert.equal(await stash.expandText(swapped.text), screenshot);
      const third = await pipeline.run(parseRequest({ model: 'gpt-4o', messages: [...opening, { role: 'assistant', content: 'The port is out of range.' }, { role: 'user', content: 'Which file sets it?' }, { role: 'assistant', content: 'config.py' }, { role: 'user', content: 'thanks' }] }));
      assert.equal(JSON.stringify(third.request.messages[1]), JSON.stringify(second.request.messages[1]), 'replayed byte for byte');
    });

    it('keeps diagrams and photos, swaps a dark terminal screenshot returned by a tool (Anthropic)', async function () {
      if (!hasTestFont()) this.skip();
      const image = (png: Buffer): unknown => ({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: png.toString('base64') } });
      const terminal = ['$ npm test', '  12 passing (340ms)', '  1 failing', '  AssertionError: expected 3 to equal 4'];
      const body = {
        model: 'claude-sonnet-4-5', max_tokens: 2048, system: 'You are a coding agent.',
        messages: [
          { role: 'user', content: 'Run the tests and look at the architecture sketch and the photo of the whiteboard.' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'screenshot', input: {} }] },
          { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [image(textScreenshot(terminal, { dark: true })), image(boxDiagram()), image(photoLike())] }] },
          { role: 'assistant', content: [{ type: 'text', text: 'One test fails.' }] },
          { role: 'user', content: 'Fix it.' },
        ],
      };
      const { pipeline } = pipelineOf([createVisionOcr({}, engine)], { vision_ocr: {} });
      const result = await pipeline.run(parseRequest(body));
      assert.deepEqual(result.decisions[0]!.details, { images: 3, swapped: 1, kept: 2, unread: 0, prefetched: 0 });
      const content = ((serializeRequest(result.request).messages as { content: { content?: { type: string; text?: string }[] }[] }[])[2]!.content[0]!.content)!;
      assert.deepEqual(content.map((block) => block.type), ['text', 'image', 'image']);
      assert.ok(wordRecall(terminal, content[0]!.text!) >= 0.8, content[0]!.text);
    });

    it('passes through images it cannot read', async () => {
      const body = { model: 'gpt-4o', messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/jpeg;base64,/9j/4AAQSkZJRgABAQ==' } }, { type: 'image_url', image_url: { url: 'https://example.com/shot.png' } }] },
        { role: 'assistant', content: 'ok' }, { role: 'user', content: 'next' }] };
      const { pipeline } = pipelineOf([createVisionOcr({}, engine)], { vision_ocr: {} });
      const result = await pipeline.run(parseRequest(body));
      assert.deepEqual(serializeRequest(result.request), body);
      assert.equal(result.decisions[0]!.action, 'images-kept');
    });
  });
});
