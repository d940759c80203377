/**
 * `npm run flows`: draws the machines of src/machines in docs/flows — a Mermaid stateDiagram-v2
 * (nested states, initial and final markers, transitions labelled `event [guard]`, invoke
 * done/error and `after` delays) and tables of the states and of every transition — and writes
 * docs/flows/README.md, the index of every diagram.
 *
 * - A machine written by hand gets its own document, `<machine id>.md`.
 * - Machines made by a factory (`createLoadMachine`, `createPagedListMachine`, ...) share one
 *   document named after the factory, `<factory>.md`: one diagram, and the list of the machines it
 *   made — each with the file that declares it, what it calls (the API call and its endpoint), its
 *   input (type arguments, parameters of its loader) and what it provides on top. A factory whose
 *   machines come out in more than one shape (optional steps) gets one diagram per shape, on the
 *   same page. Factories are recognised by the stamp they put on their machines
 *   (src/machines/factory-registry.ts), so no list of factories or machines is kept here.
 *
 * Machines are found by importing every `*.machine.ts` under src/machines and taking its exports
 * that are machines (or plain objects holding machines). Factory calls anywhere else in src are
 * found in the source text and listed too. The output is deterministic;
 * tests/models/flows-fresh.test.ts fails when docs/flows is stale and
 * tests/models/flows-coverage.test.ts when a machine is missing from it.
 *
 * The same run writes the flow site (index.html, a page per machine or factory, machines.json; see
 * scripts/flow-site.ts), with the generated path tests of tests/models per transition.
 * `npm run flows -- --since <git ref>` also compares that ref's committed machines.json with the
 * current machines and writes docs/flows/changes.html.
 *
 * Mermaid cannot draw a transition between states inside two different composite states, so such
 * a transition is drawn between the outermost states that contain its source and target (the
 * tables list the exact source and target).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';
import { factoryOf } from '../src/machines/factory-registry';
import { recordedPathModels, type RecordedPathModel } from '../tests/support/path-registry';
import {
  areaOf,
  coverageGaps,
  coverageOf,
  diffMachines,
  excusedTransitions,
  machineJson,
  renderChangesPage,
  renderFactorySitePage,
  renderMachinePage,
  renderSiteIndex,
  shapeSignature,
  summarizeChanges,
  walkedPaths,
  type Coverage,
  type CoverageGaps,
  type IndexEntry,
  type MachineJson,
  type PathTest,
  type SiteSubject,
  type Transition,
} from './flow-site';

type AnyStateNode = AnyStateMachine['root'];

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const SRC_DIR = path.join(ROOT, 'src');
export const MACHINES_DIR = path.join(SRC_DIR, 'machines');
export const FLOWS_DIR = path.join(ROOT, 'docs/flows');
export const INDEX_FILE = 'README.md';
export const MODELS_DIR = path.join(ROOT, 'tests/models');

export interface FoundMachine {
  /** Repository-relative path of the module that exports it, e.g. `src/machines/home.machine.ts`. */
  file: string;
  /** The export, or `export.key` for a machine held by an exported object. */
  exportName: string;
  machine: AnyStateMachine;
  /** The factory that made it (its stamp), undefined for a machine written by hand. */
  factory?: string;
}

export function isStateMachine(value: unknown): value is AnyStateMachine {
  return (
    !!value &&
    typeof value === 'object' &&
    'root' in value &&
    'config' in value &&
    typeof (value as { getInitialSnapshot?: unknown }).getInitialSnapshot === 'function' &&
    typeof (value as { provide?: unknown }).provide === 'function'
  );
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  !!value && typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype;

/** Repository-relative, `/`-separated. */
export const repoPath = (file: string): string => path.relative(ROOT, file).split(path.sep).join('/');

/** Every file under `dir`, sorted, as absolute paths. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(dir, entry.name)) : [path.join(dir, entry.name)]));
}

export const isMachineModule = (file: string): boolean => file.endsWith('.machine.ts');

/** Every machine exported by the `*.machine.ts` files under `dir`, in file and export order. */
export async function findMachines(dir = MACHINES_DIR): Promise<FoundMachine[]> {
  const found: FoundMachine[] = [];
  const seen = new Set<unknown>();
  const take = (file: string, exportName: string, value: unknown) => {
    if (!isStateMachine(value) || seen.has(value)) return;
    seen.add(value);
    found.push({ file: repoPath(file), exportName, machine: value, factory: factoryOf(value) });
  };
  for (const file of filesUnder(dir).filter(isMachineModule)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const exportName of Object.keys(mod).sort()) {
      const value = mod[exportName];
      if (isPlainObject(value)) for (const key of Object.keys(value).sort()) take(file, `${exportName}.${key}`, value[key]);
      else take(file, exportName, value);
    }
  }
  return found;
}

// ---------------------------------------------------------------------------------------------
// Labels

/** Unique per state (the path), prefixed so no id collides with a Mermaid keyword. */
function mermaidId(node: AnyStateNode): string {
  return `s_${node.path.join('_').replace(/[^A-Za-z0-9_]/g, '_')}`;
}

function stateName(node: AnyStateNode): string {
  return node.path.length ? node.path.join('.') : '(machine)';
}

export function eventLabel(eventType: string): string {
  if (eventType === '') return 'always';
  let m = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (m) return `done: ${m[1]}`;
  m = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (m) return `error: ${m[1]}`;
  m = /^xstate\.after\.(.+?)\.[^.]+(\..+)?$/.exec(eventType);
  if (m) return `after ${/^\d+$/.test(m[1]) ? `${m[1]}ms` : m[1]}`;
  m = /^xstate\.done\.state\.(.+)$/.exec(eventType);
  if (m) return `done: state ${m[1]}`;
  return eventType;
}

function paramsLabel(params: unknown): string {
  if (params === undefined) return '';
  if (typeof params === 'function') return '(…)';
  if (params && typeof params === 'object') {
    const values = Object.values(params as Record<string, unknown>).map((v) => (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : '…'));
    return `(${values.join(', ')})`;
  }
  return `(${String(params)})`;
}

