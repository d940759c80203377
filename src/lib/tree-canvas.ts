/**
 * Painting the genealogy on a <canvas>.
 *
 * Why a canvas and not SVG/DOM: a member may open tens of thousands of nodes. As DOM (or SVG) every node
 * is several elements that the browser styles, lays out and keeps in memory, and every pan or zoom
 * frame touches all of them; at 10 000 nodes that is far beyond a 16 ms frame. The tree is instead:
 *  - laid out once per change of the data with the tidy tree of d3-hierarchy (src/lib/tree-layout.ts,
 *    O(n), written over one working object per node so 10 000 nodes lay out in a few milliseconds);
 *  - painted here on one canvas, frame by frame, with culling: only links and nodes whose box meets the
 *    viewport are drawn, so a frame costs what is on screen (a few dozen cards), not what is loaded;
 *  - drawn with less detail when zoomed far out (plain boxes, no text or avatars: unreadable anyway);
 *  - with a DOM/ARIA layer only for what needs it: the focused node's focus ring, an aria-live
 *    description of it and the details panel (rendered by the view).
 * Pan and zoom only change the transform (screen = layout × k + offset) and schedule one paint per
 * animation frame; React does not re-render while panning.
 */
import { EMPTY_WIDTH, NODE_HEIGHT, NODE_WIDTH, type LayoutItem, type TreeLayout } from './tree-layout';

export interface Viewport {
  x: number;
  y: number;
  k: number;
}

export interface TreePalette {
  background: string;
  card: string;
  border: string;
  text: string;
  dimmed: string;
  link: string;
  primary: string;
  active: string;
  inactive: string;
  error: string;
  focus: string;
  font: string;
}

export interface TreeLabels {
  empty: string;
  left: string;
  right: string;
  active: string;
  inactive: string;
  signUpHere: string;
}

export interface PaintOptions {
  width: number;
  height: number;
  dpr: number;
  view: Viewport;
  palette: TreePalette;
  labels: TreeLabels;
  focusedKey: string | null;
  hoveredKey: string | null;
  /** Member ids whose expansion failed / is loading. */
  errorIds: ReadonlySet<number>;
  busyIds: ReadonlySet<number>;
  signupFromTree: boolean;
  avatars: AvatarCache;
}

export const MIN_ZOOM = 0.05;
export const MAX_ZOOM = 2.5;
/** Below this zoom cards are drawn without text. */
export const DETAIL_ZOOM = 0.42;
export const BADGE_RADIUS = 11;

export const clampZoom = (k: number) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, k));

/** Layout rectangle visible through the viewport (with a margin of one card). */
export function visibleRect(view: Viewport, width: number, height: number) {
  return {
    minX: -view.x / view.k - NODE_WIDTH,
    maxX: (width - view.x) / view.k + NODE_WIDTH,
    minY: -view.y / view.k - NODE_HEIGHT,
    maxY: (height - view.y) / view.k + NODE_HEIGHT,
  };
}

/** The items whose boxes meet the viewport. */
export function visibleItems(layout: TreeLayout, view: Viewport, width: number, height: number): LayoutItem[] {
  const r = visibleRect(view, width, height);
  const out: LayoutItem[] = [];
  for (const it of layout.items) if (it.x >= r.minX && it.x <= r.maxX && it.y >= r.minY && it.y <= r.maxY) out.push(it);
  return out;
}

/** Zoom by `factor` keeping the screen point (sx, sy) still. */
export function zoomAt(view: Viewport, factor: number, sx: number, sy: number): Viewport {
  const k = clampZoom(view.k * factor);
  const f = k / view.k;
  return { k, x: sx - (sx - view.x) * f, y: sy - (sy - view.y) * f };
}

/** Screen point → layout point. */
export const toLayout = (view: Viewport, sx: number, sy: number) => ({ x: (sx - view.x) / view.k, y: (sy - view.y) / view.k });

