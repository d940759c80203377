/**
 * `npm run flows`: draws every machine of src/machines as docs/flows/<machine-id>.md — a Mermaid
 * stateDiagram-v2 (nested states, initial and final markers, transitions labelled `event [guard]`,
 * invoke done/error and `after` delays) and tables of the states and of every transition.
 *
 * Every export of a `*.machine.ts` file that is a state machine is drawn; factories are drawn
 * through the sample machine their file exports (e.g. `loadMachine` next to `createLoadMachine`).
 * The output is deterministic; tests/models/flows-fresh.test.ts fails when docs/flows is stale.
 *
 * Mermaid cannot draw a transition between states inside two different composite states, so such
 * a transition is drawn between the outermost states that contain its source and target (the
 * tables list the exact source and target).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AnyStateMachine } from 'xstate';

type AnyStateNode = AnyStateMachine['root'];
interface Transition {
  eventType: string;
  source: AnyStateNode;
  target?: readonly AnyStateNode[];
  guard?: unknown;
  actions: readonly unknown[];
  reenter?: boolean;
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const MACHINES_DIR = path.join(ROOT, 'src/machines');
export const FLOWS_DIR = path.join(ROOT, 'docs/flows');

export interface FoundMachine {
  file: string;
  exportName: string;
  machine: AnyStateMachine;
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

/** Every machine exported by the `*.machine.ts` files of `dir`, in file and export order. */
export async function findMachines(dir = MACHINES_DIR): Promise<FoundMachine[]> {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.machine.ts'))
    .sort();
  const found: FoundMachine[] = [];
  const seen = new Set<unknown>();
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as Record<string, unknown>;
    for (const exportName of Object.keys(mod).sort()) {
      const value = mod[exportName];
      if (!isStateMachine(value) || seen.has(value)) continue;
      seen.add(value);
      found.push({ file, exportName, machine: value });
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

export function renderMachine(found: FoundMachine): string {
  const { machine, file, exportName } = found;
  return [
    `# ${machine.id}`,
    '',
    `Generated by \`npm run flows\` from \`src/machines/${file}\` (export \`${exportName}\`). Do not edit by hand.`,
    '',
    '```mermaid',
    renderDiagram(machine),
    '```',
    '',
    '## States',
    '',
    renderStatesTable(machine),
    '',
    '## Transitions',
    '',
    renderTransitionsTable(machine),
    '',
  ].join('\n');
}

/** File name → content of every flow document. */
export async function generateFlowDocs(dir = MACHINES_DIR): Promise<Map<string, string>> {
  const docs = new Map<string, string>();
  for (const found of await findMachines(dir)) {
    let name = `${found.machine.id}.md`;
    if (docs.has(name)) name = `${found.machine.id}.${found.exportName}.md`;
    docs.set(name, renderMachine(found));
  }
  return docs;
}

/** The current contents of docs/flows (Markdown files only). */
export function readFlowDocs(dir = FLOWS_DIR): Map<string, string> {
  const out = new Map<string, string>();
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.md'));
  } catch {
    return out;
  }
  for (const f of files.sort()) out.set(f, readFileSync(path.join(dir, f), 'utf8'));
  return out;
}

export async function writeFlowDocs(dir = FLOWS_DIR): Promise<string[]> {
  const docs = await generateFlowDocs();
  mkdirSync(dir, { recursive: true });
  for (const stale of readFlowDocs(dir).keys()) if (!docs.has(stale)) rmSync(path.join(dir, stale));
  for (const [name, content] of docs) writeFileSync(path.join(dir, name), content);
  return [...docs.keys()];
}

const invokedDirectly = process.argv[1] && pathToFileURL(path.resolve(process.argv[1])).href === import.meta.url;
if (invokedDirectly) {
  writeFlowDocs().then(
    (names) => console.log(`docs/flows: ${names.length} machines drawn (${names.join(', ')})`),
    (err) => {
      console.error(err);
      process.exitCode = 1;
    },
  );
}
