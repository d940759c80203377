// @vitest-environment node
/**
 * Every machine the app creates is drawn in docs/flows exactly once: as a page of its own (written
 * by hand) or as a row of its factory's page. The machines are found here independently of
 * scripts/flows.ts: by importing every module of src/machines and taking the exports that are
 * machines, and by reading the rest of src for factory calls.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { StateMachine, type AnyStateMachine } from 'xstate';
import { JSDOM } from 'jsdom';
import { generateFlowDocs, INDEX_FILE, SITE_INDEX } from '../../scripts/flows';
import { stampedMachines } from '../../src/machines/factory-registry';

const ROOT = path.resolve(import.meta.dirname, '../..');
const rel = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const walk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));

interface Exported {
  file: string;
  exportName: string;
  machine: AnyStateMachine;
}

/** Machines exported by the `*.machine.ts` modules (directly or as a value of an exported object). */
const exported: Exported[] = [];
const moduleOf = new Map<string, Record<string, unknown>>();
for (const file of walk(path.join(ROOT, 'src/machines')).filter((f) => f.endsWith('.machine.ts'))) {
  const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  moduleOf.set(file, mod);
  for (const [name, value] of Object.entries(mod)) {
    if (value instanceof StateMachine) exported.push({ file: rel(file), exportName: name, machine: value });
    else if (value && Object.getPrototypeOf(value) === Object.prototype) {
      for (const [key, inner] of Object.entries(value)) {
        if (inner instanceof StateMachine) exported.push({ file: rel(file), exportName: `${name}.${key}`, machine: inner });
      }
    }
  }
}

const docs = await generateFlowDocs();

