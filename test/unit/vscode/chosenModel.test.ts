/**
 * 28.5: the chat's chosen Herald model is chosen again after a reload (VS Code falls back to its
 * default model while an extension's models are still being listed). The e2e walk
 * (test/e2e/checks/modelPathWalk.ts) shows it in the real VS Code; this is the rule.
 */
import { strict as assert } from 'node:assert';
import { COPILOT_CHAT_OPTION, fromTheChat, modelToRestore, readChosenModel } from '../../../src/vscode/chat/chosenModel';

const added = { vendor: 'herald', id: 'endpoint:added', family: 'fake-model', name: 'Herald · added' };

describe('the chat model chosen again after a reload', () => {
  it('chooses a remembered Herald model again only while Herald lists it', () => {
    assert.deepEqual(modelToRestore(added, 'herald', ['endpoint:fake', 'endpoint:added']), added);
    assert.equal(modelToRestore(added, 'herald', ['endpoint:fake']), undefined, 'an endpoint removed since is not chosen');
  });

  it("leaves the chat alone when the user's last model was another vendor's, or nothing is remembered", () => {
    assert.equal(modelToRestore({ ...added, vendor: 'copilot', id: 'gpt-4.1' }, 'herald', ['gpt-4.1', 'endpoint:added']), undefined);
    assert.equal(modelToRestore(undefined, 'herald', ['endpoint:added']), undefined);
  });

  it('reads back only a well-formed choice', () => {
    assert.deepEqual(readChosenModel(JSON.parse(JSON.stringify(added))), added);
    assert.equal(readChosenModel({ vendor: 'herald' }), undefined);
    assert.equal(readChosenModel('herald/endpoint:added'), undefined);
  });

  it("takes a request as the chat's choice only when Copilot's chat sent it", () => {
    assert.equal(fromTheChat({ [COPILOT_CHAT_OPTION]: 'abc', _otelTraceContext: {} }), true);
    assert.equal(fromTheChat({ temperature: 0 }), false, 'another extension calling vscode.lm is not the chat');
    assert.equal(fromTheChat(undefined), false);
  });
});
