import type * as vscode from 'vscode';
import type { EngineConnection } from '../engineConnection';
import type { DriftState } from '../driftState';
import type { MemoryTreeProvider } from '../views/memoryTree';
import type { ScanRunner } from '../live/scanRunner';
import type { GeneratedDocumentProvider } from '../memoryDocuments';
import type { EngramStatusBar } from '../statusBar';
import type { TeamServerLink } from '../teamServerLink';
import type { TeamStatusItem } from '../teamStatusItem';

/** What command handlers work with; created once in activate. */
export interface EngramServices {
  engine: EngineConnection;
  drift: DriftState;
  memories: MemoryTreeProvider;
  scans: ScanRunner;
  statusBar: EngramStatusBar;
  /** The team server (engram.team.url and its token) and its status-bar item. */
  team: TeamServerLink;
  teamStatus: TeamStatusItem;
  documents: GeneratedDocumentProvider;
  log: vscode.LogOutputChannel;
  extensionPath: string;
}
