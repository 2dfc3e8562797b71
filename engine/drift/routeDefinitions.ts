/** Route definitions in code: which paths, with which HTTP method, in which file. */

export interface RouteDefinition {
  file: string;
  /** Lower-cased: get, post, ..., or all/use/route/on, which answer any method. */
  method: string;
}

/** `app.get('/x'`, `router.post("/x"`, `@Get('/x')`, `@app.route("/x")`, `app.on('GET', '/x'`. */
const ROUTE_DEFINITION_RE =
  /(?:\.|@)(get|post|put|delete|patch|all|use|route|head|options|on)\(\s*(?:\[\s*)?(?:['"]([A-Z]+)['"]\s*,\s*)?['"`](\/[^'"`\s]*)['"`]/gi;
/** The same for `git grep -E` (POSIX classes, no lookarounds), refined by ROUTE_DEFINITION_RE. */
export const ROUTE_DEFINITION_ERE =
  '(\\.|@)(get|post|put|delete|patch|all|use|route|head|options|on)\\([[:space:]]*(\\[[[:space:]]*)?([\'"][A-Z]+[\'"][[:space:]]*,[[:space:]]*)?[\'"`]/[^\'"`[:space:]]*[\'"`]';
const ANY_METHOD = new Set(['all', 'use', 'route', 'on']);

/** The routes a source text defines: normalised path -> methods. */
export function routesIn(text: string): Array<{ route: string; method: string }> {
  const found: Array<{ route: string; method: string }> = [];
  ROUTE_DEFINITION_RE.lastIndex = 0;
  for (let m = ROUTE_DEFINITION_RE.exec(text); m !== null; m = ROUTE_DEFINITION_RE.exec(text)) {
    const verb = (m[1] as string).toLowerCase();
    const method = verb === 'on' && m[2] ? m[2].toLowerCase() : verb;
    found.push({ route: normaliseRoute(m[3] as string), method });
  }
  return found;
}

/** Whether a definition answers the method a memory gives (none given: any definition does). */
export function answers(definition: { method: string }, method: string | undefined): boolean {
  return (
    method === undefined || ANY_METHOD.has(definition.method) || definition.method === method.toLowerCase()
  );
}

/** `/users/:id`, `/users/{id}`, `/users/<int:id>` and `/users/:id/` are one route. */
export function normaliseRoute(route: string): string {
  const normalised = route
    .replace(/:[A-Za-z_]\w*\??/g, ':p')
    .replace(/\{[^}]*\}/g, ':p')
    .replace(/<[^>]*>/g, ':p')
    .replace(/\/+$/, '');
  return normalised === '' ? '/' : normalised;
}
