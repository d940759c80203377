/**
 * Painting the genealogy on a <canvas>.
 *
 * Why a canvas and not SVG/DOM: a member may open tens of thousands of nodes. As DOM (or SVG) every node
 * is several elements that the browser styles, lays out and keeps in memory, and every pan or zoom
 * frame touches all of them; at 10 000 nodes that is far beyond a 16 ms frame. The tree is instead:
 *  - laid out once per change of the data with the tidy tree of d3-hierarchy (src/lib/tree-layout.ts,
 *    O(n), over flat typed arrays, so 10 000 nodes lay out in a few milliseconds);
 *  - painted here on one canvas, frame by frame, with culling: only links and nodes whose box meets the
 *    viewport are drawn, so a frame costs what is on screen (a few dozen cards), not what is loaded (the
 *    culling itself reads the layout's typed arrays: no object per node);
 *  - drawn with less detail when zoomed out (`detailAt`), so that no text is ever smaller than 12 CSS
 *    pixels: the full card at 100 % and more, the username and name below that, the initials on a card
 *    filled with the status colour further out, and only status-coloured boxes when even initials would
 *    not be legible;
 *  - with a DOM/ARIA layer only for what needs it: the focused node's focus ring, an aria-live
 *    description of it and the details panel (rendered by the view).
 * Pan and zoom only change the transform (screen = layout × k + offset) and schedule one paint per
 * animation frame; React does not re-render while panning.
 */
import { EMPTY, EMPTY_WIDTH, FEWER, MORE, EXPANDABLE, EXPANDED, NODE_HEIGHT, NODE_WIDTH, type TreeLayout } from './tree-layout';
import type { TreeNode } from '../schemas/network.schema';

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
  /** Text on a card filled with the active or inactive colour (readable on both). */
  onStatus: string;
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
  /** "+ {{count}} more" of a wide level. */
  more: (count: number) => string;
  fewer: string;
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
export const BADGE_RADIUS = 11;
/** No text on the tree is drawn smaller than this many CSS pixels. */
export const MIN_TEXT_PX = 12;

/**
 * How much of a card is drawn at zoom `k`, each level keeping every text at MIN_TEXT_PX or more:
 * - full: avatar, username, name, rank and package, status (the card's own type sizes, at 100 % or more);
 * - names: username and, when the card is tall enough, the name, at 12–13 screen pixels;
 * - initials: the initials on a card filled with the status colour;
 * - blocks: status-coloured boxes only (too small for any legible text).
 */
export type TreeDetail = 'full' | 'names' | 'initials' | 'blocks';
/** From this zoom a card is wide enough for a username at 12 px. */
export const NAMES_ZOOM = 0.55;
/** From this zoom a card is tall enough for its initials at 12 px (with a margin). */
export const INITIALS_ZOOM = (MIN_TEXT_PX + 2) / NODE_HEIGHT;

export function detailAt(k: number): TreeDetail {
  if (k >= 1) return 'full';
  if (k >= NAMES_ZOOM) return 'names';
  if (k >= INITIALS_ZOOM) return 'initials';
  return 'blocks';
}

/**
 * The view a newly shown tree opens at: the member at the top, centred over both legs (the first
 * level below), as large as shows them, and as many levels as fit while names stay legible (the whole
 * tree when it fits at that size). When the legs are too far apart for names, the zoom goes down to the
 * initials (never below): a phone still shows more than the member.
 */
export function initialView(layout: TreeLayout, width: number, height: number): Viewport {
  if (!layout.size || !width || !height) return { x: width / 2, y: 24, k: 1 };
  const { x, y, bounds: b } = layout;
  let minX = x[0];
  let maxX = x[0];
  for (let c = layout.childStart[0], end = c + layout.childCount[0]; c < end; c++) {
    minX = Math.min(minX, x[c]);
    maxX = Math.max(maxX, x[c]);
  }
  const fitK = Math.min(width / (b.maxX - b.minX + 40), height / (b.maxY - b.minY + 60));
  const legsK = width / (maxX - minX + NODE_WIDTH + 40);
  const k = Math.max(INITIALS_ZOOM, Math.min(1, legsK, Math.max(fitK, NAMES_ZOOM)));
  return { k, x: width / 2 - ((minX + maxX) / 2) * k, y: 24 + (NODE_HEIGHT / 2) * k - y[0] * k };
}

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

