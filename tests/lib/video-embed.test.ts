/** The intro video address: a known player, a plain video file, or nothing — never a script or an unknown frame. */
import { describe, expect, it } from 'vitest';
import { videoSource } from '../../src/lib/video-embed';

describe('videoSource', () => {
  it('turns YouTube addresses into the privacy-enhanced player', () => {
    for (const url of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com/watch?v=dQw4w9WgXcQ&t=10',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ',
    ]) {
      expect(videoSource(url), url).toEqual({ kind: 'youtube', id: 'dQw4w9WgXcQ', embed: 'https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0' });
    }
  });

  it('turns Vimeo addresses into the player without tracking', () => {
    expect(videoSource('https://vimeo.com/76979871')).toMatchObject({ kind: 'vimeo', embed: 'https://player.vimeo.com/video/76979871?dnt=1' });
    expect(videoSource('https://player.vimeo.com/video/76979871')).toMatchObject({ kind: 'vimeo', id: '76979871' });
    expect(videoSource('https://vimeo.com/76979871/a1b2c3d4e5')).toMatchObject({ embed: 'https://player.vimeo.com/video/76979871?dnt=1&h=a1b2c3d4e5' });
  });

  it('plays a video file over https', () => {
    expect(videoSource('https://cdn.example.com/intro.mp4')).toEqual({ kind: 'file', src: 'https://cdn.example.com/intro.mp4', type: 'video/mp4' });
    expect(videoSource('https://cdn.example.com/v/intro.WEBM?x=1')).toMatchObject({ kind: 'file', type: 'video/webm' });
  });

  it('refuses everything else', () => {
    for (const url of [
      null,
      '',
      'not a url',
      'javascript:alert(1)',
      'javascript:alert(1)//https://youtu.be/dQw4w9WgXcQ',
      'data:text/html,<script>alert(1)</script>',
      'data:video/mp4;base64,AAAA',
      'http://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'http://cdn.example.com/intro.mp4',
      'https://evil.example.com/embed/dQw4w9WgXcQ',
      'https://www.youtube.com.evil.example/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/watch?v=short',
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ"><script>',
      'https://vimeo.com/not-a-number',
      'https://user:pass@cdn.example.com/intro.mp4',
      'https://cdn.example.com/intro.html',
      'https://cdn.example.com/intro.svg',
    ]) {
      expect(videoSource(url), String(url)).toBeNull();
    }
  });
});
