import type { FileHit, SymbolHit } from '../code/codeQueries';
import type { ScanResult } from '../code/codeWorkspace';
import type { RepoMap } from '../code/repoMap';
import type { ScanDrift } from '../drift/driftReport';
import { oneLine } from './driftCommands';

/** The scan's summary, then the drift of the memories naming what it changed. */
export function renderScan(r: ScanResult & { drift: ScanDrift }): string {
  const c = r.changes;
  const lines = [
    `scanned ${r.root} in ${(r.millis / 1000).toFixed(2)} s: ${r.files} files, ${r.symbols} symbols, ${r.imports} imports`,
    `changes: ${c.added.length} added, ${c.changed.length} changed, ${c.deleted.length} deleted, ${c.renamed.length} renamed, ${c.unchanged} unchanged`,
    `memories: ${r.memories.added} written, ${r.memories.unchanged} unchanged, ${r.memories.invalidated} invalidated${r.memories.rejected ? `, ${r.memories.rejected} rejected (over a size limit)` : ''} (from ${r.memories.files} files)`,
  ];
  if (r.skipped > 0)
    lines.push(
      `skipped ${r.skipped}: ${Object.entries(r.skippedByReason)
        .map(([reason, n]) => `${n} ${reason}`)
        .join(', ')}`,
    );
  if (r.tokenRatio)
    lines.push(
      `tokens: memories ${r.tokenRatio.memoryTokens} / source ${r.tokenRatio.sourceTokens} = ${r.tokenRatio.ratio}`,
    );
  if (r.interruptedScans.length)
    lines.push(`resumed after interrupted scan(s) ${r.interruptedScans.join(', ')}`);
  lines.push(...renderScanDrift(r.drift));
  return lines.join('\n');
}

/** One line per drifted memory: its status, id, the false claims and where they went, its text. */
export function renderScanDrift(drift: ScanDrift): string[] {
  if (drift.error !== undefined) return [`drift not checked: ${drift.error}`];
  if (drift.memories.length === 0) return ['no drift in the changed files'];
  return drift.memories.map((m) => {
    const claims = m.claims
      .filter((c) => c.verdict === 'stale' || c.verdict === 'moved')
      .map((c) => `${c.subject} ${c.evidence.target ? `-> ${c.evidence.target}` : c.evidence.reason}`);
    return `drift: ${m.status.toUpperCase()} ${m.id}  ${claims.join('; ')}  "${oneLine(m.excerpt)}"`;
  });
}

export function renderSymbols(hits: SymbolHit[]): string {
  if (hits.length === 0) return 'no symbols found';
  return hits
    .map(
      (s) =>
        `${s.path}:${s.startLine}  ${s.kind.padEnd(9)} ${s.container ? `${s.container}.` : ''}${s.name}  ${s.signature}`,
    )
    .join('\n');
}

export function renderFiles(hits: FileHit[]): string {
  if (hits.length === 0) return 'no files found';
  return hits
    .map((f) => `${f.path}  (${f.language ?? 'unknown'}, ${f.lines} lines, ${f.symbols} symbols)`)
    .join('\n');
}

/** The map text, then one line on what it covers and what centred it; a note when it is empty. */
export function renderMap(map: RepoMap): string {
  const centred = [
    ...map.focus.files,
    ...map.focus.mentionedFiles.filter((f) => !map.focus.files.includes(f)),
    ...map.focus.identifiers,
  ];
  const summary = [
    `${map.files.length} of ${map.indexedFiles} files, ${map.tokens}/${map.budget} tokens`,
    centred.length > 0 ? `focus: ${centred.join(', ')}` : 'no focus',
  ];
  if (map.focus.unknown.length > 0) summary.push(`not in the index: ${map.focus.unknown.join(', ')}`);
  const lines = map.text ? [map.text, ''] : [];
  if (map.note) lines.push(map.note);
  lines.push(`(${summary.join('; ')})`);
  return lines.join('\n');
}
