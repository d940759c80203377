import { describe, expect, it } from 'vitest';
import { detailAt, initialView, INITIALS_ZOOM, MIN_TEXT_PX, NAMES_ZOOM, visibleItems } from '../../src/lib/tree-canvas';
import { emptyTreeData, layoutTree, mergeAnswer, NODE_HEIGHT, NODE_WIDTH } from '../../src/lib/tree-layout';
import { fullTree } from '../support/network-fixtures';

const binary = (levels: number) => layoutTree(mergeAnswer(emptyTreeData(), fullTree(1, levels, 2, 'binary'), 1, levels), 1, { plan: 'binary', maxWidth: 2 });

/** Screen box of item i under the view. */
function box(layout: ReturnType<typeof binary>, i: number, v: { x: number; y: number; k: number }) {
  return {
    left: (layout.x[i] - NODE_WIDTH / 2) * v.k + v.x,
    right: (layout.x[i] + NODE_WIDTH / 2) * v.k + v.x,
    top: (layout.y[i] - NODE_HEIGHT / 2) * v.k + v.y,
    bottom: (layout.y[i] + NODE_HEIGHT / 2) * v.k + v.y,
  };
}

describe('level of detail', () => {
  it('never draws text under 12 px: names from the zoom where a card holds them, initials further out, then boxes', () => {
    expect(detailAt(1.4)).toBe('full');
    expect(detailAt(1)).toBe('full');
    expect(detailAt(0.8)).toBe('names');
    expect(detailAt(NAMES_ZOOM)).toBe('names');
    expect(detailAt(0.3)).toBe('initials');
    expect(detailAt(INITIALS_ZOOM)).toBe('initials');
    expect(detailAt(0.1)).toBe('blocks');
    // A card at the smallest zoom with initials is still taller than its 12 px initials.
    expect(NODE_HEIGHT * INITIALS_ZOOM).toBeGreaterThan(MIN_TEXT_PX);
    // At the names level a card is wide enough for a username of 8 letters at 12 px (~7 px a letter).
    expect(NODE_WIDTH * NAMES_ZOOM - 24 * NAMES_ZOOM).toBeGreaterThanOrEqual(8 * 7);
  });
});

describe('the view a tree opens at', () => {
  for (const [label, width, height] of [
    ['desktop', 592, 520],
    ['phone', 310, 420],
  ] as const) {
    it(`${label}: the member and both legs are on screen, legibly, with more levels below (the four levels the page loads)`, () => {
      const layout = binary(4);
      const v = initialView(layout, width, height);
      expect(detailAt(v.k)).not.toBe('blocks');
      const kids = [layout.childStart[0], layout.childStart[0] + 1];
      for (const i of [0, ...kids]) {
        const b = box(layout, i, v);
        expect(b.left).toBeGreaterThanOrEqual(0);
        expect(b.right).toBeLessThanOrEqual(width);
        expect(b.top).toBeGreaterThanOrEqual(0);
        expect(b.bottom).toBeLessThanOrEqual(height);
      }
      // More than the member and its legs: the next levels show too.
      const onScreen = visibleItems(layout, v, width, height).filter((i) => box(layout, i, v).bottom <= height);
      expect(new Set(onScreen.map((i) => layout.depth[i])).size).toBeGreaterThanOrEqual(3);
    });
  }

  it('a tree too wide for its legs at a legible size opens at the initials, with the member on screen', () => {
    const layout = binary(7);
    const v = initialView(layout, 310, 420);
    expect(detailAt(v.k)).toBe('initials');
    const b = box(layout, 0, v);
    expect(b.left >= 0 && b.right <= 310 && b.top >= 0).toBe(true);
  });

  it('a small tree that fits whole opens whole, at no more than 100 %', () => {
    const layout = binary(1);
    const v = initialView(layout, 900, 600);
    expect(v.k).toBeLessThanOrEqual(1);
    expect(detailAt(v.k)).toBe('full');
    for (let i = 0; i < layout.size; i++) {
      const b = box(layout, i, v);
      expect(b.left >= 0 && b.right <= 900 && b.bottom <= 600).toBe(true);
    }
  });
});
