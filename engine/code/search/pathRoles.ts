/**
 * What a file is for, read from its path: the code a change goes into, or the tests, docs,
 * examples, fixtures and benchmarks around it. Questions about a project ("where is X done?",
 * an issue report) are answered by the implementation; measured on SWE-bench Verified issues,
 * test files and documentation examples that repeat the words outranked the fix's files.
 */
export const PATH_ROLES = ['implementation', 'test', 'docs', 'example', 'fixture', 'benchmark'] as const;
export type PathRole = (typeof PATH_ROLES)[number];

const DOC_EXTENSIONS = /\.(md|mdx|rst|txt|adoc|ipynb)$/i;
const SEGMENT_ROLES: Array<[RegExp, PathRole]> = [
  [/^(fixtures?|testdata|test_?data|__fixtures__|__snapshots__|snapshots|data)$/i, 'fixture'],
  [/^(tests?|testing|__tests__|spec|specs|e2e|test_?utils?)$/i, 'test'],
  [/^(docs?|documentation|man|site)$/i, 'docs'],
  [/^(examples?|samples?|demos?|tutorials?|gallery)$/i, 'example'],
  [/^(benchmarks?|bench|asv_bench|perf)$/i, 'benchmark'],
];
const TEST_FILE = /^(test_.*|.*_tests?\.[^.]+|.*\.(test|spec)\.[^.]+|conftest\.py)$/i;

/**
 * The role of a workspace-relative path: a test file name wins (`docs/test_x.py` is a test), then
 * the outermost directory that names a role (`tests/fixtures/a.py` is a test file), then
 * documentation by extension; anything else is implementation.
 */
export function pathRole(filePath: string): PathRole {
  const segments = filePath.split('/');
  const name = segments.pop() ?? '';
  if (TEST_FILE.test(name)) return 'test';
  for (const segment of segments)
    for (const [pattern, role] of SEGMENT_ROLES) if (pattern.test(segment)) return role;
  if (DOC_EXTENSIONS.test(name)) return 'docs';
  return 'implementation';
}

const ASKS: Record<Exclude<PathRole, 'implementation'>, RegExp> = {
  test: /\b(tests?|unit ?tests?|test (files?|suites?|cases?)|specs?)\b/i,
  docs: /\b(docs?|documentation|readme|docstrings?|tutorial)\b/i,
  example: /\b(examples?|samples?|demos?)\b/i,
  fixture: /\b(fixtures?|test data)\b/i,
  benchmark: /\b(benchmarks?|perf(ormance)? tests?)\b/i,
};
/** "where are the tests for", "which docs describe", "find the example of": a question about files of that role. */
const FILE_QUESTION = /\b(where|which|find|show|list|locate|open)\b/i;

/**
 * The roles a query asks for by name: a short question that names tests, docs, examples,
 * fixtures or benchmarks and asks where or which. An issue report that mentions a failing test in
 * passing does not ask for test files (its words are compared only within its first sentence).
 */
export function rolesAskedFor(query: string): Set<PathRole> {
  const first = query.split(/(?<=[.?!])\s|\n/)[0] ?? '';
  const asked = new Set<PathRole>();
  if (!FILE_QUESTION.test(first)) return asked;
  for (const [role, pattern] of Object.entries(ASKS) as Array<[PathRole, RegExp]>)
    if (pattern.test(first)) asked.add(role);
  return asked;
}
