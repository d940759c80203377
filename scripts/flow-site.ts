/**
 * The flow site: static HTML pages in docs/flows that open from disk with no network (inline CSS,
 * no script), written by `npm run flows` next to the Markdown documents.
 *
 * - `index.html`: every machine (every instance of a factory included) grouped by area, with the
 *   coverage of its generated path tests.
 * - A page per hand-written machine (`<id>.html`) and one per factory (`<factory>.html`, one section
 *   per shape, like the Markdown page): the diagram as SVG (laid out by elkjs at generation time,
 *   nested states as compound nodes), the transition table with the path tests that take each
 *   transition, and the states with their tags.
 * - `machines.json`: the machines as data, so that `npm run flows -- --since <ref>` can read an
 *   older version's machines with `git show <ref>:docs/flows/machines.json` and write
 *   `changes.html` (not committed: it depends on the ref).
 *
 * The path tests come from the declarations in tests/models: those files are imported with inert
 * `describe`/`it`, and the path helpers (tests/support/paths.ts, auth-flows.ts) record each model
 * in tests/support/path-registry.ts; each recorded path is walked to know what it visits.
 */
import ELK from 'elkjs/lib/elk.bundled.js';
import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { AnyStateMachine } from 'xstate';
import { factoryOf } from '../src/machines/factory-registry';
import type { RecordedPathModel } from '../tests/support/path-registry';

type AnyStateNode = AnyStateMachine['root'];
/** A transition definition, as much of it as the drawings read. */
export interface Transition {
  eventType: string;
  source: AnyStateNode;
  target?: readonly AnyStateNode[];
  guard?: unknown;
  actions: readonly unknown[];
  reenter?: boolean;
}

export interface Labels {
  eventLabel: (eventType: string) => string;
  guardLabel: (guard: unknown) => string;
  actionLabel: (action: unknown) => string;
}

// ---------------------------------------------------------------------------------------------
// Machines as data

export interface StateJson {
  /** Dotted path from the root; '' is the machine itself. */
  path: string;
  type: string;
  tags: string[];
  /** Path of the initial child of a compound state. */
  initial?: string;
  /** The actors it invokes: `id (src)`. */
  invokes: string[];
}

export interface TransitionJson {
  /** `<source path or (machine)> <event or always> #<index>`: unique in its machine. */
  key: string;
  source: string;
  event: string;
  /** `event [guard]` as drawn. */
  label: string;
  guard: string;
  targets: string[];
  actions: string[];
}

export interface MachineJson {
  id: string;
  file: string;
  exportName: string;
  factory?: string;
  area: string;
  states: StateJson[];
  transitions: TransitionJson[];
}

const statePath = (node: AnyStateNode) => node.path.join('.');
export const stateName = (path: string) => path || '(machine)';

function nodesOf(node: AnyStateNode): AnyStateNode[] {
  return [node, ...Object.values(node.states).flatMap((child) => nodesOf(child as AnyStateNode))];
}

function transitionsOf(node: AnyStateNode): Array<{ t: Transition; index: number }> {
  const out: Array<{ t: Transition; index: number }> = [];
  for (const [, list] of node.transitions as Map<string, Transition[]>) list.forEach((t, index) => out.push({ t, index }));
  ((node.always as Transition[] | undefined) ?? []).forEach((t, index) => out.push({ t, index }));
  return out;
}

const keyOf = (source: string, eventType: string, index: number) => `${stateName(source)} ${eventType === '' ? 'always' : eventType} #${index}`;

/**
 * The area of a machine: the first segment of the member route that runs it (route table), else
 * the folder under src/machines, else the first word of its file name.
 */
