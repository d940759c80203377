/**
 * The browser's sanitiser (DOMPurify configured from src/lib/html-policy.ts): every input of the shared
 * corpus gets the result the server's sanitiser gives it (tests/server/home-sanitize.test.ts), the
 * component shows the cleaned markup, and without a DOM (a render on the server) it shows nothing.
 */
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { SafeHtml, sanitizeHtml } from '../../src/views/home/safe-html';
import { describeCorpus } from '../support/html-corpus';
import { renderUi } from '../support/render-ui';

describeCorpus('the shared corpus (the server gives the same results)', sanitizeHtml);

describe('SafeHtml', () => {
  it('shows the cleaned article: its text, its link opening in a new tab, its alignment, no script', () => {
    renderUi(
      <SafeHtml
        className="upline-article"
        html={'<h1 class="align-center">Launch</h1><p onclick="alert(1)">Read <a href="https://upline.example/news">the news</a><script>alert(1)</script></p><img src="x" onerror="alert(1)">'}
      />,
    );
    const heading = screen.getByRole('heading', { level: 2, name: 'Launch' });
    expect(heading).toHaveClass('align-center');
    const link = screen.getByRole('link', { name: 'the news' });
    expect(link).toHaveAttribute('href', 'https://upline.example/news');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    expect(link.closest('p')).not.toHaveAttribute('onclick');
    expect(document.querySelector('script, img')).toBeNull();
  });

  it('renders nothing where there is no DOM (a render on the server)', async () => {
    vi.resetModules();
    vi.stubGlobal('window', undefined);
    try {
      const { sanitizeHtml: withoutDom } = await import('../../src/views/home/safe-html');
      expect(withoutDom('<p>Hello</p>')).toBe('');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