/** Indices of the items whose boxes meet the viewport. */
export function visibleItems(layout: TreeLayout, view: Viewport, width: number, height: number): number[] {
  const r = visibleRect(view, width, height);
  const { x, y } = layout;
  const out: number[] = [];
  for (let i = 0; i < layout.size; i++) if (x[i] >= r.minX && x[i] <= r.maxX && y[i] >= r.minY && y[i] <= r.maxY) out.push(i);
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
  const detail = detailAt(view.k);
  const halfH = NODE_HEIGHT / 2;
  const { x, y, parent, size } = layout;
  const focused = o.focusedKey ? layout.indexOf(o.focusedKey) : -1;
  const hovered = o.hoveredKey ? layout.indexOf(o.hoveredKey) : -1;

  // Links as one path: parent bottom → elbow → child top.
  ctx.beginPath();
  for (let i = 1; i < size; i++) {
    const q = parent[i];
    const x1 = x[q];
    const y1 = y[q];
    const x2 = x[i];
    const y2 = y[i];
    if (Math.max(x1, x2) < r.minX || Math.min(x1, x2) > r.maxX || y2 < r.minY || y1 > r.maxY) continue;
    const midY = (y1 + halfH + y2 - halfH) / 2;
    ctx.moveTo(x1, y1 + halfH);
    ctx.lineTo(x1, midY);
    ctx.lineTo(x2, midY);
    ctx.lineTo(x2, y2 - halfH);
  }
  ctx.strokeStyle = p.link;
  ctx.lineWidth = 1.5 / Math.max(view.k, 0.5);
  ctx.stroke();

  let drawn = 0;
  for (let i = 0; i < size; i++) {
    if (x[i] < r.minX || x[i] > r.maxX || y[i] < r.minY || y[i] > r.maxY) continue;
    drawn++;
    const highlighted = i === focused || i === hovered;
    if (layout.kind[i] === EMPTY) paintEmpty(ctx, layout, i, o, detail, highlighted);
    else if (layout.kind[i] === MORE || layout.kind[i] === FEWER) paintGroup(ctx, layout, i, o, detail, highlighted);
    else paintMember(ctx, layout, i, o, detail, highlighted);
  }
  return drawn;
}

/** The outline of a place that is not a member's card (an empty place, "+ N more"): traced, not yet painted. */
function slotBox(ctx: CanvasRenderingContext2D, layout: TreeLayout, i: number) {
  const w = EMPTY_WIDTH;
  const h = NODE_HEIGHT - 24;
  const cx = layout.x[i];
  const cy = layout.y[i];
  roundRect(ctx, cx - w / 2, cy - h / 2, w, h, 10);
  return { w, h, cx, cy };
}

function paintEmpty(ctx: CanvasRenderingContext2D, layout: TreeLayout, i: number, o: PaintOptions, detail: TreeDetail, highlighted: boolean) {
  const { palette: p, labels } = o;
  const { w, h, cx, cy } = slotBox(ctx, layout, i);
  ctx.setLineDash([6, 5]);
  ctx.strokeStyle = highlighted ? p.primary : p.dimmed;
  ctx.lineWidth = 1.5;
  ctx.stroke();
  ctx.setLineDash([]);
  // The slot's words need the full card, or its 12 px text scaled up to stay 12 px on screen.
  if (detail === 'blocks' || detail === 'initials') return;
  const px = MIN_TEXT_PX / Math.min(1, o.view.k);
  ctx.fillStyle = p.dimmed;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `500 ${px}px ${p.font}`;
  const leg = layout.legs[i] === 1 ? labels.left : layout.legs[i] === 2 ? labels.right : `#${Math.max(0, layout.slots[i]) + 1}`;
  const twoLines = o.signupFromTree && h >= px * 2.6;
  ctx.fillText(fit(ctx, `${leg} · ${labels.empty}`, w - 12), cx, cy - (twoLines ? px * 0.7 : 0));
  if (twoLines) {
    ctx.fillStyle = p.primary;
    ctx.font = `600 ${px}px ${p.font}`;
    ctx.fillText(fit(ctx, labels.signUpHere, w - 12), cx, cy + px * 0.8);
  }
}