/** Where each drawn machine appears: `file#export` → the documents and the machine id they give. */
const appearances = new Map<string, Array<{ doc: string; id: string }>>();
const appear = (key: string, doc: string, id: string) => appearances.set(key, [...(appearances.get(key) ?? []), { doc, id }]);
for (const [doc, content] of docs) {
  if (doc === INDEX_FILE || !doc.endsWith('.md')) continue;
  const own = /^# (.+)\n\nDrawn from `([^`]+)` \(export `([^`]+)`\)/.exec(content);
  if (own) appear(`${own[2]}#${own[3]}`, doc, own[1]);
  for (const row of content.matchAll(/^\| `([^`]+)` \| `([^`:]+):\d+` \| (?:`([^`]+)`|—) \|/gm)) appear(`${row[2]}#${row[3] ?? '(unbound)'}`, doc, row[1]);
}

/** The first stack frame of a factory call that lies outside the registry and the factory modules. */
function callSite(stack: string, factoryFiles: Set<string>): string {
  const frames = [...stack.matchAll(/\(?((?:file:\/\/)?\/[^():]+):(\d+):\d+\)?$/gm)].map((m) => ({ file: m[1].replace(/^file:\/\//, ''), line: m[2] }));
  const site = frames.find((f) => !f.file.endsWith('factory-registry.ts') && !factoryFiles.has(f.file));
  return site ? `${rel(site.file)}:${site.line}` : '(unknown)';
}

/** The module that took each stamp: the frame right below factoryStamp. */
function stampingFile(stack: string): string | undefined {
  const frames = [...stack.matchAll(/((?:file:\/\/)?\/[^():]+):\d+:\d+\)?$/gm)].map((m) => m[1].replace(/^file:\/\//, ''));
  return frames.find((f) => !f.endsWith('factory-registry.ts'));
}

describe('flow documents cover every machine', () => {
  it('finds the machines of src/machines', () => {
    expect(exported.length).toBeGreaterThan(20);
    expect(exported.map((e) => e.exportName)).toEqual(expect.arrayContaining(['sessionMachine', 'homeBinaryMachine', 'transactionsListMachine']));
  });

  it('draws every exported machine in exactly one document, under its own id', () => {
    const problems: string[] = [];
    for (const { file, exportName, machine } of exported) {
      const where = appearances.get(`${file}#${exportName}`) ?? [];
      if (where.length !== 1) problems.push(`${file} ${exportName}: drawn ${where.length} times (${where.map((w) => w.doc).join(', ')})`);
      else if (where[0].id !== machine.id) problems.push(`${file} ${exportName}: listed as ${where[0].id}, its id is ${machine.id}`);
    }
    expect(problems).toEqual([]);
  });

  it('lists nothing that the source does not declare', () => {
    const declared = new Set(exported.map((e) => `${e.file}#${e.exportName}`));
    const outside = [...appearances.keys()].filter((key) => !declared.has(key));
    // Rows outside the machine modules must be real factory calls in that file.
    for (const key of outside) {
      const [file] = key.split('#');
      expect(file.endsWith('.machine.ts'), `${key} is listed but not exported`).toBe(false);
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      expect(text, key).toMatch(/\bcreate\w*Machine\s*(<[^(]*>)?\s*\(/);
    }
  });

  it('lists every factory call made outside the machine modules, once per call', () => {
    const factories = [...new Set(stampedMachines().map((s) => s.stamp.factory))];
    expect(factories.length).toBeGreaterThan(0);
    const call = new RegExp(`^(?!\\s*(?:\\*|//|import\\b)).*?(?<!typeof\\s+|function\\s+)\\b(?:${factories.join('|')})\\s*(?:<[^()]*>)?\\s*\\(`, 'gm');
    const files = walk(path.join(ROOT, 'src')).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.machine.ts'));
    for (const file of files) {
      const calls = readFileSync(file, 'utf8').match(call)?.length ?? 0;
      const rows = [...appearances.entries()].filter(([key]) => key.startsWith(`${rel(file)}#`)).reduce((n, [, where]) => n + where.length, 0);
      expect(rows, `${rel(file)}: ${calls} factory calls`).toBe(calls);
    }
  });

  it('has every machine a factory made while the machine modules loaded exported, so it is drawn', () => {
    const drawn = new Set(exported.map((e) => e.machine.root.meta as unknown));
    const records = stampedMachines();
    const factoryFiles = new Set(records.map((r) => stampingFile(r.stack)).filter((f): f is string => !!f));
    // Machines the path models of tests/models make (loaded by the site for its path tests) are not the app's.
    const hidden = records
      .filter((r) => !drawn.has(r.stamp))
      .map((r) => `${r.stamp.factory} called at ${callSite(r.stack, factoryFiles)}`)
      .filter((where) => !/ called at tests\//.test(where));
    expect(hidden).toEqual([]);
  });

  it('names each factory diagram after a factory function exported by the module that stamps its machines', () => {
    for (const { stamp, stack } of stampedMachines()) {
      const file = stampingFile(stack);
      expect(file, stamp.factory).toBeDefined();
      const mod = moduleOf.get(file!) ?? {};
      expect(typeof mod[stamp.factory], `${stamp.factory} exported by ${rel(file!)}`).toBe('function');
      expect(docs.has(`${stamp.factory}.md`)).toBe(true);
    }
  });

  it('has no machine written outside a `*.machine.ts` module, where it would not be drawn', () => {
    const files = walk(path.join(ROOT, 'src')).filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.machine.ts'));
    const offenders = files.filter((f) => /^(?!\s*(?:\*|\/\/)).*\bcreateMachine\s*\(/m.test(readFileSync(f, 'utf8'))).map(rel);
    expect(offenders).toEqual([]);
  });

  it('lists every exported machine on the site index, linked to a page that shows it', () => {
    const index = new JSDOM(docs.get(SITE_INDEX)!).window.document;
    const rows = [...index.querySelectorAll('tr[data-machine]')].map((tr) => ({
      id: tr.getAttribute('data-machine')!,
      href: tr.querySelector('a')!.getAttribute('href')!,
      file: tr.querySelector('code')!.textContent!,
    }));
    const problems: string[] = [];
    for (const { file, exportName, machine } of exported) {
      const row = rows.find((r) => r.id === machine.id && (r.file === file || r.file.startsWith(`${file}:`)));
      if (!row) {
        problems.push(`${file} ${exportName}: ${machine.id} is not on the index`);
        continue;
      }
      const [page, anchor] = row.href.split('#');
      const html = docs.get(page);
      if (!html) problems.push(`${machine.id}: links to ${page}, which is not generated`);
      else if (!html.includes(`<h1>${machine.id}</h1>`) && !html.includes(`<code>${machine.id}</code>`)) problems.push(`${machine.id}: ${page} does not show it`);
      else if (anchor && !html.includes(`id="${anchor}"`)) problems.push(`${machine.id}: ${page} has no #${anchor}`);
    }
    expect(problems).toEqual([]);
  });

  it('draws no diagram twice', () => {
    const seen = new Map<string, string>();
    for (const [doc, content] of docs) {
      for (const [diagram] of content.matchAll(/```mermaid\n[\s\S]*?```/g)) {
        expect(seen.get(diagram), `${doc} repeats the diagram of ${seen.get(diagram)}`).toBeUndefined();
        seen.set(diagram, doc);
      }
    }
  });
});
