import type * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import type { MemoryTreeProvider } from '../views/memoryTree';
import type { ScanRunner } from '../live/scanRunner';
import type { GeneratedDocumentProvider } from '../memoryDocuments';
import type { EngramStatusBar } from '../statusBar';

/** What command handlers work with; created once in activate. */
export interface EngramServices {
  engine: EngineConnection;
  drift: DriftState;
  memories: MemoryTreeProvider;
  scans: ScanRunner;
  statusBar: EngramStatusBar;
  documents: GeneratedDocumentProvider;
  log: vscode.LogOutputChannel;
  extensionPath: string;
}
