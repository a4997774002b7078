import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Every module of src/ with the modules it imports by relative path (barrel index files left out). */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const files = readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join(root, 'src', name));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets = [...text.matchAll(/(?:import|export)[^'"]*?from\s+'(\.[^']+)'/g)]
      .map((match) => resolve(dirname(file), match[1] ?? ''))
      .filter((target) => !target.endsWith('/index.ts'));
    graph.set(file, targets);
  }
  return graph;
}

/** The strongly connected components of more than one module (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    for (const target of graph.get(node) ?? []) {
      if (!graph.has(target)) continue;
      if (!index.has(target)) visit(target);
      if (stack.includes(target)) low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    for (let member = stack.pop(); member !== undefined; member = stack.pop()) {
      component.push(relative(root, member));
      if (member === node) break;
    }
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('src/ modules', () => {
  it('import one another without circles (barrel index files aside)', () => {
    const graph = importGraph();
    expect(graph.size).toBeGreaterThan(200);
    expect(circles(graph)).toEqual([]);
  });
});
