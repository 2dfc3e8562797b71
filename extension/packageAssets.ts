/**
 * Files the extension loads from its own package at run time, relative to the extension's root.
 * test/vscode/packageContent.test.ts checks that each is in the packaged .vsix (a wrong path here
 * once gave the chat participant no icon), so this file must not import `vscode`.
 */
export const ENGRAM_ICON = ['extension', 'media', 'engram.svg'] as const;

export const PACKAGE_ASSETS: readonly (readonly string[])[] = [ENGRAM_ICON];
