import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { runScan } from '../../engine/code/runScan';
import type { CodeSymbol, FileScanResult } from '../../engine/code/types';
import { grammarsDirectory, workspaceWith } from './codeWorkspace';
import * as fixtures from './languageFixtures';
import type { FixtureFiles } from './languageFixtures';

/** Scans a fixture workspace in this thread and returns each file's result by path. */
async function scanFixture(files: FixtureFiles): Promise<Map<string, FileScanResult>> {
  const root = workspaceWith(files);
  const results = new Map<string, FileScanResult>();
  await runScan({ root, grammarsDirectory: grammarsDirectory(), known: [] }, (event) => {
    if (event.type === 'files') for (const { result } of event.files) results.set(result.path, result);
  });
  return results;
}

interface ExpectedSymbol {
  name: string;
  kind: string;
  exported: boolean;
  container?: string | null;
  signature?: string;
  doc?: string | null;
  lines?: [number, number];
}

function checkSymbols(result: FileScanResult | undefined, expected: ExpectedSymbol[]): void {
  assert.ok(result, 'the file was scanned');
  for (const want of expected) {
    const found: CodeSymbol | undefined = result.symbols.find(
      (s) => s.name === want.name && (want.container === undefined || s.container === want.container),
    );
    assert.ok(
      found,
      `${result.path}: ${want.name} found among ${result.symbols.map((s) => s.name).join(', ')}`,
    );
    assert.equal(found.kind, want.kind, `${want.name} kind`);
    assert.equal(found.exported, want.exported, `${want.name} exported`);
    if (want.signature !== undefined) assert.equal(found.signature, want.signature, `${want.name} signature`);
    if (want.doc !== undefined) assert.equal(found.doc, want.doc, `${want.name} doc`);
    if (want.lines) assert.deepEqual([found.startLine, found.endLine], want.lines, `${want.name} lines`);
  }
}

function checkImports(result: FileScanResult | undefined, expected: Record<string, string | null>): void {
  assert.ok(result, 'the file was scanned');
  const actual = Object.fromEntries(result.imports.map((i) => [i.specifier, i.resolved]));
  for (const [specifier, resolved] of Object.entries(expected)) {
    assert.ok(
      specifier in actual,
      `${result.path}: import ${specifier} found among ${Object.keys(actual).join(', ')}`,
    );
    assert.equal(actual[specifier], resolved, `${result.path}: ${specifier} resolves to ${resolved}`);
  }
}

