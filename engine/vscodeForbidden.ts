// What `import 'vscode'` resolves to when engine/ is compiled on its own (engine/tsconfig.json):
// the engine runs in its own process, the CLI and the benchmark, where there is no `vscode`.
// Anything the engine needs from the editor comes through its API (src/api.ts) instead.
export const engineMustNotImportVscode: 'the engine never imports vscode' = 'see ARCHITECTURE.md' as const;
