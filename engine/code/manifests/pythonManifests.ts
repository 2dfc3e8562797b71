import { parse as parseToml } from 'smol-toml';
import type { ManifestRecord } from '../types';
import { isRecord, stringMap, versionTable } from './manifestValues';

/** pyproject.toml: the PEP 621 `[project]` table, falling back to Poetry's `[tool.poetry]`. */
export function readPyproject(text: string): ManifestRecord {
  const toml = parseToml(text);
  const project = isRecord(toml.project) ? toml.project : {};
  const tool = isRecord(toml.tool) ? toml.tool : {};
  const poetry = isRecord(tool.poetry) ? tool.poetry : {};
  const dependencies: Record<string, string> = {};
  if (Array.isArray(project.dependencies)) {
    for (const requirement of project.dependencies) {
      if (typeof requirement !== 'string') continue;
      // PEP 508: the name, then extras, a version specifier or markers.
      const match = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([^;]*)/.exec(requirement);
      if (match?.[1]) dependencies[match[1]] = match[3]?.trim() || '*';
    }
  }
  Object.assign(dependencies, versionTable(poetry.dependencies));
  delete dependencies.python;
  const name =
    typeof project.name === 'string' ? project.name : typeof poetry.name === 'string' ? poetry.name : null;
  return {
    kind: 'pyproject',
    name,
    data: { scripts: { ...stringMap(poetry.scripts), ...stringMap(project.scripts) }, dependencies },
  };
}
