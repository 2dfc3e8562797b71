/**
 * The committed record of a benchmark run (docs/figures/<bench>.json): its figures and where they
 * come from (command, commit, machine, load). `npm run figures` renders the documented tables from
 * these files, so a documented figure is always the output of a run, never typed by hand.
 * Written only when a bench is given `--record`: exploratory runs never overwrite the record.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { machine } from '../stats';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
export const FIGURES_DIR = path.join(REPO_ROOT, 'docs', 'figures');

export interface RunProvenance {
  /** The command as typed: `npm run <script> -- <args>` when run through npm. */
  command: string;
  /** Short hash of HEAD when the run started. */
  commit: string;
  /** Tracked files differed from the commit when the run started: the commit is not the code measured. */
  dirty: boolean;
  /** UTC, to the minute. */
  started: string;
  finished: string;
  machine: string;
  /** 1-minute load average at the start and at the end (the machine is shared). */
  load: { start: number; end: number };
}

export interface BenchRecord<Figures> {
  bench: string;
  provenance: RunProvenance;
  figures: Figures;
}

/** Where the run stands at its start; `finish` completes it with the end time and load. */
export interface RunStart {
  provenance: Omit<RunProvenance, 'finished' | 'load'>;
  loadStart: number;
}

const minute = (date: Date) => `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
const load1 = () => Math.round(os.loadavg()[0]! * 100) / 100;
const git = (...args: string[]) => execFileSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' }).trim();

/** `script` is the bench's file relative to the repository, for a run that did not go through npm. */
export function startRun(script: string, args: readonly string[]): RunStart {
  const npmScript = process.env['npm_lifecycle_event'];
  const command = npmScript
    ? `npm run ${npmScript}${args.length > 0 ? ` -- ${args.join(' ')}` : ''}`
    : ['node --import tsx', script, ...args].join(' ');
  return {
    provenance: {
      command,
      commit: git('rev-parse', '--short', 'HEAD'),
      dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
      started: minute(new Date()),
      machine: machine(),
    },
    loadStart: load1(),
  };
}

/** Writes docs/figures/<bench>.json and returns its path. */
export function writeRecord<Figures>(bench: string, start: RunStart, figures: Figures): string {
  const record: BenchRecord<Figures> = {
    bench,
    provenance: {
      ...start.provenance,
      finished: minute(new Date()),
      load: { start: start.loadStart, end: load1() },
    },
    figures,
  };
  mkdirSync(FIGURES_DIR, { recursive: true });
  const file = path.join(FIGURES_DIR, `${bench}.json`);
  writeFileSync(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}
