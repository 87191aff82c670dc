/**
 * The product's imports point down (docs/architecture.md, "Map"): no module imports itself back through others, no
 * folder imports one that imports it (the one exception: workflows import their activities' types, and activities
 * import the workflows' messages and types), and the layer rules a cycle alone would not catch. Read from the source
 * of src, activities and workflows, type-only imports included; nothing here is kept by hand but the rules.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ts from 'typescript';

const ROOT = path.join(__dirname, '..');
const TREES = ['src', 'activities', 'workflows'];

interface Import {
  from: string;
  to: string;
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [file] : [];
  });
}

/** A relative specifier as the file it names (without extension, or a folder's index), or undefined for a package. */
function resolve(from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.join(path.posix.dirname(from), specifier.replace(/\.js$/, ''));
  return [`${base}.ts`, `${base}/index.ts`].find((file) => existsSync(path.join(ROOT, file)));
}

function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) return node.isTypeOnly;
  const clause = node.importClause;
  if (!clause) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return (
    !clause.name &&
    !!bindings &&
    ts.isNamedImports(bindings) &&
    bindings.elements.length > 0 &&
    bindings.elements.every((element) => element.isTypeOnly)
  );
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(
    file,
    readFileSync(path.join(ROOT, file), 'utf8'),
    ts.ScriptTarget.Latest,
  );
  const found: Import[] = [];
  const add = (specifier: ts.Node | undefined, typeOnly: boolean) => {
    if (!specifier || !ts.isStringLiteralLike(specifier)) return;
    const to = resolve(file, specifier.text);
    if (to) found.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node))
      add(node.moduleSpecifier, isTypeOnly(node));
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(node.argument.literal, true);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0], false);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The strongly connected parts of a graph with more than one member: each is a cycle (Tarjan's algorithm). */
function cycles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const part: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      part.push(member);
    } while (member !== node);
    if (part.length > 1) found.push(part.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return found;
}

function graph(imports: readonly Import[], node: (file: string) => string): Map<string, Set<string>> {
  const edges = new Map<string, Set<string>>();
  for (const { from, to } of imports) {
    const [a, b] = [node(from), node(to)];
    if (a === b) continue;
    if (!edges.has(a)) edges.set(a, new Set());
    edges.get(a)!.add(b);
  }
  return edges;
}

/** The layer a file belongs to: a folder of src (or a file directly in it), activities, or workflows. */
function layer(file: string): string {
  const [tree, part] = file.split('/');
  return tree === 'src' ? `src/${part!.replace(/\.ts$/, '')}` : tree!;
}

/** Imports that would point up, though no cycle shows it yet: [from, to, why]. */
const FORBIDDEN: Array<[string, string, string]> = [
  ['src/validation', 'src/client', 'the identifier rules sit under every client of them'],
  [
    'src/operator',
    'src/observability',
    'health and metrics observe the operator; the spans an operator call makes are src/http/spans.ts',
  ],
];

describe('the product imports', () => {
  const imports = TREES.flatMap(sourceFiles).flatMap(importsOf);

  test('are read from the source', () => {
    expect(imports.length).toBeGreaterThan(1000);
    expect(imports).toContainEqual({
      from: 'workflows/ramps/offramp/workflow.ts',
      to: 'workflows/ramps/offramp/rules.ts',
      typeOnly: false,
    });
    expect(imports.some(({ from, typeOnly }) => from.startsWith('workflows/') && typeOnly)).toBe(true);
  });

  test('form no cycle between modules, counting type-only imports', () => {
    expect(cycles(graph(imports, (file) => file))).toEqual([]);
  });

  test('form no cycle between layers but the workflows importing their activities as types', () => {
    const counted = imports.filter(
      ({ from, to, typeOnly }) => !(typeOnly && layer(from) === 'workflows' && layer(to) === 'activities'),
    );
    expect(cycles(graph(counted, layer))).toEqual([]);
  });

  test('never go from a lower layer up', () => {
    const upward = imports
      .filter(({ from, to }) =>
        FORBIDDEN.some(([lower, upper]) => layer(from) === lower && layer(to) === upper),
      )
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  test('from src/domain stay inside it', () => {
    const outside = imports
      .filter(({ from, to }) => layer(from) === 'src/domain' && layer(to) !== 'src/domain')
      .map(({ from, to }) => `${from} -> ${to}`);
    expect(outside).toEqual([]);
  });

  test('a cycle is seen where there is one', () => {
    const looped = graph(
      [
        { from: 'a', to: 'b', typeOnly: true },
        { from: 'b', to: 'c', typeOnly: false },
        { from: 'c', to: 'a', typeOnly: false },
        { from: 'c', to: 'd', typeOnly: false },
      ],
      (file) => file,
    );
    expect(cycles(looped)).toEqual([['a', 'b', 'c']]);
  });
});
