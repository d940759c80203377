/**
 * The genealogy drawing surface: a canvas painted by src/lib/tree-canvas.ts, pan and zoom by mouse
 * (drag, wheel), touch (drag, pinch) and keyboard, node focus by arrow keys with a DOM focus ring and an
 * aria-live description of the focused node. The transform lives in a ref: panning repaints the canvas
 * once per animation frame and never re-renders React.
 */
import { Box, useComputedColorScheme, useMantineTheme } from '@mantine/core';
import {
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent,
  type PointerEvent,
  type Ref,
} from 'react';
import {
  AvatarCache,
  BADGE_RADIUS,
  paintTree,
  toLayout,
  zoomAt,
  detailAt,
  initialView,
  type TreeLabels,
  type TreePalette,
  type Viewport,
} from '../../lib/tree-canvas';
import { NODE_HEIGHT, NODE_WIDTH, EMPTY_WIDTH, hitTest, neighbour, type LayoutItem, type TreeLayout } from '../../lib/tree-layout';


export interface TreeCanvasHandle {
  zoom: (factor: number) => void;
  fit: () => void;
}

export interface TreeCanvasProps {
  layout: TreeLayout;
  labels: TreeLabels;
  ariaLabel: string;
  helpId: string;
  focusedKey: string | null;
  hoveredKey: string | null;
  onFocusKey: (key: string | null) => void;
  onHoverKey: (key: string | null) => void;
  /** Enter or a click on a node's badge: expand / fold / retry; Enter or a click on "more" / "fewer". */
  onToggle: (item: LayoutItem) => void;
  errorIds: ReadonlySet<number>;
  busyIds: ReadonlySet<number>;
  signupFromTree: boolean;
  /** Changes when a new root is drawn: the view recentres on it. */
  rootVersion: number;
  describe: (item: LayoutItem) => string;
  handleRef?: Ref<TreeCanvasHandle>;
  /** Called after each paint with its duration (ms) and the items drawn (for measurements). */
  onPaint?: (ms: number, drawn: number) => void;
}

function usePalette(): TreePalette {
  const theme = useMantineTheme();
  const scheme = useComputedColorScheme('light');
  return useMemo(() => {
    const dark = scheme === 'dark';
    const primary = theme.colors[theme.primaryColor];
    return {
      background: dark ? theme.colors.dark[7] : theme.colors.gray[0],
      card: dark ? theme.colors.dark[6] : theme.white,
      border: dark ? theme.colors.dark[4] : theme.colors.gray[3],
      text: dark ? theme.colors.dark[0] : theme.black,
      dimmed: dark ? theme.colors.dark[2] : theme.colors.gray[6],
      link: dark ? theme.colors.dark[3] : theme.colors.gray[4],
      primary: primary[dark ? 4 : 6],
      active: theme.colors.green[dark ? 5 : 7],
      inactive: theme.colors.red[dark ? 5 : 7],
      onStatus: theme.black,
      error: theme.colors.red[7],
      focus: primary[dark ? 3 : 7],
      font: theme.fontFamily ?? 'sans-serif',
    };
  }, [theme, scheme]);
}

const PAN_STEP = 80;

