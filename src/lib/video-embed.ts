/**
 * The company's intro video URL (module data intro_video_url) as something the page may show: a
 * privacy-enhanced YouTube or Vimeo player, or a plain video file. Anything else — another scheme
 * (javascript:, data:, http:), another host, credentials in the URL, a path that is not a video — is
 * refused (null), so a hostile URL can never become a script or a frame of an unknown site.
 */
export type VideoSource =
  | { kind: 'youtube' | 'vimeo'; id: string; embed: string }
  | { kind: 'file'; src: string; type: string };

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;
const VIMEO_ID = /^\d{1,12}$/;
const VIMEO_HASH = /^[0-9a-f]{6,20}$/;
const FILE_TYPES: Record<string, string> = { mp4: 'video/mp4', m4v: 'video/mp4', webm: 'video/webm', ogv: 'video/ogg', ogg: 'video/ogg', mov: 'video/quicktime' };

function youtubeId(url: URL): string | null {
  if (url.hostname === 'youtu.be') return url.pathname.split('/')[1] ?? null;
  if (!YOUTUBE_HOSTS.has(url.hostname)) return null;
  if (url.pathname === '/watch') return url.searchParams.get('v');
  const m = /^\/(?:embed|shorts|live)\/([^/]+)\/?$/.exec(url.pathname);
  return m ? m[1] : null;
}

function vimeo(url: URL): { id: string; hash: string | null } | null {
  if (!VIMEO_HOSTS.has(url.hostname)) return null;
  const parts = url.pathname.split('/').filter(Boolean);
  const [id, hash] = url.hostname === 'player.vimeo.com' ? (parts[0] === 'video' ? parts.slice(1) : []) : parts;
  if (!id || !VIMEO_ID.test(id)) return null;
  const h = hash ?? url.searchParams.get('h');
  return { id, hash: h && VIMEO_HASH.test(h) ? h : null };
}

export function videoSource(raw: string | null | undefined): VideoSource | null {
  if (!raw) return null;
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'https:' || url.username || url.password) return null;
  const yt = youtubeId(url);
  if (yt !== null) return YOUTUBE_ID.test(yt) ? { kind: 'youtube', id: yt, embed: `https://www.youtube-nocookie.com/embed/${yt}?rel=0` } : null;
  const vm = vimeo(url);
  if (vm) return { kind: 'vimeo', id: vm.id, embed: `https://player.vimeo.com/video/${vm.id}?dnt=1${vm.hash ? `&h=${vm.hash}` : ''}` };
  if (YOUTUBE_HOSTS.has(url.hostname) || VIMEO_HOSTS.has(url.hostname) || url.hostname === 'youtu.be') return null;
  const ext = /\.([a-z0-9]{2,4})$/i.exec(url.pathname)?.[1]?.toLowerCase();
  return ext && FILE_TYPES[ext] ? { kind: 'file', src: url.href, type: FILE_TYPES[ext] } : null;
}