/** "+ N more" or "fewer" of a wide level. */
function paintGroup(ctx: CanvasRenderingContext2D, layout: TreeLayout, i: number, o: PaintOptions, detail: TreeDetail, highlighted: boolean) {
  const { palette: p, labels } = o;
  const { w, cx, cy } = slotBox(ctx, layout, i);
  ctx.fillStyle = p.card;
  ctx.fill();
  ctx.strokeStyle = highlighted ? p.focus : p.primary;
  ctx.lineWidth = highlighted ? 2.5 : 1.5;
  ctx.stroke();
  // Words need the full card or the names zoom (12 px text scaled up to stay 12 px on screen).
  if (detail === 'blocks' || detail === 'initials') return;
  const more = layout.kind[i] === MORE;
  const px = MIN_TEXT_PX / Math.min(1, o.view.k);
  ctx.fillStyle = p.primary;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.font = `600 ${px}px ${p.font}`;
  const text = more ? labels.more(layout.slots[i]) : labels.fewer;
  ctx.fillText(fit(ctx, text, w - 12), cx, cy);
}

function paintMember(ctx: CanvasRenderingContext2D, layout: TreeLayout, i: number, o: PaintOptions, detail: TreeDetail, highlighted: boolean) {
  const { palette: p } = o;
  const n = layout.node(i) as TreeNode;
  const cx = layout.x[i];
  const x0 = cx - NODE_WIDTH / 2;
  const y0 = layout.y[i] - NODE_HEIGHT / 2;
  const statusColour = n.status === 1 ? p.active : p.inactive;
  const small = detail === 'initials' || detail === 'blocks';
  roundRect(ctx, x0, y0, NODE_WIDTH, NODE_HEIGHT, 12);
  // Far out, the card itself is the status colour (a stripe would be a hairline).
  ctx.fillStyle = small ? statusColour : p.card;
  ctx.fill();
  ctx.strokeStyle = highlighted ? p.primary : p.border;
  ctx.lineWidth = highlighted ? 2.5 : 1;
  ctx.stroke();
  // Status stripe on the left edge (wider when the card is drawn smaller).
  if (!small) {
    ctx.fillStyle = statusColour;
    ctx.fillRect(x0 + 1, y0 + 10, detail === 'full' ? 4 : 8, NODE_HEIGHT - 20);
  }

  const hasError = o.errorIds.has(n.id);
  const busy = o.busyIds.has(n.id);
  const expandable = (layout.flags[i] & EXPANDABLE) !== 0;
  const expanded = (layout.flags[i] & EXPANDED) !== 0;
  if (expandable || expanded || hasError || busy) {
    const by = y0 + NODE_HEIGHT + 2;
    ctx.beginPath();
    ctx.arc(cx, by, BADGE_RADIUS, 0, Math.PI * 2);
    ctx.fillStyle = hasError ? p.error : p.primary;
    ctx.fill();
    if (detail === 'full') {
      ctx.fillStyle = '#ffffff';
      ctx.font = `700 14px ${p.font}`;
      ctx.textAlign = 'center';
      ctx.textBaseline = 'middle';
      ctx.fillText(hasError ? '↻' : busy ? '…' : expandable ? '+' : '−', cx, by + 1);
    }
  }
  if (detail === 'blocks') return;
  const k = o.view.k;
  if (detail === 'initials') {
    // The initials on the status colour, as large as the card allows (never under 12 px on screen).
    ctx.fillStyle = p.onStatus;
    ctx.font = `700 ${Math.min(NODE_HEIGHT * 0.6, Math.max(MIN_TEXT_PX / k, 0.5 * NODE_HEIGHT))}px ${p.font}`;
    ctx.textAlign = 'center';
    ctx.textBaseline = 'middle';
    ctx.fillText(initialsOf(n.first_name, n.last_name), cx, layout.y[i] + 1);
    return;
  }
  if (detail === 'names') {
    // Username (13 px on screen) and, when the card is tall enough, the name (12 px on screen).
    const user = 13 / k;
    const name = MIN_TEXT_PX / k;
    const tx = x0 + 16;
    const tw = NODE_WIDTH - 24;
    const both = NODE_HEIGHT >= user + name + 16 / k;
    ctx.textAlign = 'left';
    ctx.textBaseline = 'middle';
    ctx.fillStyle = p.text;
    ctx.font = `700 ${user}px ${p.font}`;
    ctx.fillText(fit(ctx, n.username, tw), tx, layout.y[i] - (both ? name * 0.6 : 0));
    if (both) {
      ctx.fillStyle = p.dimmed;
      ctx.font = `400 ${name}px ${p.font}`;
      ctx.fillText(fit(ctx, [n.first_name, (n.last_name ?? '').trim()].filter(Boolean).join(' '), tw), tx, layout.y[i] + user * 0.65);
    }
    return;
  }

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
  ctx.font = `600 12px ${p.font}`;
  ctx.fillText(fit(ctx, n.status === 1 ? o.labels.active : o.labels.inactive, lw), lx, y0 + 81);
}