export function guardLabel(guard: unknown): string {
  if (guard === undefined || guard === null) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const g = guard as { name?: string; guards?: unknown[] };
    if (Array.isArray(g.guards)) return `${g.name || 'guard'}(${g.guards.map(guardLabel).join(', ')})`;
    return g.name && g.name !== 'guard' ? g.name : 'inline';
  }
  if (typeof guard === 'object') {
    const g = guard as { type?: string; params?: unknown };
    return `${g.type ?? 'guard'}${paramsLabel(g.params)}`;
  }
  return String(guard);
}

const BUILTIN_ACTION = /^xstate\./;

export function actionLabel(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const a = action as { type?: string; name?: string };
    if (a.type) return BUILTIN_ACTION.test(a.type) ? a.type.replace(BUILTIN_ACTION, '') : a.type;
    return a.name || 'inline';
  }
  if (action && typeof action === 'object') {
    const a = action as { type?: string };
    return a.type ?? 'inline';
  }
  return String(action);
}

function clean(text: string): string {
  // Characters with a meaning in Mermaid labels or Markdown tables.
  return text.replace(/[#;{}"]/g, '').replace(/\|/g, '/').replace(/\s+/g, ' ').trim();
}

function transitionsOf(node: AnyStateNode): Transition[] {
  const out: Transition[] = [];
  for (const [, list] of node.transitions as Map<string, Transition[]>) out.push(...list);
  out.push(...((node.always as Transition[] | undefined) ?? []));
  return out;
}

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => allNodes(child as AnyStateNode))];
}

function ancestorsOf(node: AnyStateNode): AnyStateNode[] {
  const out: AnyStateNode[] = [];
  for (let n: AnyStateNode | undefined = node; n; n = n.parent) out.unshift(n);
  return out;
}

/** The child of the deepest common ancestor that contains each end (an end itself if it is that child). */
function liftedEnds(a: AnyStateNode, b: AnyStateNode): { parent: AnyStateNode; from: AnyStateNode; to: AnyStateNode } | null {
  const pa = ancestorsOf(a);
  const pb = ancestorsOf(b);
  let i = 0;
  while (i < pa.length && i < pb.length && pa[i] === pb[i]) i++;
  if (i === pa.length || i === pb.length) return null; // one contains the other
  return { parent: pa[i - 1], from: pa[i], to: pb[i] };
}

// ---------------------------------------------------------------------------------------------
// Rendering

function renderDiagram(machine: AnyStateMachine): string {
  const edgesByParent = new Map<AnyStateNode, string[]>();
  const addEdge = (parent: AnyStateNode, line: string) => {
    const list = edgesByParent.get(parent) ?? [];
    if (!list.includes(line)) list.push(line);
    edgesByParent.set(parent, list);
  };
  for (const node of allNodes(machine.root)) {
    for (const t of transitionsOf(node)) {
      const guard = guardLabel(t.guard);
      const label = clean(`${eventLabel(t.eventType)}${guard ? ` [${guard}]` : ''}`);
      for (const target of t.target ?? []) {
        if (target === node) {
          if (node.parent) addEdge(node.parent, `${mermaidId(node)} --> ${mermaidId(node)} : ${label}`);
          continue;
        }
        const ends = liftedEnds(node, target);
        if (ends) {
          addEdge(ends.parent, `${mermaidId(ends.from)} --> ${mermaidId(ends.to)} : ${label}`);
        } else if (node.parent) {
          // Between a state and a state inside it: drawn on the outer one.
          const outer = ancestorsOf(node).length < ancestorsOf(target).length ? node : target;
          if (outer.parent) addEdge(outer.parent, `${mermaidId(outer)} --> ${mermaidId(outer)} : ${label}`);
        }
      }
    }
  }

  const lines: string[] = ['stateDiagram-v2'];
  if (!Object.keys(machine.root.states).length) {
    // A machine without states (a page that only holds its children and passes events on): one state that
    // names the children it runs, and the events it handles while it stays there.
    const invokes = (machine.root.invoke as Array<{ id: string }>).map((i) => i.id);
    lines.push(`  state "${invokes.length ? `runs ${clean(invokes.join(', '))}` : 'no states'}" as root`, '  [*] --> root');
    for (const t of transitionsOf(machine.root)) {
      const guard = guardLabel(t.guard);
      const line = `  root --> root : ${clean(`${eventLabel(t.eventType)}${guard ? ` [${guard}]` : ''}`)}`;
      if (!lines.includes(line)) lines.push(line);
    }
    return lines.join('\n');
  }
  const emit = (node: AnyStateNode, depth: number) => {
    const pad = '  '.repeat(depth);
    const children = Object.values(node.states) as AnyStateNode[];
    for (const child of children) {
      if (Object.keys(child.states).length) {
        lines.push(`${pad}state ${mermaidId(child)} {`);
        emit(child, depth + 1);
        lines.push(`${pad}}`);
      } else {
        lines.push(`${pad}state "${child.key}" as ${mermaidId(child)}`);
      }
    }
    const initial = (node.initial as unknown as { target?: readonly AnyStateNode[] } | undefined)?.target?.[0];
    if (initial) lines.push(`${pad}[*] --> ${mermaidId(initial)}`);
    for (const child of children) if (child.type === 'final') lines.push(`${pad}${mermaidId(child)} --> [*]`);
    for (const line of edgesByParent.get(node) ?? []) lines.push(`${pad}${line}`);
  };
  emit(machine.root, 1);
  return lines.join('\n');
}

function renderStatesTable(machine: AnyStateMachine): string {
  const rows = ['| State | Type | Tags | Invokes | Entry | Exit |', '|---|---|---|---|---|---|'];
  for (const node of allNodes(machine.root).slice(1)) {
    const invokes = (node.invoke as Array<{ id: string; src: string }>).map((i) => (i.id === i.src ? i.src : `${i.src} (id ${i.id})`));
    rows.push(
      `| ${clean(stateName(node))} | ${node.type} | ${clean(node.tags.join(', '))} | ${clean(invokes.join(', '))} | ${clean(
        (node.entry as unknown[]).map(actionLabel).join(', '),
      )} | ${clean((node.exit as unknown[]).map(actionLabel).join(', '))} |`,
    );
  }
  return rows.join('\n');
}

