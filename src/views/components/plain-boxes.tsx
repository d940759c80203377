/**
 * Mantine's Image (without a fallback source) and Center, drawn exactly as Mantine draws them (the same markup and
 * classes, so the same styles) on Mantine's Box, for the first page's logo, error illustrations and loaders: the two
 * components' styles-API machinery stays with the pages that use them in full. tests/views/plain-boxes.test.tsx
 * holds each to Mantine's markup.
 */
import { Box, type BoxProps, type ElementProps } from '@mantine/core';
import type { CSSProperties } from 'react';

export interface PlainImageProps extends BoxProps, ElementProps<'img'> {
  /** object-fit of the image, as Image's `fit`. */
  fit?: CSSProperties['objectFit'];
}

export function PlainImage({ fit, className, ...others }: PlainImageProps) {
  return (
    <Box
      component="img"
      className={className ? `m_9e117634 mantine-Image-root ${className}` : 'm_9e117634 mantine-Image-root'}
      __vars={{ '--image-object-fit': fit }}
      {...others}
    />
  );
}

export interface PlainCenterProps extends BoxProps, ElementProps<'div'> {
  inline?: boolean;
}

export function PlainCenter({ inline, className, ...others }: PlainCenterProps) {
  return (
    <Box
      mod={{ inline }}
      className={className ? `m_4451eb3a mantine-Center-root ${className}` : 'm_4451eb3a mantine-Center-root'}
      {...others}
    />
  );
}
