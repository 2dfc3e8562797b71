import type { RunProvenance } from './benchRecord';

/** The sentence above a generated table: when, on what code and machine, under what load, by which command. */
export function provenanceLine(p: RunProvenance, recordFile: string): string {
  const day = p.started.slice(0, 10);
  const end = p.finished.slice(0, 10) === day ? p.finished.slice(11) : p.finished;
  const code = p.dirty ? `commit ${p.commit} with uncommitted changes` : `commit ${p.commit}`;
  return (
    `Recorded ${p.started.slice(0, 16)}-${end} on ${code}, ${p.machine}, load average ` +
    `${p.load.start} -> ${p.load.end} (1 minute), by \`${p.command}\`. Generated from ` +
    `\`${recordFile}\` by \`npm run figures\`: edit neither by hand.`
  );
}