function renderTransitionsTable(machine: AnyStateMachine): string {
  const rows = ['| State | Event | Guard | Target | Actions |', '|---|---|---|---|---|'];
  for (const node of allNodes(machine.root)) {
    for (const t of transitionsOf(node)) {
      const target = t.target?.length ? t.target.map(stateName).join(', ') + (t.reenter ? ' (re-entered)' : '') : '(stays)';
      rows.push(
        `| ${clean(stateName(node))} | ${clean(eventLabel(t.eventType))} | ${clean(guardLabel(t.guard))} | ${clean(target)} | ${clean(
          t.actions.map(actionLabel).join(', '),
        )} |`,
      );
    }
  }
  return rows.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Source text: where a machine is declared, what it calls, what it takes

/** The source with comments and the text of string literals blanked (same length, same lines). */
export function maskCode(src: string): string {
  let out = '';
  let depth = 0;
  const templates: number[] = []; // brace depth at each open `${`
  let i = 0;
  let last = ''; // the last character of code before `i` that is not blank
  const blank = (s: string) => s.replace(/[^\n]/g, ' ');
  while (i < src.length) {
    const c = src[i];
    const n = src[i + 1];
    if (c === '/' && n !== '/' && n !== '*' && (last === '' || '(,=:[!&|?{};+-*%~^'.includes(last))) {
      // A regular expression literal: up to the `/` that ends it (not one inside a class).
      let j = i + 1;
      let inClass = false;
      while (j < src.length && src[j] !== '\n' && (inClass || src[j] !== '/')) {
        if (src[j] === '\\') j++;
        else if (src[j] === '[') inClass = true;
        else if (src[j] === ']') inClass = false;
        j++;
      }
      out += '/' + blank(src.slice(i + 1, j)) + (src[j] === '/' ? '/' : '');
      i = src[j] === '/' ? j + 1 : j;
      last = '/';
    } else if (c === '/' && (n === '/' || n === '*')) {
      const end = n === '/' ? src.indexOf('\n', i) : src.indexOf('*/', i + 2) + 2;
      const e = end < (n === '/' ? 0 : 2) ? src.length : end;
      out += blank(src.slice(i, e));
      i = e;
    } else if (c === "'" || c === '"') {
      let j = i + 1;
      while (j < src.length && src[j] !== c && src[j] !== '\n') j += src[j] === '\\' ? 2 : 1;
      out += c + blank(src.slice(i + 1, j)) + (src[j] === c ? c : '');
      i = src[j] === c ? j + 1 : j;
      last = c;
    } else if (c === '`' || (c === '}' && templates.at(-1) === depth)) {
      if (c === '}') templates.pop();
      let j = i + 1;
      while (j < src.length && src[j] !== '`' && !(src[j] === '$' && src[j + 1] === '{')) j += src[j] === '\\' ? 2 : 1;
      out += c + blank(src.slice(i + 1, j));
      if (src[j] === '`') {
        out += '`';
        i = j + 1;
        last = '`';
      } else {
        out += '${';
        templates.push(depth);
        i = j + 2;
      }
    } else {
      if (c === '{') depth++;
      else if (c === '}') depth--;
      if (!/\s/.test(c)) last = c;
      out += c;
      i++;
    }
  }
  return out;
}

const OPEN = '([{';
const CLOSE = ')]}';

/** Index just past the bracket that closes the one at `open` (in masked text). */
function closeOf(masked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < masked.length; i++) {
    if (OPEN.includes(masked[i])) depth++;
    else if (CLOSE.includes(masked[i]) && --depth === 0) return i + 1;
  }
  return masked.length;
}

/** Index just past the `>` that closes type arguments opened at `open`. */
function closeOfAngle(masked: string, open: number): number {
  let depth = 0;
  for (let i = open; i < masked.length; i++) {
    if (masked[i] === '<') depth++;
    else if (masked[i] === '>' && masked[i - 1] !== '=' && --depth === 0) return i + 1;
  }
  return masked.length;
}

/** Index just past the statement starting at `start`: its `;`, or the `}` closing a function body. */
function statementEnd(masked: string, start: number): number {
  const isFunction = /^(export\s+)?(async\s+)?function\b/.test(masked.slice(start, start + 40));
  let depth = 0;
  for (let i = start; i < masked.length; i++) {
    const c = masked[i];
    if (OPEN.includes(c)) depth++;
    else if (CLOSE.includes(c)) {
      depth--;
      if (isFunction && c === '}' && depth === 0) return i + 1;
    } else if (c === ';' && depth === 0) return i + 1;
  }
  return masked.length;
}

/** Top-level pieces of a bracketed list (`inner` excludes the brackets), as [start, end) pairs. */
function splitTopLevel(masked: string, from: number, to: number): Array<[number, number]> {
  const parts: Array<[number, number]> = [];
  let depth = 0;
  let start = from;
  for (let i = from; i < to; i++) {
    if (OPEN.includes(masked[i])) depth++;
    else if (CLOSE.includes(masked[i])) depth--;
    else if (masked[i] === ',' && depth === 0) {
      parts.push([start, i]);
      start = i + 1;
    }
  }
  if (masked.slice(start, to).trim()) parts.push([start, to]);
  return parts;
}

const oneLine = (text: string) =>
  text
    .replace(/\s+/g, ' ')
    .replace(/,\s*([)\]}>])/g, ' $1')
    .replace(/([([<]) /g, '$1')
    .replace(/ ([)\]>])/g, '$1')
    .trim();

interface SourceFile {
  file: string;
  text: string;
  masked: string;
  /** Imported name → absolute path of the module it comes from (relative imports only). */
  imports: Map<string, string>;
}

const sourceCache = new Map<string, SourceFile>();

function resolveModule(from: string, spec: string): string {
  const base = path.resolve(path.dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      readFileSync(candidate);
      return candidate;
    } catch {
      /* next */
    }
  }
  return base;
}

function source(file: string): SourceFile {
  const cached = sourceCache.get(file);
  if (cached) return cached;
  const text = readFileSync(file, 'utf8');
  const imports = new Map<string, string>();
  for (const m of text.matchAll(/^import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']*)'/gm)) {
    for (const part of m[1].split(',')) {
      const name = /(\w+)\s*$/.exec(part.replace(/^\s*type\s+/, '').trim())?.[1];
      if (name) imports.set(name, resolveModule(file, m[2]));
    }
  }
  const parsed = { file, text, masked: maskCode(text), imports };
  sourceCache.set(file, parsed);
  return parsed;
}

