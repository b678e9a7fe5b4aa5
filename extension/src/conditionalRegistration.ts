// A provider registered only while a setting allows it, like VS Code's typescript-language-features
// does: VS Code then never asks a provider that would answer nothing, and no request checks the
// setting. Re-evaluated whenever a configuration section it depends on changes.
import * as vscode from 'vscode';
import { disposeAll } from './dispose';

/**
 * Calls `register` while `holds()` is true and disposes what it returned once it is not, checking
 * again after every change to one of `sections` (`reporecall.hover`, ...).
 */
export function conditionalRegistration(sections: readonly string[], holds: () => boolean, register: () => vscode.Disposable): vscode.Disposable {
  let registration: vscode.Disposable | undefined;
  const update = (): void => {
    const wanted = holds();
    if (wanted && !registration) {
      registration = register();
    } else if (!wanted && registration) {
      const gone = registration;
      registration = undefined;
      gone.dispose();
    }
  };
  update();
  const listener = vscode.workspace.onDidChangeConfiguration((e) => {
    if (sections.some((s) => e.affectsConfiguration(s))) update();
  });
  return {
    dispose: () => {
      const gone = registration;
      registration = undefined;
      disposeAll([listener, ...(gone ? [gone] : [])]);
    },
  };
}
