// ESLint checks what oxlint (.oxlintrc.json, run first by `npm run lint`) does not: the React Compiler's rules of
// eslint-plugin-react-hooks, our own rules (eslint-rules/), no barrel files, and `no-undef` in the JavaScript files.
// oxlint runs everything else ESLint ran before (js and typescript-eslint recommended, jsx-a11y recommended,
// rules-of-hooks and exhaustive-deps, max-lines-per-function), natively; docs/decisions.md "Lint checks format".
import globals from 'globals'
import tseslint from 'typescript-eslint'
import reactHooks from 'eslint-plugin-react-hooks'
import { featureBoundaries } from './eslint-rules/feature-boundaries.js'
import { vocabularyWords } from './eslint-rules/vocabulary-words.js'

// rules-of-hooks and exhaustive-deps run in oxlint (react/…): here only the compiler's rules.
const compilerRules = Object.fromEntries(
  Object.entries(reactHooks.configs.recommended.rules).filter(
    ([name]) => name !== 'react-hooks/rules-of-hooks' && name !== 'react-hooks/exhaustive-deps',
  ),
)

export default [
  {
    ignores: [
      'dist',
      'dist-e2e',
      'dist-bench',
      'node_modules',
      'coverage',
      'playwright-report',
      'test-results',
      'supabase/.local',
      'src/types/database.types.ts',
    ],
  },
  // eslint-disable comments name rules oxlint runs; ESLint does not judge them.
  { linterOptions: { reportUnusedDisableDirectives: 'off' } },
  {
    // typescript-eslint turns no-undef off for TypeScript (the type check finds undefined names); oxlint's no-undef
    // is not stable yet, so ESLint keeps it for the few JavaScript files.
    files: ['**/*.{js,mjs}'],
    languageOptions: { ecmaVersion: 2023, globals: { ...globals.node } },
    rules: { 'no-undef': 'error' },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { parser: tseslint.parser, globals: { ...globals.browser, ...globals.node } },
    plugins: {
      '@typescript-eslint': tseslint.plugin,
      'react-hooks': reactHooks,
      growletter: { rules: { 'feature-boundaries': featureBoundaries, 'vocabulary-words': vocabularyWords } },
    },
    rules: {
      ...compilerRules,
      'growletter/feature-boundaries': 'error',
      'growletter/vocabulary-words': 'error',
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportAllDeclaration', message: 'No barrel files: import the module you mean.' },
      ],
    },
  },
  {
    // shadcn-style primitives may re-export Radix parts.
    files: ['src/components/ui/**'],
    rules: { 'no-restricted-syntax': 'off' },
  },
]