const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** The top-level declaration of `name` in a file (`const`/`let`/`function`, exported or not). */
function declarationOf(src: SourceFile, name: string): { start: number; end: number } | null {
  const m = new RegExp(`^(?:export\\s+)?(?:(?:async\\s+)?function\\s*\\*?|const|let)\\s+${name}\\b`, 'm').exec(src.masked);
  return m ? { start: m.index, end: statementEnd(src.masked, m.index) } : null;
}

/** A call's path named by a constant imported from another module (`get(schema, DASHBOARD_SUMMARY_PATH)`). */
function importedPath(src: SourceFile, text: string): string | undefined {
  const name = /\b(?:get|post|put|del|postMultipart|download|request)\s*(?:<[^(]*>)?\([^,()]*,\s*([A-Za-z_$][\w$]*)\s*[,)]/.exec(text)?.[1];
  const module = name ? src.imports.get(name) : undefined;
  if (!name || !module) return undefined;
  return new RegExp(`^export\\s+const\\s+${name}\\s*=\\s*(['\`])(\\/api\\/[^'\`]*)\\1`, 'm').exec(source(module).text)?.[2];
}

/** One endpoint of an API object method: `GET /api/home/dashboard`, from its definition in src/api. */
function endpointOf(apiFile: string, object: string, method: string): string | null {
  const src = source(apiFile);
  const decl = new RegExp(`^export\\s+const\\s+${object}\\s*=\\s*\\{`, 'm').exec(src.masked);
  if (!decl) return null;
  const open = decl.index + decl[0].length - 1;
  for (const [from, to] of splitTopLevel(src.masked, open + 1, closeOf(src.masked, open) - 1)) {
    if (/^\s*(?:async\s+)?(\w+)/.exec(src.masked.slice(from, to))?.[1] !== method) continue;
    const text = src.text.slice(from, to);
    const url = /(['`])(\/api\/[^'`]*)\1/.exec(text)?.[2] ?? importedPath(src, text);
    if (!url) return null;
    const helper = /\b(get|post|put|del|postMultipart|download|request)\s*(?:<[^(]*>)?\(/.exec(src.masked.slice(from, to))?.[1];
    const verb =
      helper === 'request'
        ? (/method:\s*'(\w+)'/.exec(text)?.[1] ?? 'GET')
        : ({ get: 'GET', post: 'POST', put: 'PUT', del: 'DELETE', postMultipart: 'POST', download: 'GET' } as Record<string, string>)[helper ?? 'get'];
    const pathText = url.replace(/\$\{([^}]*)\}/g, (_, expr: string) => `:${/(\w+)\W*$/.exec(expr)?.[1] ?? 'param'}`);
    return `${verb} ${pathText}${helper === 'download' ? ' (download)' : ''}`;
  }
  return null;
}

const API_DIR = path.join(SRC_DIR, 'api') + path.sep;

/**
 * The API calls a piece of code makes, following the functions of the same file it uses:
 * `GET /api/home/dashboard (homeApi.dashboard)`, in order of appearance.
 */
function callsIn(src: SourceFile, from: number, to: number, seen = new Set<string>()): string[] {
  const calls: string[] = [];
  const code = src.masked.slice(from, to);
  for (const m of code.matchAll(/\b([A-Za-z_$][\w$]*)(?:\s*\.\s*(\w+))?/g)) {
    const [, name, member] = m;
    if (seen.has(name)) continue;
    const module = src.imports.get(name);
    if (module?.startsWith(API_DIR)) {
      if (!member) continue; // helpers (errorInfo, nextPageOf...) are not calls
      const endpoint = endpointOf(module, name, member);
      const label = endpoint ? `${endpoint} (${name}.${member})` : `${name}.${member}`;
      if (!calls.includes(label)) calls.push(label);
    } else if (!module) {
      const decl = declarationOf(src, name);
      if (decl && (decl.end <= from || decl.start >= to)) {
        seen.add(name);
        for (const c of callsIn(src, decl.start, decl.end, seen)) if (!calls.includes(c)) calls.push(c);
      }
    }
  }
  return calls;
}

/** The parameters of a function-valued argument (or of the function a name refers to). */
function paramsOf(src: SourceFile, from: number, to: number): string | null {
  const code = src.masked.slice(from, to);
  const lead = code.length - code.trimStart().length;
  const at = from + lead;
  const rest = src.masked.slice(at, to);
  const fn = /^(?:async\s+)?(?:function\s*\w*\s*)?\(/.exec(rest);
  if (fn) {
    const open = at + fn[0].length - 1;
    return oneLine(src.text.slice(open + 1, closeOf(src.masked, open) - 1));
  }
  const single = /^(?:async\s+)?(\w+)\s*=>/.exec(rest);
  if (single) return single[1];
  const ref = /^(\w+)\s*$/.exec(rest);
  if (ref) {
    const decl = declarationOf(src, ref[1]);
    if (!decl) return null;
    const head = src.masked.slice(decl.start, decl.end);
    const open = head.indexOf('(');
    return open < 0 ? null : oneLine(src.text.slice(decl.start + open + 1, closeOf(src.masked, decl.start + open) - 1));
  }
  return null;
}

/** What sets one factory-made machine apart from the others: read from its declaration. */
export interface InstanceSource {
  /** Repository-relative file and 1-based line of the declaration. */
  file: string;
  line: number;
  /** The machine id when the source spells it: the first argument of the factory call, or the `id` of a config object given first. */
  idLiteral: string | null;
  calls: string[];
  /** Type arguments and loader parameters, e.g. `<Transaction, ListFilterState, ListMeta> ({ filters, next })`. */
  input: string;
  /** What `.provide(...)` adds on top, e.g. `actors: load`. */
  provides: string;
}

function describeStatement(src: SourceFile, start: number, end: number, factory: string | undefined): InstanceSource {
  const masked = src.masked;
  let idLiteral: string | null = null;
  const input: string[] = [];
  const call = factory ? new RegExp(`\\b${factory}\\s*(<)?`).exec(masked.slice(start, end)) : null;
  if (call) {
    let at = start + call.index + call[0].length;
    if (call[1]) {
      const close = closeOfAngle(masked, at - 1);
      input.push(oneLine(src.text.slice(at - 1, close)));
      at = close;
    }
    const open = masked.indexOf('(', at);
    if (open >= 0 && open < end) {
      const args = splitTopLevel(masked, open + 1, closeOf(masked, open) - 1);
      const first = args[0] ? src.text.slice(args[0][0], args[0][1]).trim() : '';
      // The id: the first argument, or the `id` of a config object given first.
      idLiteral = /^(['"`])([^'"`$]*)\1$/.exec(first)?.[2] ?? /^\{[\s\S]*?\bid\s*:\s*(['"`])([^'"`$]*)\1/.exec(first)?.[2] ?? null;
      for (const [from, to] of args.slice(1)) {
        const params = paramsOf(src, from, to);
        if (params) input.push(`(${params})`);
      }
    }
  }
  const provides: string[] = [];
  const provide = /\.provide\s*\(/.exec(masked.slice(start, end));
  if (provide) {
    const open = start + provide.index + provide[0].length - 1;
    const close = closeOf(masked, open);
    for (const m of masked.slice(open, close).matchAll(/\b(actors|actions|guards|delays)\s*:\s*\{/g)) {
      const inner = open + m.index + m[0].length - 1;
      const keys = splitTopLevel(masked, inner + 1, closeOf(masked, inner) - 1).map(([a, b]) => /^\s*(\w+)/.exec(masked.slice(a, b))?.[1] ?? '?');
      provides.push(`${m[1]}: ${keys.join(', ')}`);
    }
  }
  return {
    file: repoPath(src.file),
    line: lineAt(src.text, start),
    idLiteral,
    calls: callsIn(src, start, end, new Set(factory ? [factory] : [])),
    input: input.join(' ') || '—',
    provides: provides.join('; ') || '—',
  };
}

/** The declaration of an exported machine (`exportName` or `exportName.key`) in its module. */
export function instanceSource(found: FoundMachine): InstanceSource {
  const src = source(path.join(ROOT, found.file));
  const decl = declarationOf(src, found.exportName.split('.')[0]);
  if (!decl) return { file: found.file, line: 1, idLiteral: null, calls: [], input: '—', provides: '—' };
  return describeStatement(src, decl.start, decl.end, found.factory);
}

export interface SourceInstance extends InstanceSource {
  factory: string;
  /** The name it is bound to (`const name = ...`), or null. */
  exportName: string | null;
}

/**
 * Calls of the given factories in the source files of src that `findMachines` does not load
 * (everything but the `*.machine.ts` modules of src/machines): machines declared elsewhere.
 */
export function factoryCallsOutsideMachines(factories: readonly string[], srcDir = SRC_DIR): SourceInstance[] {
  const out: SourceInstance[] = [];
  if (!factories.length) return out;
  const files = filesUnder(srcDir).filter((f) => /\.tsx?$/.test(f) && !(f.startsWith(MACHINES_DIR + path.sep) && isMachineModule(f)));
  const pattern = new RegExp(`\\b(${factories.join('|')})\\b`, 'g');
  for (const file of files) {
    const src = source(file);
    for (const m of src.masked.matchAll(pattern)) {
      const before = src.masked.slice(0, m.index);
      if (/(?:\btypeof|\bfunction|\bimport|\btype)\s*(?:\{[^}]*)?$|\.\s*$/.test(before.slice(-400))) continue;
      const after = src.masked.slice(m.index + m[0].length);
      const afterTypeArgs = after.trimStart().startsWith('<') ? after.slice(closeOfAngle(after, after.indexOf('<'))) : after;
      if (!/^\s*\(/.test(afterTypeArgs)) continue;
      const lineStart = before.lastIndexOf('\n') + 1;
      const binding = /^\s*(?:export\s+)?(?:const|let)\s+(\w+)\b[^=]*=\s*$/.exec(before.slice(lineStart));
      const start = binding ? lineStart + binding[0].length - binding[0].trimStart().length : m.index;
      // A call bound to a name ends with its statement; one inside an expression (a table entry) with its `)`.
      const open = m.index + m[0].length + (after.length - afterTypeArgs.length) + afterTypeArgs.indexOf('(');
      const end = binding ? statementEnd(src.masked, start) : closeOf(src.masked, open);
      out.push({ ...describeStatement(src, start, end, m[1]), factory: m[1], exportName: binding?.[1] ?? null });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Documents

const GENERATED = 'Generated by `npm run flows`; do not edit by hand.';

/** Diagram, states and transitions; nothing in it names the machine, so equal shapes draw equal. */
function renderShape(machine: AnyStateMachine, heading: string): string {
  return [
    '```mermaid',
    renderDiagram(machine),
    '```',
    '',
    `${heading} States`,
    '',
    renderStatesTable(machine),
    '',
    `${heading} Transitions`,
    '',
    renderTransitionsTable(machine),
    '',
  ].join('\n');
}

export function renderMachine(found: FoundMachine): string {
  const { machine, file, exportName } = found;
  return [`# ${machine.id}`, '', `Drawn from \`${file}\` (export \`${exportName}\`). ${GENERATED}`, '', renderShape(machine, '##')].join('\n');
}

/** One machine a factory made, as its page lists it. */
export interface FactoryInstance {
  id: string;
  exportName: string | null;
  source: InstanceSource;
  /** 1-based index of its shape on the factory page; null when it was not loaded (declared outside src/machines). */
  shape: number | null;
  /** For the generic machine a factory's module exports: the actors to provide per use, e.g. `load`. */
  generic?: string;
}

export interface FactoryPage {
  factory: string;
  /** Repository-relative file of the module exporting the factory function. */
  definedIn: string | null;
  /** Distinct shapes (diagram + tables), each with a machine that has it. */
  shapes: Array<{ body: string; machine: AnyStateMachine }>;
  instances: FactoryInstance[];
}

/** A code span that is safe in a table cell. */
const code = (text: string) => `\`${text.replace(/\s+/g, ' ').replace(/`/g, "'").replace(/\|/g, '\\|')}\``;
const cell = (text: string) => clean(text) || '—';