export function areaOf(file: string, exportName?: string | null, routeAreas?: ReadonlyMap<string, string>): string {
  const routed = exportName ? routeAreas?.get(exportName.split('.')[0]) : undefined;
  if (routed) return routed;
  const rel = file.replace(/^src\/machines\//, '').replace(/^src\//, '');
  const parts = rel.split('/');
  if (parts.length > 1) return parts[0];
  return parts[0].split(/[-.]/)[0];
}

export function machineJson(machine: AnyStateMachine, where: { file: string; exportName: string; routeAreas?: ReadonlyMap<string, string> }, labels: Labels): MachineJson {
  const states: StateJson[] = [];
  const transitions: TransitionJson[] = [];
  for (const node of nodesOf(machine.root)) {
    const initial = (node.initial as unknown as { target?: readonly AnyStateNode[] } | undefined)?.target?.[0];
    const invokes = ((node.invoke ?? []) as Array<{ id: string; src: unknown }>).map((i) => {
      const src = typeof i.src === 'string' ? i.src : 'inline';
      return i.id === src || /^\d+\./.test(i.id) ? src : `${i.id} (${src})`;
    });
    states.push({ path: statePath(node), type: node.type, tags: [...(node.tags ?? [])].sort(), ...(initial ? { initial: statePath(initial) } : {}), invokes });
    for (const { t, index } of transitionsOf(node)) {
      const guard = labels.guardLabel(t.guard);
      const event = ownEventType(machine, t.eventType);
      transitions.push({
        key: keyOf(statePath(node), event, index),
        source: statePath(node),
        event,
        label: `${labels.eventLabel(t.eventType)}${guard ? ` [${guard}]` : ''}`,
        guard,
        targets: (t.target ?? []).map(statePath),
        actions: t.actions.map(labels.actionLabel),
      });
    }
  }
  const factory = factoryOf(machine);
  return { id: machine.id, file: where.file, exportName: where.exportName, ...(factory ? { factory } : {}), area: areaOf(where.file, where.exportName, where.routeAreas), states, transitions };
}

/**
 * A delayed transition's event names its state by id (`xstate.after.undoWindow.addressDelete.deleted`):
 * without the machine's id, so every instance of a factory has the same transitions.
 */
export function ownEventType(machine: AnyStateMachine, eventType: string): string {
  return eventType.startsWith('xstate.after.') ? eventType.replace(`.${machine.root.id}.`, '.') : eventType;
}

/** What makes two machines draw the same: states and transitions, not names or files. */
export const shapeSignature = (m: Pick<MachineJson, 'states' | 'transitions'>) => JSON.stringify([m.states, m.transitions]);

// ---------------------------------------------------------------------------------------------
// Generated path tests

export interface PathTest {
  test: string;
  states: Set<string>;
  transitions: Set<string>;
}

/** A model's walked paths, with states and transitions named by path (so equal shapes compare). */
export function walkedPaths(model: RecordedPathModel): PathTest[] {
  const machine = model.machine;
  const pathOfId = (id: string) => pathOfStateId(machine, id);
  return model.walk().map((p) => {
    const states = new Set<string>();
    for (const id of p.stateIds) {
      const at = pathOfId(id);
      if (at !== null) states.add(at);
    }
    return { test: `${model.title} › ${p.test}`, states, transitions: transitionPaths(machine, p.transitions) };
  });
}

/** Transition keys by state id (as path tests name them) → keys by state path (as the site does). */
function transitionPaths(machine: AnyStateMachine, keys: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const key of keys) {
    const m = /^(.*) (\S+) #(\d+)$/.exec(key);
    const at = m ? pathOfStateId(machine, m[1]) : null;
    if (m && at !== null) out.add(keyOf(at, m[2] === 'always' ? '' : ownEventType(machine, m[2]), Number(m[3])));
  }
  return out;
}

function pathOfStateId(machine: AnyStateMachine, id: string): string | null {
  if (id === machine.root.id) return '';
  try {
    return statePath(machine.getStateNodeById(id) as AnyStateNode);
  } catch {
    return null;
  }
}

/** The transitions a model declares unreachable (`unreachable`), by state path. */
export function excusedTransitions(model: RecordedPathModel): Set<string> {
  return transitionPaths(model.machine, model.unreachable ?? []);
}

// ---------------------------------------------------------------------------------------------
// SVG

const CHAR = 7.4;
const LINE = 16;
const esc = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const textWidth = (text: string) => Math.ceil(text.length * CHAR);
const nodeId = (path: string) => `n:${path}`;

let elk: InstanceType<typeof ELK> | null = null;

