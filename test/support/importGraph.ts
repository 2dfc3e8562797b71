import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.join(__dirname, '..', '..');

/** One import of a module by another; `typeOnly` when erased at build (`import type`). */
export interface ModuleImport {
  from: string;
  to: string;
  typeOnly: boolean;
}

/**
 * Every relative import (static, `import type`, re-export and dynamic `import()`) of the TypeScript
 * files under `dirs`, by the source text rather than a bundle: esbuild's graph (startupGraph.ts)
 * drops type-only imports, and those are the ones that tie a layer to another's concrete class.
 * Paths are relative to the repository, `/`-separated; imports of packages are left out.
 */
export function importsUnder(dirs: readonly string[], root = ROOT): ModuleImport[] {
  const imports: ModuleImport[] = [];
  for (const dir of dirs)
    for (const file of typeScriptFiles(path.resolve(root, dir))) {
      const from = relative(root, file);
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
      const visit = (node: ts.Node): void => {
        const found = importOf(node);
        if (found && found.specifier.startsWith('.')) {
          const to = resolveModule(path.dirname(file), found.specifier);
          if (to) imports.push({ from, to: relative(root, to), typeOnly: found.typeOnly });
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  return imports;
}

/** The import cycles among `imports`: each strongly connected set of two or more modules, sorted. */
export function importCycles(imports: readonly ModuleImport[]): string[][] {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    if (!edges.has(from)) edges.set(from, new Set());
    edges.get(from)!.add(to);
  }
  // Tarjan's algorithm, iterative enough for a few hundred modules.
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (module: string): void => {
    index.set(module, index.size);
    low.set(module, index.get(module)!);
    stack.push(module);
    onStack.add(module);
    for (const next of edges.get(module) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(module, Math.min(low.get(module)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(module, Math.min(low.get(module)!, index.get(next)!));
    }
    if (low.get(module) !== index.get(module)) return;
    const component: string[] = [];
    for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
      onStack.delete(top);
      component.push(top);
      if (top === module) break;
    }
    if (component.length > 1) components.push(component.sort());
  };
  for (const module of edges.keys()) if (!index.has(module)) connect(module);
  return components.sort((a, b) => b.length - a.length || a[0]!.localeCompare(b[0]!));
}

/** Pairs of modules that import each other (the shortest cycles), as `a <-> b` with a < b. */
export function mutualImports(imports: readonly ModuleImport[]): string[] {
  const edges = new Set(imports.map(({ from, to }) => `${from}\n${to}`));
  const pairs = new Set<string>();
  for (const { from, to } of imports)
    if (from < to && edges.has(`${to}\n${from}`)) pairs.add(`${from} <-> ${to}`);
  return [...pairs].sort();
}

function importOf(node: ts.Node): { specifier: string; typeOnly: boolean } | undefined {
  if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
    const clause = node.importClause;
    const bindings = clause?.namedBindings;
    const allTypes =
      clause !== undefined &&
      clause.name === undefined &&
      bindings !== undefined &&
      ts.isNamedImports(bindings) &&
      bindings.elements.length > 0 &&
      bindings.elements.every((element) => element.isTypeOnly);
    return { specifier: node.moduleSpecifier.text, typeOnly: clause?.isTypeOnly === true || allTypes };
  }
  if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier))
    return { specifier: node.moduleSpecifier.text, typeOnly: node.isTypeOnly };
  if (
    ts.isCallExpression(node) &&
    node.expression.kind === ts.SyntaxKind.ImportKeyword &&
    node.arguments[0] !== undefined &&
    ts.isStringLiteral(node.arguments[0])
  )
    return { specifier: node.arguments[0].text, typeOnly: false };
  if (
    ts.isImportTypeNode(node) &&
    ts.isLiteralTypeNode(node.argument) &&
    ts.isStringLiteral(node.argument.literal)
  )
    return { specifier: node.argument.literal.text, typeOnly: true };
  return undefined;
}

function resolveModule(dir: string, specifier: string): string | undefined {
  const base = path.resolve(dir, specifier);
  for (const candidate of [base, `${base}.ts`, path.join(base, 'index.ts')])
    if (candidate.endsWith('.ts') && existsSync(candidate) && statSync(candidate).isFile()) return candidate;
  return undefined;
}

function typeScriptFiles(dir: string): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) files.push(...typeScriptFiles(full));
    else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) files.push(full);
  }
  return files.sort();
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
