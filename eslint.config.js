// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', '.bench-out/', '.test-output/', 'examples/*/dist/'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // `Class.is(value)` reads the subclass's `kind` through `this`, on purpose.
      '@typescript-eslint/no-extraneous-class': 'off',
    },
  },
  {
    // Tests remove environment variables and object keys by computed name on purpose.
    files: ['test/**'],
    rules: { '@typescript-eslint/no-dynamic-delete': 'off' },
  },
);