/** The machine's diagram as an SVG element; `prefix` keeps element ids unique on a page. */
export async function renderSvg(m: MachineJson, prefix: string, heading: string): Promise<string> {
  elk ??= new ELK();
  const byPath = new Map(m.states.map((s) => [s.path, s]));
  const children = (path: string) => m.states.filter((s) => s.path !== path && s.path.startsWith(path ? `${path}.` : '') && !s.path.slice(path ? path.length + 1 : 0).includes('.'));
  const edges: ElkExtendedEdge[] = [];
  const edgeInfo = new Map<string, { kind: 'initial' | 'transition'; label?: string }>();
  const build = (state: StateJson): ElkNode => {
    const kids = children(state.path);
    const title = state.path.split('.').at(-1)!;
    const lines = state.invokes.map((i) => `invoke ${i}`);
    if (!kids.length) {
      const width = Math.max(...[title, ...lines].map(textWidth)) + 28;
      return { id: nodeId(state.path), width, height: 30 + lines.length * LINE };
    }
    const nodes = kids.map(build);
    if (state.initial) {
      nodes.unshift({ id: `i:${state.path}`, width: 12, height: 12 });
      const id = `init:${state.path}`;
      edges.push({ id, sources: [`i:${state.path}`], targets: [nodeId(state.initial)] });
      edgeInfo.set(id, { kind: 'initial' });
    }
    const minWidth = Math.max(...[title, ...lines].map(textWidth)) + 28;
    return {
      id: nodeId(state.path),
      children: nodes,
      layoutOptions: {
        'elk.padding': `[top=${30 + lines.length * LINE},left=14,bottom=14,right=14]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${minWidth}, 40)`,
      },
    };
  };
  const root = byPath.get('')!;
  const top = children('').map(build);
  if (root.initial) {
    top.unshift({ id: 'i:', width: 12, height: 12 });
    edges.push({ id: 'init:', sources: ['i:'], targets: [nodeId(root.initial)] });
    edgeInfo.set('init:', { kind: 'initial' });
  }
  const drawn = new Set<string>();
  m.transitions.forEach((t, n) => {
    const source = t.source === '' ? null : t.source;
    for (const target of t.targets) {
      if (source === null || target === '') continue; // the machine itself: listed in the table
      const label = t.label;
      const dedupe = `${source}→${target}:${label}`;
      if (drawn.has(dedupe)) continue;
      drawn.add(dedupe);
      const id = `e${n}:${target}`;
      edges.push({ id, sources: [nodeId(source)], targets: [nodeId(target)], labels: [{ text: label, width: textWidth(label) + 6, height: LINE }] });
      edgeInfo.set(id, { kind: 'transition', label });
    }
  });
  const graph: ElkNode = {
    id: 'root',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.layered.spacing.nodeNodeBetweenLayers': '36',
      'elk.spacing.nodeNode': '28',
      'elk.spacing.edgeLabel': '4',
      'elk.layered.spacing.edgeNodeBetweenLayers': '16',
      'elk.edgeRouting': 'POLYLINE',
      'elk.padding': '[top=12,left=12,bottom=12,right=12]',
    },
    children: top,
    edges,
  };
  const laid = await elk.layout(graph);

  const abs = new Map<string, { x: number; y: number }>([['root', { x: 0, y: 0 }]]);
  const boxes: string[] = [];
  const markers: string[] = [];
  const visit = (node: ElkNode, ox: number, oy: number) => {
    for (const child of node.children ?? []) {
      const x = ox + (child.x ?? 0);
      const y = oy + (child.y ?? 0);
      abs.set(child.id, { x, y });
      const w = child.width ?? 0;
      const h = child.height ?? 0;
      if (child.id.startsWith('i:')) {
        markers.push(`<circle class="initial" cx="${x + w / 2}" cy="${y + h / 2}" r="${w / 2}"><title>initial state of ${esc(stateName(child.id.slice(2)))}</title></circle>`);
      } else {
        const state = byPath.get(child.id.slice(2))!;
        const compound = !!child.children?.length;
        const cls = ['state', compound ? 'compound' : '', state.type === 'final' ? 'final' : ''].filter(Boolean).join(' ');
        const name = state.path.split('.').at(-1)!;
        const parts = [`<g class="${cls}" data-state="${esc(state.path)}">`, `<rect x="${x}" y="${y}" width="${w}" height="${h}" rx="${compound ? 8 : 14}"/>`];
        if (state.type === 'final') parts.push(`<rect class="inner" x="${x + 3}" y="${y + 3}" width="${w - 6}" height="${h - 6}" rx="11"/>`);
        parts.push(`<text class="name" x="${compound ? x + 12 : x + w / 2}" y="${y + 19}"${compound ? '' : ' text-anchor="middle"'}>${esc(name)}</text>`);
        state.invokes.forEach((inv, i) =>
          parts.push(`<text class="invoke" x="${compound ? x + 12 : x + w / 2}" y="${y + 19 + (i + 1) * LINE}"${compound ? '' : ' text-anchor="middle"'}>invoke ${esc(inv)}</text>`),
        );
        parts.push('</g>');
        boxes.push(parts.join(''));
      }
      visit(child, x, y);
    }
  };
  visit(laid, 0, 0);

  const lines: string[] = [];
  const labels: string[] = [];
  const allEdges: ElkExtendedEdge[] = [];
  const collect = (node: ElkNode) => {
    allEdges.push(...((node.edges ?? []) as ElkExtendedEdge[]));
    for (const child of node.children ?? []) collect(child);
  };
  collect(laid);
  for (const edge of allEdges) {
    const info = edgeInfo.get(edge.id);
    const origin = abs.get((edge as { container?: string }).container ?? 'root') ?? { x: 0, y: 0 };
    for (const section of edge.sections ?? []) {
      const points = [section.startPoint, ...(section.bendPoints ?? []), section.endPoint].map((p) => `${round(origin.x + p.x)},${round(origin.y + p.y)}`);
      lines.push(`<polyline class="edge${info?.kind === 'initial' ? ' from-initial' : ''}" points="${points.join(' ')}" marker-end="url(#${prefix}-arrow)"/>`);
    }
    for (const label of edge.labels ?? []) {
      const x = origin.x + (label.x ?? 0);
      const y = origin.y + (label.y ?? 0);
      labels.push(
        `<g class="label"><rect x="${round(x)}" y="${round(y)}" width="${label.width}" height="${label.height}" rx="3"/><text x="${round(x + 3)}" y="${round(y + 12)}">${esc(label.text ?? '')}</text></g>`,
      );
    }
  }
  const width = Math.ceil(laid.width ?? 0);
  const height = Math.ceil(laid.height ?? 0);
  const finals = m.states.filter((s) => s.type === 'final').map((s) => stateName(s.path));
  const desc = `${m.states.length - 1} states and ${m.transitions.length} transitions. Initial state: ${root.initial ? stateName(root.initial) : 'none'}.${
    finals.length ? ` Final states: ${finals.join(', ')}.` : ''
  } The transition table below lists every transition.`;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" class="diagram" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" role="img" aria-labelledby="${prefix}-title ${prefix}-desc">`,
    `<title id="${prefix}-title">${esc(heading)}</title>`,
    `<desc id="${prefix}-desc">${esc(desc)}</desc>`,
    `<defs><marker id="${prefix}-arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path class="arrow" d="M0,0 L10,5 L0,10 z"/></marker></defs>`,
    ...boxes,
    ...markers,
    ...lines,
    ...labels,
    '</svg>',
  ].join('\n');
}

