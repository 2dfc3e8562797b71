// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.vscode-test/**', 'out/**', '.engram/**', 'bench-out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's describe/it return promises the runner itself awaits.
          allowForKnownSafeCalls: [
            { from: 'package', name: ['describe', 'it', 'test', 'suite'], package: 'node:test' },
          ],
        },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: 'ExportDefaultDeclaration', message: 'Use named exports.' },
      ],
    },
  },
  {
    // The engine runs in the extension host, the MCP bridge, the CLI and tests: it must never
    // depend on VS Code, on the extension or on the webviews.
    files: ['engine/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'vscode',
              message: 'engine/ must not import vscode: take host capabilities as parameters.',
            },
          ],
          patterns: [
            {
              group: ['**/extension/**', '**/webview/**'],
              message: 'engine/ must not depend on extension/ or webview/.',
            },
          ],
        },
      ],
      'no-console': 'error',
    },
  },
  {
    // The webviews run in a browser sandbox: no VS Code API, nothing of the extension, and of the
    // engine only types, plus the two vocabulary lists they draw (layers, entity types).
    files: ['webview/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'vscode', message: 'webview/ runs in a browser: talk to the host by messages.' }],
          patterns: [
            {
              group: ['**/extension/**'],
              message: 'webview/ must not depend on extension/: share types through its protocol.ts.',
            },
            {
              regex: String.raw`(^|/)engine/(?!memory/types$|extract/entityTypes$|capture/agentNames$)`,
              allowTypeImports: true,
              message: 'webview/ takes only types from engine/ (the bundle must not carry the engine).',
            },
          ],
        },
      ],
    },
  },
  {
    // The extension sees the engine through its public surface, so the engine's layout can change
    // under it (test/boundaries/extensionImports.test.ts). engine/bin/engineCore is the bundle seam:
    // extension/engineBundle.ts requires it, and the build keeps it external (one engine in dist/).
    files: ['extension/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: String.raw`(^|/)engine/(?!index$|bin/engineCore$)`,
              message: 'extension/ imports the engine through engine/index.ts: export what it needs there.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.mjs', '**/*.js'],
    ...tseslint.configs.disableTypeChecked,
  },
  {
    // Tool configuration files are read through their default export.
    files: ['eslint.config.mjs'],
    rules: { 'no-restricted-syntax': 'off' },
  },
);
