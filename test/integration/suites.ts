// The extension-host suites, in run order: the ONE list both runners load, through index.ts
// (code-server in CI: scripts/vscode/run-ext-tests.mjs; desktop VS Code: test/desktop/runTests.ts).
// A new *.test.ts in this folder must be added here: index.ts refuses to run while one is missing.
export const SUITES: readonly string[] = ['extension.test', 'privacy.test', 'userModel.test', 'surface.test', 'detectServer.test', 'teamIndex.test', 'copilot.test', 'agentTools.test'];
// Suites that need a newer VS Code than the main run's 1.100: run by scripts/vscode/test-mcp-vscode.sh
// in code-server 4.139.1 (REPORECALL_TEST_SUITES names them), never in the main run.
export const LATEST_VSCODE_SUITES: readonly string[] = ['mcpDefinitions.test'];
