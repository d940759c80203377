// @vitest-environment node
/**
 * The dependency rules of the layout (docs/ARCHITECTURE.md), read from the import statements of the files
 * themselves — static imports and re-exports (type-only ones too) and dynamic `import()`:
 *
 *  - views (src/views/**) never import src/api: they render a machine's snapshot and send it events;
 *  - machines (src/machines/**) never import React, React DOM, @xstate/react, i18next, react-i18next,
 *    wouter or Mantine: they run (and are tested, drawn and walked) without a page;
 *  - server/lib never imports server/routes (nor server/app, which imports the routes): rules and SQL do
 *    not depend on how they are served;
 *  - the client (src/**) never imports the reference server (server/**).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The module specifiers a TypeScript file imports. */
export function importsOf(source: string): string[] {
  // Comments go first (whole-line `//` comments and `/* … */` blocks), so commented-out imports do not count.
  const code = source
    .replace(/\/\*[\s\S]*?\*\//g, (block) => block.replace(/[^\n]/g, ' '))
    .split('\n')
    .map((line) => (/^\s*\/\//.test(line) ? '' : line))
    .join('\n');
  const found: string[] = [];
  const patterns = [
    // import x from '…', import { a, b } from '…' (over several lines), import type …, export … from '…'
    /^\s*(?:import|export)\s[^;'"`]*?\bfrom\s*(['"])([^'"\n]+)\1/gm,
    // import '…' (for its effects)
    /^\s*import\s*(['"])([^'"\n]+)\1/gm,
    // import('…')
    /\bimport\s*\(\s*(['"`])([^'"`\n]+)\1\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) found.push(m[2]);
  return found;
}

function sourceFiles(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  return readdirSync(abs).flatMap((name) => {
    const file = path.join(abs, name);
    if (statSync(file).isDirectory()) return sourceFiles(path.join(dir, name));
    return /\.(ts|tsx|mts|cts)$/.test(name) && !name.endsWith('.d.ts') ? [file] : [];
  });
}

/** `a/b` (relative to the root) when a relative specifier of `file` points there or below; package name otherwise. */
function target(file: string, spec: string): { kind: 'file'; path: string } | { kind: 'package'; name: string } {
  if (spec.startsWith('.') || spec.startsWith('/')) return { kind: 'file', path: path.relative(ROOT, path.resolve(path.dirname(file), spec)).split(path.sep).join('/') };
  const parts = spec.split('/');
  return { kind: 'package', name: spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0] };
}

const under = (p: string, dir: string) => p === dir || p.startsWith(`${dir}/`);

interface Rule {
  name: string;
  files: string;
  forbidden: (t: ReturnType<typeof target>) => boolean;
}

const UI_PACKAGES = ['react', 'react-dom', '@xstate/react', 'i18next', 'react-i18next', 'wouter'];

const RULES: Rule[] = [
  { name: 'views never import src/api', files: 'src/views', forbidden: (t) => t.kind === 'file' && under(t.path, 'src/api') },
  {
    name: 'machines never import React, i18next, wouter or Mantine',
    files: 'src/machines',
    forbidden: (t) => t.kind === 'package' && (UI_PACKAGES.includes(t.name) || t.name.startsWith('@mantine/')),
  },
  {
    name: 'server/lib never imports server/routes or server/app',
    files: 'server/lib',
    forbidden: (t) => t.kind === 'file' && (under(t.path, 'server/routes') || t.path === 'server/app' || t.path === 'server/app.ts'),
  },
  { name: 'the client never imports the server', files: 'src', forbidden: (t) => t.kind === 'file' && under(t.path, 'server') },
];

function violations(rule: Rule): string[] {
  return sourceFiles(rule.files).flatMap((file) =>
    importsOf(readFileSync(file, 'utf8'))
      .filter((spec) => rule.forbidden(target(file, spec)))
      .map((spec) => `${path.relative(ROOT, file)} imports ${spec}`),
  );
}

describe('reading imports', () => {
  it('finds static, type-only, re-exported, side-effect and dynamic imports, over several lines, and skips comments', () => {
    const source = [
      `import React from 'react';`,
      `import {`,
      `  a,`,
      `  type B,`,
      `} from "../api/client";`,
      `import type { C } from '@mantine/core';`,
      `import './styles.css';`,
      `export { d } from '../lib/d';`,
      `export * from './e';`,
      `export type { F } from '@xstate/react';`,
      `const page = lazy(() => import('./page.view'));`,
      `const later = () => import(\`wouter\`);`,
      `// import { gone } from 'i18next';`,
      `/* import { gone } from 'react-i18next'; */`,
      `/**`,
      ` * import x from 'react-dom';`,
      ` */`,
      `export const from = 'not an import';`,
      `const url = 'http://example.com/from';`,
    ].join('\n');
    expect(importsOf(source).sort()).toEqual(
      ['react', '../api/client', '@mantine/core', './styles.css', '../lib/d', './e', '@xstate/react', './page.view', 'wouter'].sort(),
    );
  });

  it('resolves relative imports against the importing file and names packages by their name', () => {
    expect(target(path.join(ROOT, 'src/views/home/a.view.tsx'), '../../api/home')).toEqual({ kind: 'file', path: 'src/api/home' });
    expect(target(path.join(ROOT, 'server/lib/x.ts'), '../routes/wallet.routes')).toEqual({ kind: 'file', path: 'server/routes/wallet.routes' });
    expect(target(path.join(ROOT, 'src/machines/a.machine.ts'), 'react-dom/client')).toEqual({ kind: 'package', name: 'react-dom' });
    expect(target(path.join(ROOT, 'src/machines/a.machine.ts'), '@mantine/core')).toEqual({ kind: 'package', name: '@mantine/core' });
    expect(RULES[1].forbidden(target(path.join(ROOT, 'src/machines/a.machine.ts'), '@mantine/hooks'))).toBe(true);
    expect(RULES[1].forbidden(target(path.join(ROOT, 'src/machines/a.machine.ts'), 'xstate'))).toBe(false);
    expect(RULES[0].forbidden(target(path.join(ROOT, 'src/views/a.view.tsx'), '../apis/x'))).toBe(false);
  });
});

describe('dependency rules', () => {
  it('every rule looks at files that exist', () => {
    for (const rule of RULES) expect(sourceFiles(rule.files).length, rule.files).toBeGreaterThan(0);
  });

  for (const rule of RULES) {
    it(rule.name, () => {
      expect(violations(rule)).toEqual([]);
    });
  }
});