export function renderFactoryPage(page: FactoryPage): string {
  const several = page.shapes.length > 1;
  const count = page.instances.length;
  const lines = [
    `# ${page.factory}`,
    '',
    `The machines made by the factory \`${page.factory}\`${page.definedIn ? ` (\`${page.definedIn}\`)` : ''}: ${count} machine${count === 1 ? '' : 's'}, ${
      several ? `${page.shapes.length} shapes (one diagram each)` : 'one diagram'
    }. What each one calls and takes is listed below. ${GENERATED}`,
    '',
    '## Machines',
    '',
    `| Machine id | Declared in | Export | Calls | Input | Provides |${several ? ' Shape |' : ''}`,
    `|---|---|---|---|---|---|${several ? '---|' : ''}`,
  ];
  for (const i of page.instances) {
    const calls = i.source.calls.length ? i.source.calls.map(code).join('<br>') : i.generic ? `none: the generic machine, provide ${i.generic} per use` : 'none';
    const shape = i.shape === null ? 'not loaded' : String(i.shape);
    lines.push(
      `| ${code(i.id)} | ${code(`${i.source.file}:${i.source.line}`)} | ${i.exportName ? code(i.exportName) : '—'} | ${calls} | ${
        i.source.input === '—' ? '—' : code(i.source.input)
      } | ${cell(i.source.provides)} |${several ? ` ${shape} |` : ''}`,
    );
  }
  lines.push(
    '',
    'Calls: the API calls the machine makes, with their endpoints. Input: the type arguments of the factory call and the parameters of the function it is given. Provides: what `.provide(...)` adds on top.',
  );
  const outside = page.instances.filter((i) => i.shape === null).length;
  if (outside) {
    lines.push(
      '',
      `${outside === 1 ? 'One machine is' : `${outside} machines are`} declared outside the \`*.machine.ts\` modules of src/machines and found in the source text${
        several ? ' (marked “not loaded”: its shape is not checked)' : ''
      }.`,
    );
  }
  lines.push('');
  page.shapes.forEach((shape, n) => {
    if (several) {
      const ids = page.instances.filter((i) => i.shape === n + 1).map((i) => code(i.id));
      lines.push(`## Shape ${n + 1}`, '', `Machines: ${ids.join(', ')}.`, '');
    } else {
      lines.push('## Diagram', '');
    }
    lines.push(renderShape(shape.machine, several ? '###' : '##'));
  });
  return lines.join('\n');
}

