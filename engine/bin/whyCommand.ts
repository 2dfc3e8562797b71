import type { Command } from 'commander';
import { parseTarget } from '../capture/link/why';
import type { WhyAnswer } from '../capture/link/why';
import { whyLines } from '../capture/link/whyText';
import { absolute } from './cliArguments';
import type { Invoke } from './cliArguments';

/** `engram why FILE[:LINE]`: which captured sessions and decisions shaped these lines, in which commits. */
export function registerWhyCommand(program: Command, invoke: Invoke, cwd: string): void {
  program
    .command('why')
    .argument('<file[:line]>', 'a workspace file, and a line of it')
    .description('which captured agent sessions and decisions shaped a file or line, in which commits')
    .action((target: string) => {
      const { file, line } = parseTarget(target);
      return invoke('why', { file: absolute(cwd, file), line }, (r) => whyLines(r as WhyAnswer));
    });
}
