/** The sign-in forms' alerts are drawn as Mantine's light Alert draws them: the same elements, classes and attributes. */
import { Alert } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { LightAlert } from '../../src/views/components/light-alert';
import { renderUi } from '../support/render-ui';

function same(color: string, role?: 'alert' | 'status') {
  // (MantineProvider's <style> elements come first.)
  const p = renderUi(<LightAlert color={color} role={role}>Too many attempts. Wait 30 s.</LightAlert>).container.lastElementChild!;
  const m = renderUi(
    <Alert color={color} variant="light" role={role}>
      Too many attempts. Wait 30 s.
    </Alert>,
  ).container.lastElementChild!;
  // Ids made up by Mantine differ from render to render: the same one on both sides.
  for (const root of [p, m]) {
    const id = root.id;
    expect(id).toMatch(/^mantine-/);
    for (const el of [root, ...root.querySelectorAll('*')])
      for (const attr of ['id', 'aria-describedby']) {
        const v = el.getAttribute(attr);
        if (v) el.setAttribute(attr, v.replace(id, 'x'));
      }
  }
  expect(p.tagName).toBe('DIV');
  expect(p.isEqualNode(m), `${p.outerHTML}\n≠\n${m.outerHTML}`).toBe(true);
}

describe('LightAlert', () => {
  it('draws what Alert draws for an error', () => same('red', 'alert'));
  it('draws what Alert draws for a warning', () => same('yellow', 'alert'));
  it('draws what Alert draws for a status', () => same('teal', 'status'));
});
