import path from 'node:path';
import { InvalidArgumentError } from 'commander';

/** A numeric option value; anything else is a usage error naming the value. */
export function parseNumber(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n))
    throw new InvalidArgumentError(`"${value}" is not a number.`);
  return n;
}

/** The host may be another process with another working directory: send absolute paths. */
export function absolute(cwd: string, file: string): string {
  return path.resolve(cwd, file);
}
