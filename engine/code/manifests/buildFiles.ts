import { parse as parseYaml } from 'yaml';
import type { ManifestRecord } from '../types';
import { isRecord } from './manifestValues';

const MAX_COMMAND_CHARS = 120;

/** Makefile: its explicit targets, each with the first line of its recipe. */
export function readMakefile(text: string): ManifestRecord {
  const scripts: Record<string, string> = {};
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    // `target: deps`, not `VAR := value`, not `.PHONY` or pattern rules (`%.o: %.c`).
    const match = /^([A-Za-z0-9_][A-Za-z0-9_./-]*)\s*:(?![:=])/.exec(line);
    if (!match?.[1] || match[1].includes('%')) return;
    const recipe = lines[index + 1]?.startsWith('\t') ? (lines[index + 1] ?? '').trim() : '';
    scripts[match[1]] = recipe.slice(0, MAX_COMMAND_CHARS);
  });
  return { kind: 'makefile', name: null, data: { scripts } };
}

/** Dockerfile: base images (not earlier build stages) and exposed ports. */
export function readDockerfile(text: string): ManifestRecord {
  const baseImages: string[] = [];
  const exposedPorts: string[] = [];
  const stages = new Set<string>();
  // Continuation lines belong to their instruction.
  for (const line of text.replace(/\\\r?\n/g, ' ').split('\n')) {
    const from = /^\s*FROM\s+(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?/i.exec(line);
    if (from?.[1]) {
      if (!stages.has(from[1].toLowerCase())) baseImages.push(from[1]);
      if (from[2]) stages.add(from[2].toLowerCase());
    }
    const expose = /^\s*EXPOSE\s+(.+)$/i.exec(line);
    if (expose?.[1]) exposedPorts.push(...expose[1].trim().split(/\s+/));
  }
  return { kind: 'dockerfile', name: null, data: { baseImages, exposedPorts } };
}

/** A GitHub Actions workflow: its name and job ids. */
export function readWorkflow(text: string): ManifestRecord {
  const yaml: unknown = parseYaml(text);
  const workflow = isRecord(yaml) ? yaml : {};
  return {
    kind: 'ci-workflow',
    name: typeof workflow.name === 'string' ? workflow.name : null,
    data: { jobs: isRecord(workflow.jobs) ? Object.keys(workflow.jobs) : [] },
  };
}
