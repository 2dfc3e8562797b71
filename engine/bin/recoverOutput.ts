import type { RecoverReport } from '../store/recoverStore';
import { ranges } from '../store/recoverStore';

/** What `engram recover` prints: what it rebuilt from, where the old files are, and any loss. */
export function recoverLines(report: RecoverReport): string {
  const lines = [
    `rebuilt ${report.database} from ${report.rebuiltFrom} and ${report.replayed} journal transactions ` +
      `(now at transaction ${report.lastSeq})`,
  ];
  if (report.salvagedFrom.length > 0)
    lines.push(`used the intact records of ${report.salvagedFrom.join(', ')}`);
  if (report.keptAside.length > 0) lines.push(`kept the replaced files at ${report.keptAside.join(', ')}`);
  if (report.lost.length > 0 || report.skipped.length > 0) lines.push(lossLine(report));
  return lines.join('\n');
}

export function lossLine(report: RecoverReport): string {
  const parts: string[] = [];
  if (report.lost.length > 0) parts.push(`transaction ${ranges(report.lost)} could not be recovered`);
  if (report.skipped.length > 0)
    parts.push(`transaction ${ranges(report.skipped)} could not be applied without them`);
  return `LOST (accepted with --accept-loss): ${parts.join('; ')}`;
}
