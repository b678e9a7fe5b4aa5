// When RepoRecall's hover may show (reporecall.hover.mode). VS Code gives a hover provider no way
// to know which keys are held, so `modifier` is done honestly in two ways:
//  - with VS Code's own `"editor.hover.enabled": "onKeyboardModifier"`, VS Code asks hover
//    providers only while the modifier key (the one not used by `editor.multiCursorModifier`)
//    is held; RepoRecall then answers every request, like any hover;
//  - otherwise the command "RepoRecall: Show Hover" (`reporecall.showHover`, Ctrl+Alt+H while the
//    mode is `modifier`) arms the gate for one hover and asks VS Code for the hover at the cursor.
import * as vscode from 'vscode';
import { config } from '../config';
import { combined } from '../dispose';

export class HoverGate {
  private armed = false;

  /** The command that arms it, and what disarms it. */
  register(): vscode.Disposable {
    return combined(
      vscode.commands.registerCommand('reporecall.showHover', async () => {
        this.armed = true;
        await vscode.commands.executeCommand('editor.action.showHover');
      }),
      // Armed for the hover at the cursor only: moving on disarms it.
      vscode.window.onDidChangeTextEditorSelection(() => (this.armed = false)),
      vscode.window.onDidChangeActiveTextEditor(() => (this.armed = false)),
    );
  }

  /** Whether a hover request may be answered now. */
  allows(): boolean {
    switch (config.hoverMode()) {
      case 'off':
        return false; // not asked then: hover.ts registers the provider only while the mode is not off
      case 'identifiers':
        return true;
      case 'modifier':
        if (this.armed) {
          this.armed = false; // one hover per command
          return true;
        }
        return vscode.workspace.getConfiguration('editor').get<unknown>('hover.enabled') === 'onKeyboardModifier';
    }
  }
}
