import path from 'node:path';
import { parse as parseJsonc } from 'jsonc-parser';
import type { ParseError } from 'jsonc-parser';
import { parse as parseToml } from 'smol-toml';
import { parse as parseYaml } from 'yaml';

/** A config file's contents as nested values, or why it could not be read. */
export type ConfigTree = { ok: true; root: unknown } | { ok: false; error: string };

/** Reads JSON (with comments), YAML, TOML and `.env` files; other files are not config. */
export function readConfigText(file: string, text: string): ConfigTree {
  const base = path.posix.basename(file).toLowerCase();
  try {
    if (/\.(?:json|jsonc|json5)$/.test(base)) {
      const errors: ParseError[] = [];
      const root: unknown = parseJsonc(text, errors, { allowTrailingComma: true });
      return errors.length > 0 ? { ok: false, error: 'not valid JSON' } : { ok: true, root };
    }
    if (/\.ya?ml$/.test(base)) return { ok: true, root: parseYaml(text) as unknown };
    if (base.endsWith('.toml')) return { ok: true, root: parseToml(text) };
    if (base === '.env' || base.startsWith('.env.')) return { ok: true, root: readDotEnv(text) };
  } catch (error) {
    return {
      ok: false,
      error: error instanceof Error ? (error.message.split('\n')[0] ?? 'unreadable') : 'unreadable',
    };
  }
  return { ok: false, error: `${file} is not a config format drift reads` };
}

function readDotEnv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][\w.-]*)\s*=\s*(.*?)\s*$/.exec(line);
    if (m) values[m[1] as string] = (m[2] as string).replace(/^(["'])(.*)\1$/, '$2');
  }
  return values;
}

/**
 * The value a key names in a config tree, as text (`true`, `3000`, `ES2022`): the dotted path
 * from the top (`compilerOptions.strict`), else the key's path found deeper down (`strict` in
 * `compilerOptions`, `port` in `server`), the shallowest first. Undefined when no such key.
 */
export function configValue(root: unknown, key: string): { path: string; value: string } | undefined {
  const parts = key.split('.');
  const direct = at(root, parts);
  if (direct.found) return { path: key, value: asText(direct.value) };
  let level: Array<{ node: unknown; path: string[] }> = [{ node: root, path: [] }];
  for (let depth = 0; depth < 6 && level.length > 0; depth++) {
    const next: Array<{ node: unknown; path: string[] }> = [];
    for (const { node, path: trail } of level) {
      if (!isObject(node)) continue;
      const here = at(node, parts);
      if (here.found && trail.length > 0)
        return { path: [...trail, key].join('.'), value: asText(here.value) };
      for (const [name, child] of Object.entries(node)) next.push({ node: child, path: [...trail, name] });
    }
    level = next;
  }
  return undefined;
}

function at(root: unknown, parts: readonly string[]): { found: boolean; value?: unknown } {
  let node = root;
  for (const part of parts) {
    if (!isObject(node) || !Object.prototype.hasOwnProperty.call(node, part)) return { found: false };
    node = node[part];
  }
  return { found: true, value: node };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function asText(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** Whether a value as a memory writes it is the value the file holds (`3000` = `3000.0`, case of booleans). */
export function sameConfigValue(written: string, actual: string): boolean {
  if (written === actual) return true;
  const number = (v: string) => (/^-?\d+(?:\.\d+)?$/.test(v) ? Number(v) : undefined);
  const a = number(written);
  if (a !== undefined && a === number(actual)) return true;
  return /^(?:true|false|null)$/i.test(written) && written.toLowerCase() === actual;
}
