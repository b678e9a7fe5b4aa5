// ESLint for the whole TypeScript tree (issue 32's habits): typescript-eslint's recommended rules plus
// the few structural ones the style guide asks for. `npm run lint` runs it; `.ci/run` fails on any warning.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import unicorn from 'eslint-plugin-unicorn';

// Fields, then the constructor, then accessors and methods in any order: a class's state is read at its top.
const CLASS_ORDER = ['signature', 'field', 'static-initialization', 'constructor', ['accessor', 'get', 'set', 'method']];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test-output/**', '.cache/**', '.bench-out/**', 'grammars/wasm/**', 'models/**', '**/*.js', '**/*.cjs', '**/*.mjs', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    plugins: { unicorn },
    rules: {
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
);
