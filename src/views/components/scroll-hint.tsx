/**
 * A wide table in a box that scrolls sideways, saying so while part of it is cut off: a line of text
 * above ("Scroll sideways for more columns") and a shadow on the edge that hides columns, both gone once
 * the member has scrolled to the end (or when everything fits).
 */
import { Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function ScrollHint({ children }: { children: ReactNode }) {
  const { t } = useTranslation('common');
  const box = useRef<HTMLDivElement>(null);
  const [cut, setCut] = useState(false);
  const measure = useCallback(() => {
    const el = box.current;
    if (el) setCut(el.scrollWidth - el.clientWidth - el.scrollLeft > 2);
  }, []);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, [measure]);
  return (
    <div>
      {cut && (
        <Text size="xs" c="dimmed" mb={4} data-scroll-hint="">
          {t('scrollHint')} →
        </Text>
      )}
      <div
        ref={box}
        onScroll={measure}
        tabIndex={0}
        role="region"
        aria-label={t('scrollHint')}
        style={{ overflowX: 'auto', boxShadow: cut ? 'inset -14px 0 12px -12px rgba(0,0,0,0.35)' : undefined }}
      >
        {children}
      </div>
    </div>
  );
}