describe('per-language extraction', () => {
  it('TypeScript: declarations, members, signatures, docs, tsconfig paths and index resolution', async () => {
    const results = await scanFixture(fixtures.TYPESCRIPT);
    const service = results.get('src/service.ts');
    checkSymbols(service, [
      { name: 'RateLimiter', kind: 'interface', exported: true, doc: 'Limits how often a client may call.' },
      { name: 'Millis', kind: 'type', exported: true, signature: 'type Millis = number' },
      { name: 'Mode', kind: 'enum', exported: true },
      { name: 'DEFAULT_LIMIT', kind: 'constant', exported: true, signature: 'const DEFAULT_LIMIT = 100' },
      {
        name: 'WindowLimiter',
        kind: 'class',
        exported: true,
        signature: 'class WindowLimiter implements RateLimiter',
        doc: 'Counts calls per key in a fixed window.',
        lines: [24, 35],
      },
      {
        name: 'allow',
        container: 'WindowLimiter',
        kind: 'method',
        exported: true,
        signature: 'allow(key: string): boolean',
        doc: 'Whether the call is allowed.',
      },
      {
        name: 'createLimiter',
        kind: 'function',
        exported: true,
        signature:
          'async function createLimiter(limit: number, mode: Mode = Mode.Strict): Promise<RateLimiter>',
      },
      { name: 'internalOnly', kind: 'function', exported: false },
      { name: 'makeKey', kind: 'function', exported: true },
    ]);
    checkImports(service, {
      '@lib/math': 'src/lib/math.ts',
      './helpers': 'src/helpers.ts',
      './lib': 'src/lib/index.ts',
      express: null,
    });
    assert.ok((service?.references.add ?? 0) > 0, 'references count the identifiers used');
    checkImports(results.get('src/lib/index.ts'), { './math': 'src/lib/math.ts' });
    assert.equal(results.get('tsconfig.json')?.manifest?.data.paths?.['@lib/*']?.[0], 'src/lib/*');
  });

  it('TSX: components and their props', async () => {
    const results = await scanFixture(fixtures.TSX);
    checkSymbols(results.get('src/Button.tsx'), [
      { name: 'ButtonProps', kind: 'interface', exported: true },
      { name: 'Button', kind: 'function', exported: true, doc: 'A themed button.' },
    ]);
    checkImports(results.get('src/Button.tsx'), { react: null, './theme': 'src/theme.ts' });
  });

  it('JavaScript: CommonJS exports and requires, ES imports with extensions', async () => {
    const results = await scanFixture(fixtures.JAVASCRIPT);
    const index = results.get('lib/index.js');
    checkSymbols(index, [
      { name: 'load', kind: 'function', exported: true, doc: 'Reads and parses a file.' },
      { name: 'Cache', kind: 'class', exported: true },
      { name: 'get', container: 'Cache', kind: 'method', exported: true },
    ]);
    assert.ok(!index?.symbols.some((s) => s.name === 'fs'), 'a require binding is an import, not a constant');
    checkImports(index, { fs: null, './parser': 'lib/parser.js', './parser.js': 'lib/parser.js' });
  });

  it('Python: classes, methods, docstrings, constants, relative and package imports', async () => {
    const results = await scanFixture(fixtures.PYTHON);
    const models = results.get('app/models.py');
    checkSymbols(models, [
      { name: 'MAX_USERS', kind: 'constant', exported: true },
      { name: 'User', kind: 'class', exported: true, doc: 'A registered user.', signature: 'class User' },
      { name: 'slug', container: 'User', kind: 'method', exported: true, doc: 'The URL-safe name.' },
      {
        name: 'load_users',
        kind: 'function',
        exported: true,
        signature: 'def load_users(path: str, limit: int = MAX_USERS) -> list[User]',
      },
      { name: '_private', kind: 'function', exported: false },
    ]);
    checkImports(models, { os: null, '.util': 'app/util.py', 'app.db': 'app/db/__init__.py' });
  });

  it('Go: exported by case, methods on receivers, module imports from go.mod', async () => {
    const results = await scanFixture(fixtures.GO);
    const cart = results.get('cart/cart.go');
    checkSymbols(cart, [
      { name: 'MaxItems', kind: 'constant', exported: true, doc: 'MaxItems caps a cart.' },
      { name: 'Cart', kind: 'class', exported: true, signature: 'type Cart struct' },
      { name: 'Pricer', kind: 'interface', exported: true },
      {
        name: 'Add',
        kind: 'method',
        container: 'Cart',
        exported: true,
        signature: 'func (c *Cart) Add(item string) error',
      },
      { name: 'newCart', kind: 'function', exported: false },
    ]);
    checkImports(cart, { fmt: null, 'example.com/shop/pricing': 'pricing/round.go' });
    assert.equal(results.get('go.mod')?.manifest?.name, 'example.com/shop');
  });

  it('Rust: pub items, impl methods, trait members, use and mod resolution', async () => {
    const results = await scanFixture(fixtures.RUST);
    const lib = results.get('src/lib.rs');
    checkSymbols(lib, [
      { name: 'MAX_STOCK', kind: 'constant', exported: true, doc: 'Maximum stock per item.' },
      { name: 'Inventory', kind: 'class', exported: true, signature: 'pub struct Inventory' },
      { name: 'Level', kind: 'enum', exported: true },
      { name: 'Counter', kind: 'interface', exported: true },
      { name: 'count', kind: 'method', container: 'Counter', exported: true },
      {
        name: 'add',
        kind: 'method',
        container: 'Inventory',
        exported: true,
        signature: 'pub fn add(&mut self, name: &str, n: u32) -> u32',
        doc: 'Adds stock.',
      },
      { name: 'helper', kind: 'function', exported: false },
    ]);
    checkImports(lib, {
      'std::collections::HashMap': null,
      'crate::store::Store': 'src/store.rs',
      'mod:store': 'src/store.rs',
    });
    assert.deepEqual(results.get('Cargo.toml')?.manifest?.data.dependencies, { serde: '1.0', anyhow: '1' });
  });

  it('Java: public types and members, static final constants, imports by package path', async () => {
    const results = await scanFixture(fixtures.JAVA);
    const orders = results.get('src/main/java/com/acme/Orders.java');
    checkSymbols(orders, [
      { name: 'Orders', kind: 'class', exported: true, doc: 'Order operations.' },
      { name: 'LIMIT', kind: 'constant', exported: true },
      {
        name: 'findOpen',
        kind: 'method',
        container: 'Orders',
        exported: true,
        signature: 'public List<Order> findOpen(String customer)',
      },
      { name: 'audit', container: 'Orders', kind: 'method', exported: false },
      { name: 'Auditor', kind: 'interface', exported: false },
    ]);
    checkImports(orders, {
      'java.util.List': null,
      'com.acme.model.Order': 'src/main/java/com/acme/model/Order.java',
    });
  });

  it('C#: namespaces, public members, XML doc summaries', async () => {
    const results = await scanFixture(fixtures.CSHARP);
    checkSymbols(results.get('Billing/Invoice.cs'), [
      { name: 'InvoiceService', kind: 'class', exported: true, doc: 'Creates invoices.' },
      { name: 'MaxLines', kind: 'constant', exported: true },
      {
        name: 'Total',
        container: 'InvoiceService',
        kind: 'method',
        exported: true,
        doc: 'Totals an invoice.',
      },
      { name: 'Log', kind: 'method', exported: false },
      { name: 'Total', container: 'IInvoiceService', kind: 'method', exported: true },
      { name: 'Currency', kind: 'enum', exported: true },
    ]);
    checkImports(results.get('Billing/Invoice.cs'), { System: null, 'Acme.Billing.Models': null });
  });

  it('C and C++: structs, classes, prototypes, static functions, quoted and system includes', async () => {
    const results = await scanFixture(fixtures.CPP);
    checkSymbols(results.get('include/geometry.h'), [
      { name: 'Point', kind: 'class', exported: true, doc: 'A point in the plane.' },
      { name: 'distance', kind: 'function', exported: true },
    ]);
    checkImports(results.get('include/geometry.h'), { '<vector>': null, 'units.h': 'include/units.h' });
    checkSymbols(results.get('src/geometry.cpp'), [
      { name: 'Shape', kind: 'class', exported: true, doc: 'Shapes with an area.' },
      { name: 'area', container: 'Shape', kind: 'method', exported: true },
      { name: 'distance', kind: 'function', exported: true, doc: 'Euclidean distance.' },
    ]);
    checkImports(results.get('src/geometry.cpp'), { '../include/geometry.h': 'include/geometry.h' });
    checkSymbols(results.get('src/main.c'), [
      { name: 'Job', kind: 'type', exported: true },
      { name: 'run_job', kind: 'function', exported: false, doc: 'Runs one job.' },
      { name: 'main', kind: 'function', exported: true, signature: 'int main(void)' },
    ]);
    checkImports(results.get('src/main.c'), { '../include/units.h': 'include/units.h' });
  });

  it('Ruby: modules, classes, methods, constants, require and require_relative', async () => {
    const results = await scanFixture(fixtures.RUBY);
    const greeter = results.get('lib/greeter.rb');
    checkSymbols(greeter, [
      { name: 'Greeting', kind: 'module', exported: true, doc: 'Greets people.' },
      { name: 'Greeter', kind: 'class', exported: true, container: 'Greeting' },
      { name: 'DEFAULT', kind: 'constant', exported: true },
      {
        name: 'greet',
        container: 'Greeter',
        kind: 'method',
        exported: true,
        signature: 'def greet(punctuation = "!")',
        doc: 'The greeting text.',
      },
    ]);
    checkImports(greeter, { json: null, 'relative:formatter': 'lib/formatter.rb' });
  });

  it('PHP: classes, interfaces, methods by visibility, functions, use and require', async () => {
    const results = await scanFixture(fixtures.PHP);
    const mailer = results.get('src/Mailer.php');
    checkSymbols(mailer, [
      { name: 'Mailer', kind: 'class', exported: true, doc: 'Sends mail.' },
      { name: 'RETRIES', kind: 'constant', exported: true },
      {
        name: 'send',
        container: 'Mailer',
        kind: 'method',
        exported: true,
        signature: 'public function send(string $to, string $body): bool',
      },
      { name: 'log', kind: 'method', exported: false },
      { name: 'Sender', kind: 'interface', exported: true },
      { name: 'make_mailer', kind: 'function', exported: true },
    ]);
    checkImports(mailer, { "__DIR__ . '/helpers.php'": 'src/helpers.php', 'App\\Mail\\Transport': null });
  });

  it('Bash: functions, settings, sourced files', async () => {
    const results = await scanFixture(fixtures.BASH);
    const deploy = results.get('scripts/deploy.sh');
    checkSymbols(deploy, [
      { name: 'REGION', kind: 'constant', exported: true },
      { name: 'build_image', kind: 'function', exported: true, doc: 'Builds the image.' },
      { name: 'deploy', kind: 'function', exported: true },
    ]);
    checkImports(deploy, { './lib.sh': 'scripts/lib.sh' });
  });

  it('a file with syntax errors still yields the declarations that parse', async () => {
    const results = await scanFixture({
      'src/broken.ts': [
        'export function good(a: number): number {',
        '  return a;',
        '}',
        '',
        'const oops = ;',
        'let = = 3 %%% ;',
        '',
        'export class Survivor {',
        '  run(): void {}',
        '}',
        '',
      ].join('\n'),
    });
    const broken = results.get('src/broken.ts');
    assert.equal(broken?.hasErrors, true);
    const names = broken?.symbols.map((s) => s.name) ?? [];
    assert.ok(names.includes('good'), `good among ${names.join(', ')}`);
    assert.ok(names.includes('Survivor'), `Survivor among ${names.join(', ')}`);
  });

  it('a language without a grammar gets a file-level record only', async () => {
    const results = await scanFixture({
      'docs/notes.md': '# Notes\n\nSome text.\n',
      'App.kt': 'fun main() {}\n',
    });
    const notes = results.get('docs/notes.md');
    assert.equal(notes?.language, 'markdown');
    assert.equal(notes?.parsed, false);
    assert.equal(notes?.lines, 3);
    assert.deepEqual(notes?.symbols, []);
    assert.equal(results.get('App.kt')?.language, 'kotlin');
  });
});
