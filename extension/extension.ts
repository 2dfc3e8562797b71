import type * as vscode from 'vscode';

/** Activation stays thin: the engine starts lazily in the background (issue: VS Code surface). */
export function activate(_context: vscode.ExtensionContext): void {}

export function deactivate(): void {}
