import * as vscode from 'vscode';

/**
 * A ChatResponseStream that keeps what the handler streamed, as the chat view would receive it.
 * VS Code gives extensions no way to open a chat request against their own participant without a
 * chat model installed, so the in-host test calls the handler with this stream and a request built
 * from the real API types.
 */
export class RecordingChatStream implements vscode.ChatResponseStream {
  readonly markdownParts: string[] = [];
  readonly references: Array<vscode.Uri | vscode.Location> = [];
  readonly buttons: vscode.Command[] = [];
  readonly progressMessages: string[] = [];

  get text(): string {
    return this.markdownParts.join('');
  }

  markdown(value: string | vscode.MarkdownString): void {
    this.markdownParts.push(typeof value === 'string' ? value : value.value);
  }
  anchor(value: vscode.Uri | vscode.Location): void {
    this.references.push(value);
  }
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  filetree(): void {}
  progress(value: string): void {
    this.progressMessages.push(value);
  }
  reference(
    value: vscode.Uri | vscode.Location | { variableName: string; value?: vscode.Uri | vscode.Location },
  ): void {
    if (value instanceof vscode.Uri || value instanceof vscode.Location) this.references.push(value);
  }
  push(part: vscode.ChatResponsePart): void {
    if (part instanceof vscode.ChatResponseMarkdownPart) this.markdown(part.value);
  }
}