/** Avatars as images, loaded once each; `onLoad` asks for a repaint. */
export class AvatarCache {
  private images = new Map<string, HTMLImageElement | null>();
  constructor(private onLoad: () => void) {}
  get(url: string | null): HTMLImageElement | null {
    if (!url || typeof Image === 'undefined') return null;
    if (this.images.has(url)) {
      const img = this.images.get(url)!;
      return img && img.complete && img.naturalWidth > 0 ? img : null;
    }
    const img = new Image();
    img.decoding = 'async';
    img.onload = () => this.onLoad();
    img.onerror = () => this.images.set(url, null);
    img.src = url;
    this.images.set(url, img);
    return null;
  }
}

const fitCache = new Map<string, string>();
/** Text cut with an ellipsis to fit `max` pixels in the current font (cached per font and text). */
function fit(ctx: CanvasRenderingContext2D, text: string, max: number): string {
  const key = `${ctx.font}|${max}|${text}`;
  const hit = fitCache.get(key);
  if (hit !== undefined) return hit;
  let out = text;
  if (ctx.measureText(text).width > max) {
    let lo = 0;
    let hi = text.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (ctx.measureText(text.slice(0, mid) + '…').width <= max) lo = mid;
      else hi = mid - 1;
    }
    out = text.slice(0, lo) + '…';
  }
  if (fitCache.size > 50_000) fitCache.clear();
  fitCache.set(key, out);
  return out;
}

function roundRect(ctx: CanvasRenderingContext2D, x: number, y: number, w: number, h: number, r: number) {
  ctx.beginPath();
  ctx.moveTo(x + r, y);
  ctx.arcTo(x + w, y, x + w, y + h, r);
  ctx.arcTo(x + w, y + h, x, y + h, r);
  ctx.arcTo(x, y + h, x, y, r);
  ctx.arcTo(x, y, x + w, y, r);
  ctx.closePath();
}

export function initialsOf(first: string, last: string | null): string {
  return ((first.trim()[0] ?? '') + ((last ?? '').trim()[0] ?? '')).toUpperCase() || '?';
}

/** Paints one frame; answers how many items were drawn (the rest were culled). */
export function paintTree(ctx: CanvasRenderingContext2D, layout: TreeLayout, o: PaintOptions): number {
  const { view, palette: p } = o;
  ctx.setTransform(o.dpr, 0, 0, o.dpr, 0, 0);
  ctx.fillStyle = p.background;
  ctx.fillRect(0, 0, o.width, o.height);
  ctx.setTransform(o.dpr * view.k, 0, 0, o.dpr * view.k, o.dpr * view.x, o.dpr * view.y);
  const r = visibleRect(view, o.width, o.height);
  const detail = view.k >= DETAIL_ZOOM;
  const halfH = NODE_HEIGHT / 2;

  // Links as one path: parent bottom → elbow → child top.
  ctx.beginPath();
  for (const l of layout.links) {
    if (Math.max(l.x1, l.x2) < r.minX || Math.min(l.x1, l.x2) > r.maxX || l.y2 < r.minY || l.y1 > r.maxY) continue;
    const midY = (l.y1 + halfH + l.y2 - halfH) / 2;
    ctx.moveTo(l.x1, l.y1 + halfH);
    ctx.lineTo(l.x1, midY);
    ctx.lineTo(l.x2, midY);
    ctx.lineTo(l.x2, l.y2 - halfH);
  }
  ctx.strokeStyle = p.link;
  ctx.lineWidth = 1.5 / Math.max(view.k, 0.5);
  ctx.stroke();

  let drawn = 0;
  for (const it of layout.items) {
    if (it.x < r.minX || it.x > r.maxX || it.y < r.minY || it.y > r.maxY) continue;
    drawn++;
    if (it.kind === 'empty') paintEmpty(ctx, it, o, detail);
    else paintMember(ctx, it, o, detail);
  }
  return drawn;
}

