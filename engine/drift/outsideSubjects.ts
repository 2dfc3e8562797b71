/**
 * Names in a project's docs that most likely belong to something else: another tool's configuration
 * file, a string written in code quotes, or a page on another site. Such a name is a low-confidence
 * claim: checked, but never enough to make a memory stale (see claimContext.ts).
 */

/** Configuration files of other tools, with the package that reads each. */
const TOOL_CONFIG_FILES: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(?:tsconfig|jsconfig)(?:\.[\w-]+)?\.json\b/i, 'typescript'],
  [/\.eslintrc\b|\beslint\.config\.[cm]?[jt]s\b/i, 'eslint'],
  [/\.babelrc\b|\bbabel\.config\.[cm]?[jt]s(?:on)?\b/i, '@babel/core'],
  [/\.prettierrc\b|\bprettier\.config\.[cm]?[jt]s\b/i, 'prettier'],
  [/\bwebpack\.config\.[cm]?[jt]s\b/i, 'webpack'],
  [/\brollup\.config\.[cm]?[jt]s\b/i, 'rollup'],
  [/\bvite\.config\.[cm]?[jt]s\b/i, 'vite'],
  [/\bjest\.config\.[cm]?[jt]s(?:on)?\b/i, 'jest'],
];

/**
 * "Set `target` property in `tsconfig.json`": the clause places the name in another tool's
 * configuration file (unless the project is that tool).
 */
export function inOtherToolsConfig(clause: string, packages: ReadonlySet<string>): boolean {
  return TOOL_CONFIG_FILES.some(([file, tool]) => file.test(clause) && !packages.has(tool));
}

/** `` `"compilerOptions"` ``: a quoted string inside code quotes is a value or a JSON key, not a name of the code. */
export function isQuotedString(text: string, span: readonly [number, number]): boolean {
  const open = text[span[0] - 1];
  return (open === '"' || open === "'") && text[span[1]] === open && text[span[0] - 2] === '`';
}

/**
 * `[**`$ref`**](https://tools.ietf.org/...)`: a name whose link leads to another site is defined
 * there. A link to a page naming one of the project's packages (its repository, its docs) keeps it.
 */
export function linksElsewhere(
  text: string,
  span: readonly [number, number],
  packages: ReadonlySet<string>,
): boolean {
  const after = /^[`*_]*\]\((https?:\/\/[^\s)]+)/.exec(text.slice(span[1], span[1] + 400));
  if (!after) return false;
  const url = (after[1] as string).toLowerCase();
  return ![...packages].some((name) => url.includes(name.toLowerCase().replace(/^@/, '')));
}