const factoryFileName = (factory: string) => `${factory}.md`;

/** The factory pages, from the machines found in src/machines and the factory calls elsewhere in src. */
export async function factoryPages(found: readonly FoundMachine[], srcDir = SRC_DIR): Promise<FactoryPage[]> {
  const pages = new Map<string, FactoryPage>();
  for (const f of found) {
    if (!f.factory) continue;
    let page = pages.get(f.factory);
    if (!page) {
      page = { factory: f.factory, definedIn: null, shapes: [], instances: [] };
      pages.set(f.factory, page);
    }
    const body = renderShape(f.machine, '##');
    let shape = page.shapes.findIndex((s) => s.body === body);
    if (shape < 0) shape = page.shapes.push({ body, machine: f.machine }) - 1;
    page.instances.push({ id: f.machine.id, exportName: f.exportName, source: instanceSource(f), shape: shape + 1 });
  }
  for (const page of pages.values()) {
    for (const file of filesUnder(MACHINES_DIR).filter(isMachineModule)) {
      const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      if (typeof mod[page.factory] === 'function') page.definedIn = repoPath(file);
    }
    for (const i of page.instances) {
      const machine = found.find((f) => f.exportName === i.exportName && f.file === i.source.file)?.machine;
      const actors = Object.keys((machine?.implementations as { actors?: object } | undefined)?.actors ?? {});
      if (i.source.file === page.definedIn && !i.source.calls.length && actors.length) i.generic = actors.map((a) => `\`${a}\``).join(', ');
    }
  }
  for (const s of factoryCallsOutsideMachines([...pages.keys()].sort(), srcDir)) {
    const page = pages.get(s.factory)!;
    page.instances.push({ id: s.idLiteral ?? '(computed)', exportName: s.exportName, source: s, shape: null });
  }
  const sorted = [...pages.values()].sort((a, b) => (a.factory < b.factory ? -1 : 1));
  for (const page of sorted) {
    page.instances.sort((a, b) => (a.source.file === b.source.file ? a.source.line - b.source.line : a.source.file < b.source.file ? -1 : 1));
  }
  return sorted;
}

function countTransitions(machine: AnyStateMachine): number {
  return allNodes(machine.root).reduce((n, node) => n + transitionsOf(node).length, 0);
}

export function renderIndex(pages: readonly FactoryPage[], handWritten: ReadonlyArray<{ name: string; found: FoundMachine }>): string {
  const lines = [
    '# Flow diagrams',
    '',
    `Every state machine of the app, drawn from src/machines. ${GENERATED}`,
    '',
    'Machines made by a factory share the factory’s diagram; its page lists each of them with the file that declares it, what it calls and what it takes. Machines written by hand have a page each.',
    '',
    '## Factories',
    '',
    '| Factory | Defined in | Machines | Shapes | States | Transitions |',
    '|---|---|---|---|---|---|',
  ];
  for (const p of pages) {
    const m = p.shapes[0]?.machine;
    lines.push(
      `| [${p.factory}](${factoryFileName(p.factory)}) | ${p.definedIn ? code(p.definedIn) : '—'} | ${p.instances.length} | ${p.shapes.length} | ${
        m ? allNodes(m.root).length - 1 : '—'
      } | ${m ? countTransitions(m) : '—'} |`,
    );
  }
  lines.push('', '## Machines written by hand', '', '| Machine | Defined in | Export | States | Transitions |', '|---|---|---|---|---|');
  for (const { name, found } of handWritten) {
    lines.push(
      `| [${found.machine.id}](${name}) | ${code(found.file)} | ${code(found.exportName)} | ${allNodes(found.machine.root).length - 1} | ${countTransitions(found.machine)} |`,
    );
  }
  const total = pages.reduce((n, p) => n + p.instances.length, 0) + handWritten.length;
  lines.push('', `${total} machines: ${total - handWritten.length} made by ${pages.length} factories, ${handWritten.length} written by hand.`, '');
  return lines.join('\n');
}

