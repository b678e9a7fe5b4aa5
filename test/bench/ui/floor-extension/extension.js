// Benchmark only (npm run bench:ui): while switched on, answers at once with fixed results, so the
// bench measures VS Code alone on the same machine and positions: an inline completion (keystroke
// -> ghost text: its debounce, the trip to the extension host and back, rendering), a hover on a
// word (mouse rest -> visible, editor.hover.delay included) and a QuickPick filled from a command
// (Enter -> list, as Find Related Code shows its results).
const vscode = require('vscode');

exports.activate = (context) => {
  let on = false;
  context.subscriptions.push(
    vscode.commands.registerCommand('ghostFloor.toggle', () => {
      on = !on;
      vscode.window.setStatusBarMessage(`ghost floor ${on ? 'on' : 'off'}`, 2000);
    }),
    vscode.commands.registerCommand('ghostFloor.quickPick', () => {
      const pick = vscode.window.createQuickPick();
      pick.title = 'Ghost Floor: list';
      pick.placeholder = 'Searching the index…';
      pick.busy = true;
      pick.show();
      setImmediate(() => {
        pick.items = Array.from({ length: 10 }, (_, i) => ({ label: `result ${i + 1}`, description: `src/file${i}.ts:${i + 1}`, detail: `similar code · line ${i}` }));
        pick.placeholder = 'Pick a result to open it';
        pick.busy = false;
      });
      pick.onDidHide(() => pick.dispose());
    }),
    vscode.languages.registerInlineCompletionItemProvider({ scheme: 'file' }, {
      provideInlineCompletionItems(doc, pos) {
        return on ? [new vscode.InlineCompletionItem('floor()', new vscode.Range(pos, pos))] : undefined;
      },
    }),
    vscode.languages.registerHoverProvider({ scheme: 'file' }, {
      provideHover(doc, pos) {
        const range = on ? doc.getWordRangeAtPosition(pos) : undefined;
        return range ? new vscode.Hover(new vscode.MarkdownString('**RepoRecall** floor'), range) : undefined;
      },
    }),
  );
};
exports.deactivate = () => undefined;
