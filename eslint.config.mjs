// ESLint for the whole TypeScript tree (issue 32's habits): typescript-eslint's recommended rules plus
// the few structural ones the style guide asks for. `npm run lint` runs it; `.ci/run` fails on any warning.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import unicorn from 'eslint-plugin-unicorn';
import stylistic from '@stylistic/eslint-plugin';

// The formatter: @stylistic's rules, fixed by `npm run format` (`eslint --fix`) and checked by `npm run lint`. Not Prettier:
// it re-wraps lines, and 2,679 of ours are over 120 characters by choice; these rules keep the house layout.
const FORMAT = stylistic.configs.customize({ indent: 2, quotes: 'single', semi: true, jsx: false, commaDangle: 'always-multiline', arrowParens: true, quoteProps: 'as-needed' });
const FORMAT_RULES = {
  ...FORMAT.rules,
  '@stylistic/quotes': ['warn', 'single', { avoidEscape: true }],
  '@stylistic/indent': ['warn', 2, { offsetTernaryExpressions: true, SwitchCase: 1 }],
  // House layout, deliberately kept: one-line `if (…) { …; … }` branches, `} else` on its own line, fields without
  // blank lines between them, operators and ternaries broken where they read best, long lines and lists.
  '@stylistic/list-style': 'off', '@stylistic/max-statements-per-line': 'off', '@stylistic/operator-linebreak': 'off',
  '@stylistic/lines-between-class-members': 'off', '@stylistic/multiline-ternary': 'off', '@stylistic/no-mixed-operators': 'off',
  '@stylistic/brace-style': 'off',
};

// Fields, then the constructor, then accessors and methods in any order: a class's state is read at its top.
const CLASS_ORDER = ['signature', 'field', 'static-initialization', 'constructor', ['accessor', 'get', 'set', 'method']];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-output/**', '.cache/**', '.bench-out/**', 'grammars/wasm/**', 'models/**', '**/*.js', '**/*.cjs', '**/*.mjs', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { unicorn, ...FORMAT.plugins },
    rules: {
      ...FORMAT_RULES,
      // One file-naming style: camelCase, with dotted qualifiers allowed (`backends.stopRules.test.ts`).
      'unicorn/filename-case': ['warn', { case: 'camelCase', multipleFileExtensions: true }],
      '@typescript-eslint/member-ordering': ['warn', { default: 'never', classes: CLASS_ORDER, classExpressions: CLASS_ORDER }],
      // More than six positional parameters is an options object waiting to be named.
      'max-params': ['warn', 6],
      'no-unused-private-class-members': 'warn',
      // A closure made before the one assignment reads the variable later: it cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['warn', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // A function a reader can hold in mind: product code and the benchmark, not test suites (a
    // describe block holds its cases).
    files: ['engine/src/**/*.ts', 'extension/src/**/*.ts', 'test/bench/**/*.ts'],
    rules: { 'max-lines-per-function': ['warn', { max: 80, skipBlankLines: true, skipComments: true }] },
  },
);