/** The generated path tests declared in tests/models, recorded by the path helpers as their files load. */
let pathModels: Promise<readonly RecordedPathModel[]> | null = null;
export function loadPathModels(dir = MODELS_DIR): Promise<readonly RecordedPathModel[]> {
  pathModels ??= (async () => {
    // The test files run their declarations at import; describe/it are made inert meanwhile (and
    // restored: inside vitest they are the real ones).
    const g = globalThis as Record<string, unknown>;
    const names = ['describe', 'it', 'test', 'beforeAll', 'afterAll', 'beforeEach', 'afterEach'];
    const saved = names.map((n) => [n, Object.getOwnPropertyDescriptor(g, n)] as const);
    const inert = Object.assign(() => {}, { each: () => () => {}, skip: () => {}, only: () => {}, todo: () => {}, concurrent: () => {} });
    for (const n of names) Object.defineProperty(g, n, { value: inert, configurable: true, writable: true });
    try {
      for (const file of filesUnder(dir).filter((f) => f.endsWith('.test.ts') && !path.basename(f).startsWith('flows-'))) {
        try {
          await import(pathToFileURL(file).href);
        } catch (err) {
          // A test file that needs the test runner at import: its machines show no path tests.
          console.warn(`flows: ${repoPath(file)} could not be loaded outside vitest (${err instanceof Error ? err.message : String(err)})`);
        }
      }
    } finally {
      for (const [n, d] of saved) {
        if (d) Object.defineProperty(g, n, d);
        else delete g[n];
      }
    }
    return recordedPathModels();
  })();
  return pathModels;
}

const labels = { eventLabel, guardLabel, actionLabel };

/** Machine export name → the first segment of the member route that runs it (src/app/member/route-table.tsx). */
export function memberRouteAreas(file = path.join(SRC_DIR, 'app/member/route-table.tsx')): Map<string, string> {
  const out = new Map<string, string>();
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return out;
  }
  for (const m of text.matchAll(/\bpage\(\s*'\/([\w-]+)[^']*'\s*,\s*\{((?:(?!\bpage\()[\s\S]){0,600}?)\bmachine:\s*(\w+)/g)) {
    if (!out.has(m[3])) out.set(m[3], m[1]);
  }
  return out;
}

/** Every machine and factory shape the site shows, with the path tests of tests/models that walk it. */
async function siteSubjects(pages: readonly FactoryPage[], handWritten: ReadonlyArray<{ name: string; found: FoundMachine }>, routeAreas: ReadonlyMap<string, string>) {
  const models = await loadPathModels();
  const modelJson = new Map<RecordedPathModel, MachineJson>();
  const jsonOf = (m: RecordedPathModel) => {
    let json = modelJson.get(m);
    if (!json) modelJson.set(m, (json = machineJson(m.machine, { file: '', exportName: '' }, labels)));
    return json;
  };
  const walked = new Map<RecordedPathModel, PathTest[]>();
  const testsFor = (json: MachineJson, accepts: (m: RecordedPathModel) => boolean) => {
    const signature = shapeSignature(json);
    const tests: PathTest[] = [];
    const excused = new Set<string>();
    for (const m of models) {
      if (!accepts(m) || shapeSignature(jsonOf(m)) !== signature) continue;
      if (!walked.has(m)) walked.set(m, walkedPaths(m));
      tests.push(...walked.get(m)!);
      excusedTransitions(m).forEach((k) => excused.add(k));
    }
    return { tests, excused };
  };
  const machines = handWritten.map(({ name, found: f }) => {
    const machine = machineJson(f.machine, { ...f, routeAreas }, labels);
    const { tests, excused } = testsFor(machine, (m) => m.machine.config === f.machine.config || (!factoryOf(m.machine) && m.machine.id === f.machine.id));
    const fileName = name.replace(/\.md$/, '.html');
    const subject: SiteSubject = { fileName, anchor: 'diagram', heading: machine.id, title: machine.id, machine, tests, excused };
    return { found: f, subject };
  });
  const factories = pages.map((p) => {
    const fileName = `${p.factory}.html`;
    const shapes: SiteSubject[] = p.shapes.map((shape, n) => {
      const machine = machineJson(shape.machine, { file: p.definedIn ?? '', exportName: '' }, labels);
      const { tests, excused } = testsFor(machine, (m) => factoryOf(m.machine) === p.factory);
      return { fileName, anchor: `shape-${n + 1}`, heading: p.shapes.length > 1 ? `Shape ${n + 1}` : 'Diagram', title: p.shapes.length > 1 ? `${p.factory}, shape ${n + 1}` : p.factory, machine, tests, excused };
    });
    return { page: p, fileName, shapes };
  });
  return { machines, factories };
}

/** The site pages (and machines.json), from the same machines as the Markdown documents. */
async function generateSite(found: readonly FoundMachine[], pages: readonly FactoryPage[], handWritten: ReadonlyArray<{ name: string; found: FoundMachine }>) {
  const files = new Map<string, string>();
  const entries: IndexEntry[] = [];
  const routeAreas = memberRouteAreas();
  const { machines, factories } = await siteSubjects(pages, handWritten, routeAreas);
  for (const { found: f, subject } of machines) {
    files.set(subject.fileName, await renderMachinePage(subject, `Drawn from <code>${f.file}</code> (export <code>${f.exportName}</code>).`));
    entries.push({ id: subject.machine.id, area: subject.machine.area, href: subject.fileName, kind: 'written by hand', file: f.file, coverage: coverageOf(subject), tests: subject.tests.length });
  }
  for (const { page: p, fileName, shapes } of factories) {
    const instances = p.instances.map((i) => ({ id: i.id, file: i.source.file, line: i.source.line, exportName: i.exportName, calls: i.source.calls, shape: i.shape }));
    files.set(fileName, await renderFactorySitePage(p.factory, p.definedIn, shapes, instances));
    for (const i of p.instances) {
      const shape = i.shape === null ? null : shapes[i.shape - 1];
      entries.push({
        id: i.id,
        area: areaOf(i.source.file, i.exportName, routeAreas),
        href: shape ? `${fileName}#${shape.anchor}` : fileName,
        kind: p.factory,
        file: `${i.source.file}:${i.source.line}`,
        coverage: shape ? coverageOf(shape) : null,
        tests: shape ? shape.tests.length : 0,
      });
    }
  }
  entries.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.file < b.file ? -1 : 1));
  files.set(SITE_INDEX, renderSiteIndex(entries));
  files.set(MACHINES_JSON, `${JSON.stringify(machinesData(found, routeAreas), null, 1)}\n`);
  return files;
}

