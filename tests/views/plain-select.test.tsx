/** The first page's selects are drawn as Mantine's NativeSelect draws them: the same elements, classes and attributes. */
import { NativeSelect } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { PlainSelect, type PlainSelectProps } from '../../src/views/components/plain-select';
import { GlobeIcon } from '../../src/views/components/icons';
import { renderUi } from '../support/render-ui';

const data = [
  { value: '', label: 'Choose', disabled: true },
  { value: 'en', label: 'English' },
  { value: 'es', label: 'Español' },
];

function same(props: Omit<PlainSelectProps, 'data'>) {
  const plain = renderUi(<PlainSelect data={data} {...props} />).container;
  const mantine = renderUi(<NativeSelect data={data} {...props} />).container;
  // (MantineProvider's <style> elements come first.)
  const p = plain.lastElementChild!;
  const m = mantine.lastElementChild!;
  expect(p.tagName).toBe('DIV');
  // Ids made up by Mantine (and the class of responsive styles, named after one) differ from render to render.
  for (const root of [p, m])
    for (const el of [root, ...root.querySelectorAll('*')]) {
      for (const attr of ['id', 'for', 'aria-describedby', 'aria-labelledby']) if (el.hasAttribute(attr)) el.setAttribute(attr, 'x');
      el.setAttribute('class', (el.getAttribute('class') ?? '').replace(/__m__-\S+/g, '__m__'));
    }
  expect(p.outerHTML.length).toBeGreaterThan(100);
  expect(p.isEqualNode(m), `${p.outerHTML}\n≠\n${m.outerHTML}`).toBe(true);
}

describe('PlainSelect', () => {
  it('draws what NativeSelect draws: the language switch', () => {
    same({ 'aria-label': 'Language', title: 'Language', size: 'sm', w: { base: 124, xs: 136 }, leftSection: <GlobeIcon size={16} />, value: 'en', onChange: () => {} });
  });

  it('draws what NativeSelect draws: a labelled select with an error', () => {
    same({ label: 'Code', w: 120, style: { flexShrink: 0 }, value: 'es', onChange: () => {}, error: 'Required', autoComplete: 'tel-country-code' });
  });

  it('draws what NativeSelect draws: without an error, other sizes', () => {
    same({ label: 'Code', size: 'md', value: '', onChange: () => {} });
  });
});
