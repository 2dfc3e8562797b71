import type { Command } from 'commander';
import type { SkillAnswer } from '../retrieval/skillGate';
import { parseNumber } from './cliArguments';
import type { Invoke } from './cliArguments';
import { memoryLine } from './cliOutput';

/** `engram skills QUERY`: the procedures for a task, or nothing with the gate's reason. */
export function registerSkillsCommand(program: Command, invoke: Invoke): void {
  program
    .command('skills')
    .argument('<task...>', 'the task, in words')
    .option('--limit <n>', 'at most this many procedures (default 3)', parseNumber)
    .option(
      '--threshold <n>',
      'confidence a procedure needs, 0 to 1 (default: the calibrated one)',
      parseNumber,
    )
    .description('procedural memories for a task, only when they are relevant enough (otherwise why not)')
    .action((words: string[], o: { limit?: number; threshold?: number }) =>
      invoke('skills', { query: words.join(' '), limit: o.limit, threshold: o.threshold }, (r) =>
        skillLines(r as SkillAnswer),
      ),
    );
}

export function skillLines(answer: SkillAnswer): string {
  const why = (c: { coverage: number; lead: number }) =>
    `covers ${Math.round(c.coverage * 100)}% of the task, leads the next by ${Math.round(c.lead * 100)}%`;
  if (answer.decision === 'inject')
    return [
      `${answer.skills.length} skill${answer.skills.length === 1 ? '' : 's'} (${answer.reason}):`,
      ...answer.skills.map((s) => `${s.confidence.toFixed(2)}  ${memoryLine(s.memory)}\n      ${why(s)}`),
    ].join('\n');
  return [
    `no skills: ${answer.reason} (${answer.stage})`,
    ...answer.considered.map((c) => `  ${c.confidence.toFixed(2)}  ${c.memoryId}: ${why(c)}`),
  ].join('\n');
}