/** Test names hold their inputs as JSON; long ones are cut (their `#n` keeps them apart). */
const shorten = (name: string) => (name.length > 200 ? `${name.slice(0, 199)}…` : name);
const round = (n: number) => Math.round(n * 10) / 10;

// ---------------------------------------------------------------------------------------------
// Pages

const CSS = `
:root { color-scheme: light dark; --bg: #fff; --fg: #1b1f24; --muted: #59636e; --line: #d1d9e0; --state: #f6f8fa; --accent: #0969da; --ok: #1a7f37; --warn: #9a6700; --label: #fff; }
@media (prefers-color-scheme: dark) { :root { --bg: #0d1117; --fg: #e6edf3; --muted: #9198a1; --line: #3d444d; --state: #161b22; --accent: #4493f8; --ok: #3fb950; --warn: #d29922; --label: #0d1117; } }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1200px; padding: 16px; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
a { color: var(--accent); }
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 13px; }
table { border-collapse: collapse; width: 100%; margin: 8px 0 24px; font-size: 14px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--state); }
.scroll { overflow-x: auto; }
.muted { color: var(--muted); }
.full { color: var(--ok); } .partial { color: var(--warn); }
details summary { cursor: pointer; }
ol.tests { margin: 4px 0; padding-left: 40px; font-size: 12px; }
.diagram { max-width: none; font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12px; }
.diagram .state rect { fill: var(--state); stroke: var(--fg); stroke-width: 1.2; }
.diagram .state.compound > rect { fill: none; stroke: var(--muted); stroke-dasharray: 4 3; }
.diagram .state.final rect.inner { fill: none; }
.diagram text { fill: var(--fg); }
.diagram .state .name { font-weight: 600; }
.diagram .invoke { fill: var(--muted); font-style: italic; }
.diagram .initial { fill: var(--fg); }
.diagram .edge { fill: none; stroke: var(--muted); stroke-width: 1.2; }
.diagram .arrow { fill: var(--muted); }
.diagram .label rect { fill: var(--label); opacity: .9; }
.diagram .label text { fill: var(--accent); }
nav.crumbs { margin-bottom: 8px; }
`;

