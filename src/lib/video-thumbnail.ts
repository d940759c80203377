/**
 * The video-thumbnail builder of spec §7 ("Image URL builders: … video thumbnails"): the picture a video is
 * shown with in a list. The company's own preview image first; otherwise, for a YouTube video, YouTube's
 * still (i.ytimg.com, high quality); for Vimeo, the vumbnail.com still; otherwise none. Only addresses that
 * src/lib/video-embed.ts accepts give a still, so a hostile URL never becomes an image address.
 */
import { videoSource } from './video-embed';

export type ThumbnailSize = 'default' | 'medium' | 'high';
const YOUTUBE_FILE: Record<ThumbnailSize, string> = { default: 'default.jpg', medium: 'mqdefault.jpg', high: 'hqdefault.jpg' };

export function videoThumbnail(video: { url: string | null; image_preview?: string | null }, size: ThumbnailSize = 'high'): string | null {
  if (video.image_preview) return video.image_preview;
  const source = videoSource(video.url);
  if (source?.kind === 'youtube') return `https://i.ytimg.com/vi/${source.id}/${YOUTUBE_FILE[size]}`;
  if (source?.kind === 'vimeo') return `https://vumbnail.com/${source.id}${size === 'high' ? '' : size === 'medium' ? '_medium' : '_small'}.jpg`;
  return null;
}