/** The path-test coverage of one machine (a hand-written one, or one instance of a factory). */
export interface MachineCoverage {
  id: string;
  /** Where it is declared (`file` or `file:line`), and its factory shape (`createFormMachine shape 3`). */
  where: string;
  shape: string | null;
  coverage: Coverage;
  tests: number;
  gaps: CoverageGaps;
}

/** Coverage of every machine the app creates, every factory instance included (what `npm test` gates on). */
export async function flowCoverage(dir = MACHINES_DIR): Promise<MachineCoverage[]> {
  const found = await findMachines(dir);
  const pages = await factoryPages(found);
  const { machines, factories } = await siteSubjects(pages, handWrittenOf(found, new Set(pages.map((p) => factoryFileName(p.factory)))), memberRouteAreas());
  const out: MachineCoverage[] = machines.map(({ found: f, subject }) => ({
    id: subject.machine.id,
    where: f.file,
    shape: null,
    coverage: coverageOf(subject),
    tests: subject.tests.length,
    gaps: coverageGaps(subject),
  }));
  for (const { page: p, shapes } of factories) {
    for (const i of p.instances) {
      if (i.shape === null) continue;
      const subject = shapes[i.shape - 1];
      out.push({ id: i.id, where: `${i.source.file}:${i.source.line}`, shape: `${p.factory}${shapes.length > 1 ? ` shape ${i.shape}` : ''}`, coverage: coverageOf(subject), tests: subject.tests.length, gaps: coverageGaps(subject) });
    }
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.where < b.where ? -1 : 1));
}

export const SITE_INDEX = 'index.html';
export const MACHINES_JSON = 'machines.json';
/** Written by `--since`; depends on the ref, so it is not part of the generated set. */
export const CHANGES_PAGE = 'changes.html';

export function machinesData(found: readonly FoundMachine[], routeAreas = memberRouteAreas()): MachineJson[] {
  return found.map((f) => machineJson(f.machine, { ...f, routeAreas }, labels));
}

/** The hand-written machines with the name of their document (`<id>.md`, else `<id>.<export>.md`). */
function handWrittenOf(found: readonly FoundMachine[], taken: ReadonlySet<string>): Array<{ name: string; found: FoundMachine }> {
  const names = new Set(taken);
  const out: Array<{ name: string; found: FoundMachine }> = [];
  for (const f of found) {
    if (f.factory) continue;
    let name = `${f.machine.id}.md`;
    if (names.has(name) || name === INDEX_FILE || name === 'index.md' || name === 'changes.md') name = `${f.machine.id}.${f.exportName}.md`;
    names.add(name);
    out.push({ name, found: f });
  }
  return out;
}

/** File name → content of every flow document and site page, the indexes included. */
export async function generateFlowDocs(dir = MACHINES_DIR): Promise<Map<string, string>> {
  const found = await findMachines(dir);
  const pages = await factoryPages(found);
  const docs = new Map<string, string>();
  for (const page of pages) docs.set(factoryFileName(page.factory), renderFactoryPage(page));
  const handWritten = handWrittenOf(found, new Set(docs.keys()));
  for (const { name, found: f } of handWritten) docs.set(name, renderMachine(f));
  docs.set(INDEX_FILE, renderIndex(pages, handWritten));
  for (const [name, content] of await generateSite(found, pages, handWritten)) docs.set(name, content);
  return docs;
}

const isGenerated = (f: string) => /\.(md|html|json)$/.test(f) && f !== CHANGES_PAGE;

/** The current contents of docs/flows (documents, pages and machines.json; not changes.html). */
export function readFlowDocs(dir = FLOWS_DIR): Map<string, string> {
  const out = new Map<string, string>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter(isGenerated);
  } catch {
    return out;
  }
  for (const f of files.sort()) out.set(f, readFileSync(path.join(dir, f), 'utf8'));
  return out;
}

export async function writeFlowDocs(dir = FLOWS_DIR, docs?: Map<string, string>): Promise<string[]> {
  docs ??= await generateFlowDocs();
  mkdirSync(dir, { recursive: true });
  for (const stale of readFlowDocs(dir).keys()) if (!docs.has(stale)) rmSync(path.join(dir, stale));
  for (const [name, content] of docs) writeFileSync(path.join(dir, name), content);
  return [...docs.keys()];
}

/** The machines of a git ref, from its committed docs/flows/machines.json. */
export function machinesAt(ref: string): MachineJson[] {
  const spec = `${ref}:${repoPath(path.join(FLOWS_DIR, MACHINES_JSON))}`;
  let text: string;
  try {
    text = execFileSync('git', ['show', spec], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  } catch {
    throw new Error(`${ref} has no docs/flows/${MACHINES_JSON} (it is written by \`npm run flows\` since the flow site exists): compare with a later ref`);
  }
  return JSON.parse(text) as MachineJson[];
}

async function main(args: string[]) {
  const started = Date.now();
  const docs = await generateFlowDocs();
  const names = await writeFlowDocs(FLOWS_DIR, docs);
  console.log(`docs/flows: ${names.length} files (${names.filter((n) => n.endsWith('.html')).length} pages) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const at = args.indexOf('--since');
  if (at >= 0) {
    const ref = args[at + 1];
    if (!ref) throw new Error('--since needs a git ref');
    const changes = diffMachines(machinesAt(ref), JSON.parse(docs.get(MACHINES_JSON)!) as MachineJson[]);
    writeFileSync(path.join(FLOWS_DIR, CHANGES_PAGE), renderChangesPage(changes, ref));
    console.log(summarizeChanges(changes, ref));
    console.log(`docs/flows/${CHANGES_PAGE} written`);
  }
}

const invokedDirectly = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) {
  main(process.argv.slice(2)).then(
    () => process.exit(),
    (err) => {
      console.error(err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}
