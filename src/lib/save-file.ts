/** Saves a blob as a file the browser downloads under `name`; the object URL is revoked after 40 s (spec §9). */
export const DOWNLOAD_URL_LIFETIME_MS = 40000;

export function saveFile(blob: Blob, name: string): string {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), DOWNLOAD_URL_LIFETIME_MS);
  return name;
}
