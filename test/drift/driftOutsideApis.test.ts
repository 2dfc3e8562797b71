import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { exampleMembers } from '../../engine/drift/exampleMembers';
import { BEFORE_CHANGE as WRITTEN, memoryIn, rememberAt, scannedAfterChange } from './driftHost';

const pkg = `${JSON.stringify({ name: 'theorm', main: 'index.ts' }, null, 2)}\n`;

/*
 * typeorm's docs, read as a user would on their own repository: a migration guide quotes another
 * ORM's API (`Sequelize.STRING`), and the column options document a transformer with placeholder
 * types the reader fills in. Neither was ever the project's code, so no commit can have broken it.
 */
describe('drift: names and lists the code never had are not drift', () => {
  it('`Sequelize.STRING` from another ORM, the word STRING gone from the code since: unverifiable', async () => {
    const { test } = await scannedAfterChange(
      {
        'package.json': pkg,
        'index.ts': "export const ColumnTypes = { STRING: 'varchar' };\nexport class Repository {}\n",
      },
      'Drop the column type map',
      { write: { 'index.ts': 'export class Repository {}\n' } },
    );
    const id = await rememberAt(
      test,
      'In Sequelize:\n```javascript\nsomeUnique: { type: Sequelize.STRING, unique: true },\n```',
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'Sequelize.STRING');
    assert.equal(claim?.verdict ?? 'unverifiable', 'unverifiable', JSON.stringify(claim));
    assert.notEqual(memoryIn(report, id).status, 'stale');
  });

  it("a class of the project's removed since (`ColumnTypes.STRING`): still stale", async () => {
    const { test, changing } = await scannedAfterChange(
      {
        'package.json': pkg,
        'index.ts': "export class ColumnTypes {\n  static STRING = 'varchar';\n}\n",
      },
      'Drop the column type class',
      { write: { 'index.ts': 'export class Repository {}\n' } },
    );
    const id = await rememberAt(test, 'Use `ColumnTypes.STRING` for text columns.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'ColumnTypes.STRING');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, changing);
  });

  it('a method list with placeholder types the code never declared: not a changed signature', async () => {
    const transformer = [
      'export interface ValueTransformer {',
      '  to(value: any): any;',
      '  from(value: any): any;',
      '}',
      '',
    ].join('\n');
    const { test } = await scannedAfterChange(
      { 'package.json': pkg, 'index.ts': transformer },
      'Document the transformer',
      { write: { 'index.ts': `/** Converts column values. */\n${transformer}` } },
    );
    const id = await rememberAt(
      test,
      '- `transformer: { from(value: DatabaseType): EntityType, to(value: EntityType): DatabaseType }` - converts values.',
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const stale = memoryIn(report, id).claims.filter((c) => c.verdict === 'stale' && !c.evidence.doubtful);
    assert.deepEqual(stale, []);
  });

  it('a stated list the code declared then and changed since: still a changed signature', async () => {
    const { test, changing } = await scannedAfterChange(
      { 'package.json': pkg, 'index.ts': 'export function connect(url: string): void {}\n' },
      'Connect with options',
      { write: { 'index.ts': 'export function connect(options: ConnectOptions): void {}\n' } },
    );
    const id = await rememberAt(test, 'Call `connect(url: string)` once at start-up.', WRITTEN);
    const report = await test.call('drift', { all: true });
    const claim = memoryIn(report, id).claims.find((c) => c.subject === 'connect');
    assert.equal(claim?.verdict, 'stale', JSON.stringify(claim));
    assert.equal(claim?.evidence.commit?.hash, changing);
  });

  it("a member of the example's own entity class read in a callback (`category => category.parent`): no claim", async () => {
    const { test } = await scannedAfterChange(
      {
        'package.json': pkg,
        'index.ts': 'export function OneToMany(type: unknown, inverse: unknown) {}\n',
        'sample/category.ts': 'export class Category {\n  parent: Category;\n}\n',
      },
      'Remove the samples',
      {
        remove: ['sample/category.ts'],
        write: {
          'index.ts': '// a parent row\nexport function OneToMany(type: unknown, inverse: unknown) {}\n',
        },
      },
    );
    const id = await rememberAt(
      test,
      [
        'Self-referencing relations:',
        '```typescript',
        'import { OneToMany } from "theorm";',
        'export class Category {',
        '  @ManyToOne((type) => Category, (category) => category.children)',
        '  parent: Category;',
        '  @OneToMany((type) => Category, (category) => category.parent)',
        '  children: Category[];',
        '}',
        '```',
      ].join('\n'),
      WRITTEN,
    );
    const report = await test.call('drift', { all: true });
    const members = memoryIn(report, id).claims.filter((c) => c.subject.startsWith('category.'));
    assert.deepEqual(members, []);
  });
});

describe('exampleMembers', () => {
  it("reads the members an example's classes and interfaces declare, not their bodies' statements", () => {
    const code = [
      'export class UserRepository extends Repository<User> {',
      '  @Column({ nullable: true })',
      '  private readonly nickname?: string;',
      '  findByName(firstName: string, lastName: string) {',
      '    const found = this.findOne({ firstName, lastName });',
      '    return found;',
      '  }',
      '}',
      'interface Options {',
      '  retries: number',
      '}',
      'const total = repo.count();',
    ].join('\n');
    assert.deepEqual([...exampleMembers(code)].sort(), ['findByName', 'nickname', 'retries']);
  });
});