const page = (title: string, body: string) =>
  [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${esc(title)}</title>`,
    `<style>${CSS}</style>`,
    '</head>',
    '<body>',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n');

export interface SiteSubject {
  /** The HTML file of its page and the anchor of its section. */
  fileName: string;
  anchor: string;
  heading: string;
  /** What the diagram shows, for its accessible title. */
  title: string;
  machine: MachineJson;
  tests: PathTest[];
  /** Transitions its path models declare unreachable (by state path): counted as covered, listed apart. */
  excused?: ReadonlySet<string>;
}

export interface Coverage {
  states: number;
  statesReached: number;
  transitions: number;
  transitionsTaken: number;
}

export function coverageOf(subject: Pick<SiteSubject, 'machine' | 'tests' | 'excused'>): Coverage {
  const reached = new Set<string>();
  const taken = new Set<string>(subject.excused);
  for (const t of subject.tests) {
    t.states.forEach((s) => reached.add(s));
    t.transitions.forEach((s) => taken.add(s));
  }
  const states = subject.machine.states.filter((s) => s.path !== '');
  return {
    states: states.length,
    statesReached: states.filter((s) => reached.has(s.path)).length,
    transitions: subject.machine.transitions.length,
    transitionsTaken: subject.machine.transitions.filter((t) => taken.has(t.key)).length,
  };
}

/** What a subject's path tests leave out: the states never reached and the transitions never taken. */
export interface CoverageGaps {
  states: string[];
  transitions: string[];
  /** Declared unreachable by the path model (`unreachable`), so not counted against it. */
  excused: string[];
}

export function coverageGaps(subject: Pick<SiteSubject, 'machine' | 'tests' | 'excused'>): CoverageGaps {
  const reached = new Set<string>();
  const taken = new Set<string>(subject.excused);
  for (const t of subject.tests) {
    t.states.forEach((s) => reached.add(s));
    t.transitions.forEach((s) => taken.add(s));
  }
  return {
    states: subject.machine.states.filter((s) => s.path !== '' && !reached.has(s.path)).map((s) => s.path),
    transitions: subject.machine.transitions.filter((t) => !taken.has(t.key)).map((t) => `${t.key} (${stateName(t.source)} → ${t.targets.map(stateName).join(', ') || 'itself'} on ${t.label})`),
    excused: [...(subject.excused ?? [])].sort(),
  };
}

/** Sorted numbers as [first, last] runs of consecutive ones. */
function runs(numbers: number[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const n of numbers) {
    const last = out.at(-1);
    if (last && last[1] === n - 1) last[1] = n;
    else out.push([n, n]);
  }
  return out;
}

const pct = (n: number, of: number) => (of ? Math.floor((n / of) * 100) : 100);
export function coverageText(c: Coverage): string {
  return `states ${c.statesReached}/${c.states} (${pct(c.statesReached, c.states)} %), transitions ${c.transitionsTaken}/${c.transitions} (${pct(c.transitionsTaken, c.transitions)} %)`;
}
const coverageSpan = (c: Coverage, tests: number) =>
  tests
    ? `<span class="${c.statesReached === c.states && c.transitionsTaken === c.transitions ? 'full' : 'partial'}">${esc(coverageText(c))}</span>`
    : '<span class="partial">no generated path tests</span>';

/** Diagram, coverage, transitions with their path tests, states with their tags. */
export async function renderSubject(subject: SiteSubject, level: 2 | 3): Promise<string> {
  const { machine: m, tests } = subject;
  const h = `h${level}`;
  const h2 = `h${level + 1}`;
  const cov = coverageOf(subject);
  const svg = await renderSvg(m, subject.anchor, `State diagram: ${subject.title}`);
  const testId = (n: number) => `${subject.anchor}-t${n + 1}`;
  const link = (n: number) => `<a href="#${testId(n)}">${n + 1}</a>`;
  const rows = m.transitions.map((t) => {
    const walking = tests.flatMap((p, n) => (p.transitions.has(t.key) ? [n] : []));
    const list = walking.length
      ? `${walking.length}: ${runs(walking)
          .map(([a, b]) => (a === b ? link(a) : `${link(a)}–${link(b)}`))
          .join(', ')}`
      : subject.excused?.has(t.key)
        ? '<span class="muted">none: unreachable (declared by its path model)</span>'
        : '<span class="partial">none</span>';
    return `<tr data-transition="${esc(t.key)}"><td><code>${esc(stateName(t.source))}</code></td><td><code>${esc(t.label)}</code></td><td>${
      t.targets.length ? t.targets.map((x) => `<code>${esc(stateName(x))}</code>`).join(', ') : '<span class="muted">(stays)</span>'
    }</td><td>${t.actions.length ? t.actions.map((a) => `<code>${esc(a)}</code>`).join(', ') : '—'}</td><td>${list}</td></tr>`;
  });
  const states = m.states
    .filter((s) => s.path !== '')
    .map((s) => {
      const reached = tests.some((p) => p.states.has(s.path));
      return `<tr><td><code>${esc(s.path)}</code></td><td>${esc(s.type)}</td><td>${s.tags.length ? s.tags.map((x) => `<code>${esc(x)}</code>`).join(', ') : '—'}</td><td>${
        s.invokes.length ? s.invokes.map((x) => `<code>${esc(x)}</code>`).join(', ') : '—'
      }</td><td>${reached ? 'yes' : '<span class="partial">no</span>'}</td></tr>`;
    });
  return [
    `<${h} id="${subject.anchor}">${esc(subject.heading)}</${h}>`,
    `<p>Generated path tests: ${tests.length} — coverage ${coverageSpan(cov, tests.length)}.</p>`,
    `<div class="scroll">${svg}</div>`,
    `<${h2}>Transitions</${h2}>`,
    '<div class="scroll"><table><thead><tr><th>From</th><th>Event [guard]</th><th>To</th><th>Actions</th><th>Path tests that take it (count: numbers)</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table></div>',
    `<${h2}>States</${h2}>`,
    '<div class="scroll"><table><thead><tr><th>State</th><th>Type</th><th>Tags</th><th>Invokes</th><th>Reached by a path test</th></tr></thead><tbody>',
    ...states,
    '</tbody></table></div>',
    `<${h2}>Path tests</${h2}>`,
    tests.length
      ? `<p class="muted">The generated tests (tests/models) of this ${level === 2 && subject.anchor.startsWith('shape') ? 'shape' : 'machine'}, by name; the transition table refers to them by number.</p><ol class="tests mono">${tests
          .map((p, n) => `<li id="${testId(n)}">${esc(shorten(p.test))}</li>`)
          .join('')}</ol>`
      : '<p class="partial">None: add a model in tests/models.</p>',
  ].join('\n');
}

const GENERATED = 'Generated by <code>npm run flows</code> from the code; do not edit by hand.';
const crumbs = '<nav class="crumbs"><a href="index.html">All flows</a></nav>';

export async function renderMachinePage(subject: SiteSubject, where: string): Promise<string> {
  return page(
    `${subject.machine.id} — flows`,
    [crumbs, `<h1>${esc(subject.machine.id)}</h1>`, `<p>${where} ${GENERATED}</p>`, (await renderSubject({ ...subject, heading: 'Diagram' }, 2)).replace(/^<h2[^>]*>Diagram<\/h2>\n/, '')].join('\n'),
  );
}

export interface FactorySiteInstance {
  id: string;
  file: string;
  line: number;
  exportName: string | null;
  calls: string[];
  shape: number | null;
}

export async function renderFactorySitePage(factory: string, definedIn: string | null, shapes: SiteSubject[], instances: FactorySiteInstance[]): Promise<string> {
  const several = shapes.length > 1;
  const rows = instances.map(
    (i) =>
      `<tr><td><code>${esc(i.id)}</code></td><td><code>${esc(`${i.file}:${i.line}`)}</code></td><td>${i.exportName ? `<code>${esc(i.exportName)}</code>` : '—'}</td><td>${
        i.calls.length ? i.calls.map((c) => `<code>${esc(c)}</code>`).join('<br>') : '—'
      }</td><td>${i.shape === null ? '<span class="muted">not loaded</span>' : `<a href="#${shapes[i.shape - 1].anchor}">${several ? `shape ${i.shape}` : 'diagram'}</a>`}</td></tr>`,
  );
  const sections: string[] = [];
  for (const s of shapes) sections.push(await renderSubject(s, 2));
  return page(
    `${factory} — flows`,
    [
      crumbs,
      `<h1>${esc(factory)}</h1>`,
      `<p>The machines made by the factory <code>${esc(factory)}</code>${definedIn ? ` (<code>${esc(definedIn)}</code>)` : ''}: ${instances.length} machine${
        instances.length === 1 ? '' : 's'
      }, ${several ? `${shapes.length} shapes, one diagram each` : 'one diagram'}. The path tests of a shape are those of every machine of that shape, test instances included. ${GENERATED}</p>`,
      '<h2>Machines</h2>',
      '<div class="scroll"><table><thead><tr><th>Machine id</th><th>Declared in</th><th>Export</th><th>Calls</th><th>Diagram</th></tr></thead><tbody>',
      ...rows,
      '</tbody></table></div>',
      ...sections,
    ].join('\n'),
  );
}

export interface IndexEntry {
  id: string;
  area: string;
  href: string;
  kind: string;
  file: string;
  coverage: Coverage | null;
  tests: number;
}

export function renderSiteIndex(entries: IndexEntry[]): string {
  const areas = [...new Set(entries.map((e) => e.area))].sort();
  const body = [
    '<h1>Flows</h1>',
    `<p>Every state machine of the app, each with its diagram, its transitions and the generated path tests that take them. ${GENERATED} ${entries.length} machines in ${areas.length} areas.</p>`,
    '<p>Areas: ' + areas.map((a) => `<a href="#area-${esc(a)}">${esc(a)}</a>`).join(' · ') + '</p>',
  ];
  for (const area of areas) {
    body.push(
      `<h2 id="area-${esc(area)}">${esc(area)}</h2>`,
      '<div class="scroll"><table><thead><tr><th>Machine</th><th>Made by</th><th>Declared in</th><th>Path tests</th><th>Coverage</th></tr></thead><tbody>',
    );
    for (const e of entries.filter((x) => x.area === area)) {
      body.push(
        `<tr data-machine="${esc(e.id)}"><td><a href="${esc(e.href)}">${esc(e.id)}</a></td><td>${esc(e.kind)}</td><td><code>${esc(e.file)}</code></td><td>${e.tests}</td><td>${
          e.coverage ? coverageSpan(e.coverage, e.tests) : '<span class="muted">not loaded</span>'
        }</td></tr>`,
      );
    }
    body.push('</tbody></table></div>');
  }
  body.push('<p class="muted">What changed between two versions: <code>npm run flows -- --since &lt;git ref&gt;</code> writes <a href="changes.html">changes.html</a>.</p>');
  return page('Flows', body.join('\n'));
}

// ---------------------------------------------------------------------------------------------
// What changed

export interface MachineChange {
  machine: string;
  status: 'added' | 'removed' | 'changed';
  states: { added: string[]; removed: string[]; changed: string[] };
  transitions: { added: string[]; removed: string[]; changed: string[] };
}

/** A transition's identity across versions: source, event and guard (plus a counter for repeats). */
function transitionIds(m: MachineJson): Map<string, TransitionJson> {
  const out = new Map<string, TransitionJson>();
  for (const t of m.transitions) {
    const base = `${stateName(t.source)}: ${t.label}`;
    let id = base;
    for (let n = 2; out.has(id); n++) id = `${base} (${n})`;
    out.set(id, t);
  }
  return out;
}

const describeTransition = (id: string, t: TransitionJson) => `${id} → ${t.targets.length ? t.targets.map(stateName).join(', ') : '(stays)'}`;

const machineKey = (m: MachineJson) => m.id;

export function diffMachines(before: readonly MachineJson[], after: readonly MachineJson[]): MachineChange[] {
  const old = new Map(before.map((m) => [machineKey(m), m]));
  const now = new Map(after.map((m) => [machineKey(m), m]));
  const keys = [...new Set([...old.keys(), ...now.keys()])].sort();
  const out: MachineChange[] = [];
  for (const key of keys) {
    const a = old.get(key);
    const b = now.get(key);
    const empty: MachineJson = { id: key, file: '', exportName: '', area: '', states: [], transitions: [] };
    const x = a ?? empty;
    const y = b ?? empty;
    const sa = new Map(x.states.filter((s) => s.path).map((s) => [s.path, s]));
    const sb = new Map(y.states.filter((s) => s.path).map((s) => [s.path, s]));
    const ta = transitionIds(x);
    const tb = transitionIds(y);
    const change: MachineChange = {
      machine: key,
      status: !a ? 'added' : !b ? 'removed' : 'changed',
      states: {
        added: [...sb.keys()].filter((k) => !sa.has(k)),
        removed: [...sa.keys()].filter((k) => !sb.has(k)),
        changed: [...sb.keys()].filter((k) => sa.has(k) && JSON.stringify(sa.get(k)) !== JSON.stringify(sb.get(k))),
      },
      transitions: {
        added: [...tb].filter(([k]) => !ta.has(k)).map(([k, t]) => describeTransition(k, t)),
        removed: [...ta].filter(([k]) => !tb.has(k)).map(([k, t]) => describeTransition(k, t)),
        changed: [...tb]
          .filter(([k, t]) => ta.has(k) && (JSON.stringify(ta.get(k)!.targets) !== JSON.stringify(t.targets) || JSON.stringify(ta.get(k)!.actions) !== JSON.stringify(t.actions)))
          .map(([k, t]) => {
            const was = ta.get(k)!;
            const parts = [];
            if (JSON.stringify(was.targets) !== JSON.stringify(t.targets)) parts.push(`target ${was.targets.map(stateName).join(', ') || '(stays)'} → ${t.targets.map(stateName).join(', ') || '(stays)'}`);
            if (JSON.stringify(was.actions) !== JSON.stringify(t.actions)) parts.push(`actions ${was.actions.join(', ') || '—'} → ${t.actions.join(', ') || '—'}`);
            return `${k}: ${parts.join('; ')}`;
          }),
      },
    };
    const count = Object.values(change.states).flat().length + Object.values(change.transitions).flat().length;
    if (a && b && !count) continue;
    out.push(change);
  }
  return out;
}

export function summarizeChanges(changes: readonly MachineChange[], since: string): string {
  if (!changes.length) return `No machine changed since ${since}.`;
  const lines = [`Machines changed since ${since}: ${changes.length}`];
  for (const c of changes) {
    const n = (l: { added: string[]; removed: string[]; changed: string[] }) => `+${l.added.length} −${l.removed.length} ~${l.changed.length}`;
    lines.push(`  ${c.machine} (${c.status}): states ${n(c.states)}, transitions ${n(c.transitions)}`);
  }
  return lines.join('\n');
}

export function renderChangesPage(changes: readonly MachineChange[], since: string): string {
  const list = (title: string, items: string[], cls: string) =>
    items.length ? `<p><strong>${title}</strong></p><ul class="${cls}">${items.map((i) => `<li><code>${esc(i)}</code></li>`).join('')}</ul>` : '';
  const body = [crumbs, '<h1>What changed</h1>', `<p>The machines of the working tree compared with those of <code>${esc(since)}</code>. ${GENERATED}</p>`];
  if (!changes.length) body.push('<p>No machine changed.</p>');
  for (const c of changes) {
    body.push(
      `<section data-machine="${esc(c.machine)}"><h2>${esc(c.machine)} <span class="muted">(${c.status})</span></h2>`,
      list('States added', c.states.added, 'added'),
      list('States removed', c.states.removed, 'removed'),
      list('States changed (type, tags, initial state or invokes)', c.states.changed, 'changed'),
      list('Transitions added', c.transitions.added, 'added'),
      list('Transitions removed', c.transitions.removed, 'removed'),
      list('Transitions changed', c.transitions.changed, 'changed'),
      '</section>',
    );
  }
  return page(`What changed since ${since} — flows`, body.filter(Boolean).join('\n'));
}