export function TreeCanvas(props: TreeCanvasProps) {
  const { layout, focusedKey, hoveredKey, onFocusKey, onHoverKey, onToggle } = props;
  const palette = usePalette();
  const boxRef = useRef<HTMLDivElement>(null);
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const ringRef = useRef<HTMLDivElement>(null);
  const view = useRef<Viewport>({ x: 0, y: 0, k: 1 });
  const size = useRef({ width: 0, height: 0 });
  const frame = useRef<number | null>(null);
  const latest = useRef(props);
  latest.current = props;
  const paletteRef = useRef(palette);
  paletteRef.current = palette;
  const [ready, setReady] = useState(false);

  const paint = useCallback(() => {
    frame.current = null;
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    const p = latest.current;
    const { width, height } = size.current;
    if (!canvas || !ctx || !width || !height) return;
    const started = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const drawn = paintTree(ctx, p.layout, {
      width,
      height,
      dpr,
      view: view.current,
      palette: paletteRef.current,
      labels: p.labels,
      focusedKey: p.focusedKey,
      hoveredKey: p.hoveredKey,
      errorIds: p.errorIds,
      busyIds: p.busyIds,
      signupFromTree: p.signupFromTree,
      avatars: avatars.current!,
    });
    // The focus ring follows the focused node.
    const ring = ringRef.current;
    const item = p.focusedKey ? p.layout.get(p.focusedKey) : undefined;
    if (ring) {
      if (item) {
        const { x, y, k } = view.current;
        const w = (item.kind !== 'member' ? EMPTY_WIDTH : NODE_WIDTH) * k;
        const h = (item.kind !== 'member' ? NODE_HEIGHT - 24 : NODE_HEIGHT) * k;
        ring.style.display = 'block';
        ring.style.transform = `translate(${item.x * k + x - w / 2 - 4}px, ${item.y * k + y - h / 2 - 4}px)`;
        ring.style.width = `${w + 8}px`;
        ring.style.height = `${h + 8}px`;
      } else ring.style.display = 'none';
    }
    // What a test or a profiler reads of the view: its zoom and how much of a card it draws.
    const box = boxRef.current;
    if (box) {
      box.dataset.zoom = view.current.k.toFixed(3);
      box.dataset.detail = detailAt(view.current.k);
    }
    const ms = performance.now() - started;
    // On the performance timeline (read by benchmarks and browser profilers): when and how long each paint took.
    performance.mark('genealogy:paint', { startTime: started, detail: { ms, drawn, nodes: p.layout.size } });
    p.onPaint?.(ms, drawn);
  }, []);

  const avatars = useRef<AvatarCache | null>(null);
  avatars.current ??= new AvatarCache(() => schedule());

  const schedule = useCallback(() => {
    if (frame.current === null) frame.current = requestAnimationFrame(paint);
  }, [paint]);

  const fit = useCallback(() => {
    const { width, height } = size.current;
    const b = latest.current.layout.bounds;
    if (!width || !height || !latest.current.layout.size) return;
    const k = Math.min(1, Math.max(0.05, Math.min(width / (b.maxX - b.minX + 40), height / (b.maxY - b.minY + 60))));
    view.current = { k, x: width / 2 - ((b.minX + b.maxX) / 2) * k, y: 24 - b.minY * k };
    schedule();
  }, [schedule]);

  useImperativeHandle(
    props.handleRef,
    () => ({
      zoom: (factor: number) => {
        view.current = zoomAt(view.current, factor, size.current.width / 2, size.current.height / 2);
        schedule();
      },
      fit,
    }),
    [fit, schedule],
  );

  // Size of the canvas follows its box (device pixels for sharp text).
  useEffect(() => {
    const box = boxRef.current;
    const canvas = canvasRef.current;
    if (!box || !canvas) return;
    const resize = () => {
      const width = box.clientWidth;
      const height = box.clientHeight;
      const dpr = window.devicePixelRatio || 1;
      size.current = { width, height };
      canvas.width = Math.round(width * dpr);
      canvas.height = Math.round(height * dpr);
      canvas.style.width = `${width}px`;
      canvas.style.height = `${height}px`;
      setReady(width > 0 && height > 0);
      schedule();
    };
    resize();
    const ro = new ResizeObserver(resize);
    ro.observe(box);
    return () => {
      ro.disconnect();
      if (frame.current !== null) cancelAnimationFrame(frame.current);
      frame.current = null;
    };
  }, [schedule]);

  // A new root: the member at the top over both legs, with as many levels as stay legible (initialView).
  useEffect(() => {
    if (!ready) return;
    const { width, height } = size.current;
    view.current = initialView(layout, width, height);
    schedule();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.rootVersion, ready]);

  // Repaint when what is drawn changes (layout, focus, hover, errors, theme).
  useEffect(schedule, [layout, focusedKey, hoveredKey, props.errorIds, props.busyIds, palette, props.labels, schedule]);

  // Wheel zoom needs a non-passive listener to keep the page from scrolling.
  useEffect(() => {
    const box = boxRef.current;
    if (!box) return;
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = box.getBoundingClientRect();
      const delta = e.deltaMode === 1 ? e.deltaY * 16 : e.deltaY;
      view.current = zoomAt(view.current, Math.exp(-delta * 0.0015), e.clientX - rect.left, e.clientY - rect.top);
      schedule();
    };
    box.addEventListener('wheel', onWheel, { passive: false });
    return () => box.removeEventListener('wheel', onWheel);
  }, [schedule]);

  /* ---------- pointers: drag to pan, pinch to zoom, tap to focus ---------- */
  const pointers = useRef(new Map<number, { x: number; y: number }>());
  const gesture = useRef<{ moved: boolean; startX: number; startY: number; pinch: number | null }>({
    moved: false,
    startX: 0,
    startY: 0,
    pinch: null,
  });

  const local = (e: { clientX: number; clientY: number }) => {
    const rect = boxRef.current!.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  };

  const onPointerDown = (e: PointerEvent) => {
    if (e.button !== 0 && e.pointerType === 'mouse') return;
    (e.currentTarget as Element).setPointerCapture?.(e.pointerId);
    const pt = local(e);
    pointers.current.set(e.pointerId, pt);
    if (pointers.current.size === 1) gesture.current = { moved: false, startX: pt.x, startY: pt.y, pinch: null };
    else if (pointers.current.size === 2) {
      const [a, b] = [...pointers.current.values()];
      gesture.current.pinch = Math.hypot(a.x - b.x, a.y - b.y);
      gesture.current.moved = true;
    }
  };

  const onPointerMove = (e: PointerEvent) => {
    const pt = local(e);
    const prev = pointers.current.get(e.pointerId);
    if (!prev) {
      if (e.pointerType === 'mouse') {
        const l = toLayout(view.current, pt.x, pt.y);
        const hit = hitTest(layout, l.x, l.y);
        const key = hit ? hit.key : null;
        if (key !== latest.current.hoveredKey) onHoverKey(key);
      }
      return;
    }
    pointers.current.set(e.pointerId, pt);
    if (pointers.current.size === 2 && gesture.current.pinch) {
      const [a, b] = [...pointers.current.values()];
      const dist = Math.hypot(a.x - b.x, a.y - b.y);
      const factor = dist / gesture.current.pinch;
      gesture.current.pinch = dist;
      const mid = { x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 };
      view.current = zoomAt(view.current, factor, mid.x, mid.y);
      // Two fingers moving together also pan (by half each: both pointers report the move).
      view.current = { ...view.current, x: view.current.x + (pt.x - prev.x) / 2, y: view.current.y + (pt.y - prev.y) / 2 };
      schedule();
      return;
    }
    if (!gesture.current.moved && Math.hypot(pt.x - gesture.current.startX, pt.y - gesture.current.startY) > 4) gesture.current.moved = true;
    if (gesture.current.moved) {
      view.current = { ...view.current, x: view.current.x + pt.x - prev.x, y: view.current.y + pt.y - prev.y };
      schedule();
    }
  };

  const onPointerUp = (e: PointerEvent) => {
    const had = pointers.current.delete(e.pointerId);
    if (!had || pointers.current.size > 0 || gesture.current.moved) return;
    const pt = local(e);
    const l = toLayout(view.current, pt.x, pt.y);
    const hit = hitTest(layout, l.x, l.y);
    if (!hit) {
      onFocusKey(null);
      return;
    }
    onFocusKey(hit.key);
    const onBadge = hit.kind === 'member' && Math.hypot(l.x - hit.x, l.y - (hit.y + NODE_HEIGHT / 2 + 2)) <= BADGE_RADIUS + 4;
    if (onBadge || hit.kind === 'more' || hit.kind === 'fewer') onToggle(hit);
    boxRef.current?.focus({ preventScroll: true });
  };

  const onPointerCancel = (e: PointerEvent) => {
    pointers.current.delete(e.pointerId);
  };

  /** Keeps the item on screen (pans by the least amount). */
  const reveal = (key: string | null) => {
    const item = key ? layout.get(key) : undefined;
    if (!item) return;
    const { width, height } = size.current;
    const { x, y, k } = view.current;
    const sx = item.x * k + x;
    const sy = item.y * k + y;
    const mx = (NODE_WIDTH / 2) * k + 16;
    const my = (NODE_HEIGHT / 2) * k + 24;
    let dx = 0;
    let dy = 0;
    if (sx - mx < 0) dx = mx - sx;
    else if (sx + mx > width) dx = width - mx - sx;
    if (sy - my < 0) dy = my - sy;
    else if (sy + my > height) dy = height - my - sy;
    if (dx || dy) {
      view.current = { k, x: x + dx, y: y + dy };
      schedule();
    }
  };

  const onKeyDown = (e: KeyboardEvent) => {
    const arrows: Record<string, 'up' | 'down' | 'left' | 'right'> = {
      ArrowUp: 'up',
      ArrowDown: 'down',
      ArrowLeft: 'left',
      ArrowRight: 'right',
    };
    const dir = arrows[e.key];
    if (dir) {
      e.preventDefault();
      if (e.shiftKey) {
        const dx = dir === 'left' ? PAN_STEP : dir === 'right' ? -PAN_STEP : 0;
        const dy = dir === 'up' ? PAN_STEP : dir === 'down' ? -PAN_STEP : 0;
        view.current = { ...view.current, x: view.current.x + dx, y: view.current.y + dy };
        schedule();
        return;
      }
      const next = focusedKey && layout.has(focusedKey) ? neighbour(layout, focusedKey, dir) : layout.rootKey;
      if (next) {
        onFocusKey(next);
        reveal(next);
      }
      return;
    }
    if (e.key === '+' || e.key === '=') {
      e.preventDefault();
      view.current = zoomAt(view.current, 1.2, size.current.width / 2, size.current.height / 2);
      schedule();
    } else if (e.key === '-' || e.key === '_') {
      e.preventDefault();
      view.current = zoomAt(view.current, 1 / 1.2, size.current.width / 2, size.current.height / 2);
      schedule();
    } else if (e.key === '0') {
      e.preventDefault();
      fit();
    } else if (e.key === 'Enter' || e.key === ' ') {
      const item = focusedKey ? layout.get(focusedKey) : undefined;
      if (item) {
        e.preventDefault();
        onToggle(item);
      }
    } else if (e.key === 'Escape') onFocusKey(null);
  };

  const onFocus = () => {
    if ((!focusedKey || !layout.has(focusedKey)) && layout.rootKey) onFocusKey(layout.rootKey);
  };

  const focused = focusedKey ? layout.get(focusedKey) : undefined;
  return (
    <Box
      ref={boxRef}
      tabIndex={0}
      role="application"
      aria-roledescription={props.ariaLabel}
      aria-label={props.ariaLabel}
      aria-describedby={props.helpId}
      data-tree-canvas=""
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onPointerCancel={onPointerCancel}
      onPointerLeave={(e) => {
        if (e.pointerType === 'mouse' && latest.current.hoveredKey) onHoverKey(null);
      }}
      onKeyDown={onKeyDown}
      onFocus={onFocus}
      pos="relative"
      h="100%"
      style={{
        overflow: 'hidden',
        touchAction: 'none',
        cursor: 'grab',
        borderRadius: 'var(--mantine-radius-md)',
        outlineOffset: 2,
      }}
    >
      <canvas ref={canvasRef} style={{ display: 'block' }} />
      <div
        ref={ringRef}
        data-focus-ring=""
        aria-hidden="true"
        style={{
          display: 'none',
          position: 'absolute',
          left: 0,
          top: 0,
          pointerEvents: 'none',
          border: `3px solid ${palette.focus}`,
          borderRadius: 14,
          boxShadow: `0 0 0 2px ${palette.background}`,
        }}
      />
      <div aria-live="polite" className="visually-hidden" data-focus-description="" style={visuallyHidden}>
        {focused ? props.describe(focused) : ''}
      </div>
    </Box>
  );
}

const visuallyHidden: CSSProperties = {
  position: 'absolute',
  width: 1,
  height: 1,
  padding: 0,
  margin: -1,
  overflow: 'hidden',
  clip: 'rect(0,0,0,0)',
  whiteSpace: 'nowrap',
  border: 0,
};