function paintEmpty(ctx: CanvasRenderingContext2D, it: LayoutItem, o: PaintOptions, detail: boolean) {
  const { palette: p, labels } = o;
  const w = EMPTY_WIDTH;
  const h = NODE_HEIGHT - 24;
  roundRect(ctx, it.x - w / 2, it.y - h / 2, w, h, 10);
  ctx.setLineDash([6, 5]);
  ctx.strokeStyle = o.focusedKey === it.key || o.hoveredKey === it.key ? p.primary : p.dimmed;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  ctx.setLineDash([]);
  if (!detail) return;
  ctx.fillStyle = p.dimmed;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `500 12px ${p.font}`;
  const leg = it.position === 'L' ? labels.left : it.position === 'R' ? labels.right : `#${(it.slot ?? 0) + 1}`;
  ctx.fillText(fit(ctx, `${leg} · ${labels.empty}`, w - 12), it.x, it.y - (o.signupFromTree ? 8 : 0));
  if (o.signupFromTree) {
    ctx.fillStyle = p.primary;
    ctx.font = `600 12px ${p.font}`;
    ctx.fillText(fit(ctx, labels.signUpHere, w - 12), it.x, it.y + 10);
  }
}

function paintMember(ctx: CanvasRenderingContext2D, it: LayoutItem, o: PaintOptions, detail: boolean) {
  const { palette: p } = o;
  const n = it.node!;
  const x0 = it.x - NODE_WIDTH / 2;
  const y0 = it.y - NODE_HEIGHT / 2;
  const highlighted = o.focusedKey === it.key || o.hoveredKey === it.key;
  roundRect(ctx, x0, y0, NODE_WIDTH, NODE_HEIGHT, 12);
  ctx.fillStyle = p.card;
  ctx.fill();
  ctx.strokeStyle = highlighted ? p.primary : p.border;
  ctx.lineWidth = highlighted ? 2.5 : 1;
  ctx.stroke();
  // Status stripe on the left edge.
  ctx.fillStyle = n.status === 1 ? p.active : p.inactive;
  ctx.fillRect(x0 + 1, y0 + 10, 4, NODE_HEIGHT - 20);

  const hasError = o.errorIds.has(n.id);
  const busy = o.busyIds.has(n.id);
  if (it.expandable || it.expanded || hasError || busy) {
    const by = y0 + NODE_HEIGHT + 2;
    ctx.beginPath();
    ctx.arc(it.x, by, BADGE_RADIUS, 0, Math.PI * 2);
    ctx.fillStyle = hasError ? p.error : p.primary;
    ctx.fill();
    if (detail) {
      ctx.fillStyle = '#ffffff';
      ctx.font = `700 14px ${p.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(hasError ? '↻' : busy ? '…' : it.expandable ? '+' : '−', it.x, by + 1);
    }
  }
  if (!detail) return;

  // Avatar (image or initials).
  const ax = x0 + 30;
  const ay = y0 + 28;
  const img = o.avatars.get(n.avatar);
  ctx.save();
  ctx.beginPath();
  ctx.arc(ax, ay, 18, 0, Math.PI * 2);
  ctx.clip();
  if (img) ctx.drawImage(img, ax - 18, ay - 18, 36, 36);
  else {
    ctx.fillStyle = p.primary;
    ctx.fillRect(ax - 18, ay - 18, 36, 36);
    ctx.fillStyle = '#ffffff';
    ctx.font = `600 13px ${p.font}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(initialsOf(n.first_name, n.last_name), ax, ay + 1);
  }
  ctx.restore();

  const tx = x0 + 56;
  const tw = NODE_WIDTH - 64;
  ctx.textAlign = 'left';
  ctx.textBaseline = 'alphabetic';
  ctx.fillStyle = p.text;
  ctx.font = `700 13px ${p.font}`;
  ctx.fillText(fit(ctx, n.username, tw), tx, y0 + 24);
  ctx.fillStyle = p.dimmed;
  ctx.font = `400 12px ${p.font}`;
  ctx.fillText(fit(ctx, [n.first_name, (n.last_name ?? '').trim()].filter(Boolean).join(' '), tw), tx, y0 + 40);
  const lx = x0 + 12;
  const lw = NODE_WIDTH - 20;
  ctx.fillStyle = p.text;
  ctx.font = `500 12px ${p.font}`;
  ctx.fillText(fit(ctx, [n.rank_name, n.package_name].filter(Boolean).join(' · ') || '—', lw), lx, y0 + 64);
  ctx.fillStyle = n.status === 1 ? p.active : p.inactive;
  ctx.font = `600 11px ${p.font}`;
  ctx.fillText(fit(ctx, n.status === 1 ? o.labels.active : o.labels.inactive, lw), lx, y0 + 81);
}
