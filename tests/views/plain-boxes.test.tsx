/** The first page's images and centred loaders are drawn as Mantine's Image and Center draw them. */
import { Center, Image, Loader } from '@mantine/core';
import type { ReactElement } from 'react';
import { describe, expect, it } from 'vitest';
import { PlainCenter, PlainImage } from '../../src/views/components/plain-boxes';
import { renderUi } from '../support/render-ui';

function same(plain: ReactElement, mantine: ReactElement) {
  // (MantineProvider's <style> elements come first.)
  const p = renderUi(plain).container.lastElementChild!;
  const m = renderUi(mantine).container.lastElementChild!;
  // The class of responsive styles is named after an id made up at render.
  for (const root of [p, m]) for (const el of [root, ...root.querySelectorAll('*')]) if (el.hasAttribute('class')) el.setAttribute('class', el.getAttribute('class')!.replace(/__m__-\S+/g, '__m__'));
  expect(p.outerHTML).toMatch(/^<(img|div)/);
  expect(p.isEqualNode(m), `${p.outerHTML}\n≠\n${m.outerHTML}`).toBe(true);
}

describe('PlainImage', () => {
  it('draws what Image draws: the company logo', () => {
    same(
      <PlainImage src="/logo.png" alt="Acme logo" mah={50} w="auto" fit="contain" mx="auto" />,
      <Image src="/logo.png" alt="Acme logo" mah={50} w="auto" fit="contain" mx="auto" />,
    );
  });

  it('draws what Image draws: an error illustration', () => {
    same(<PlainImage src="/images/maintenance.svg" alt="" h="25vh" w="auto" fit="contain" />, <Image src="/images/maintenance.svg" alt="" h="25vh" w="auto" fit="contain" />);
    same(<PlainImage src="/images/server-error.svg" alt="" h={96} w="auto" fit="contain" />, <Image src="/images/server-error.svg" alt="" h={96} w="auto" fit="contain" />);
  });
});

describe('PlainCenter', () => {
  it('draws what Center draws: the page loader', () => {
    same(
      <PlainCenter mih="100dvh" role="status" aria-live="polite" aria-label="Loading…">
        <Loader aria-hidden="true" />
      </PlainCenter>,
      <Center mih="100dvh" role="status" aria-live="polite" aria-label="Loading…">
        <Loader aria-hidden="true" />
      </Center>,
    );
    same(<PlainCenter inline mih="50vh" />, <Center inline mih="50vh" />);
  });
});
