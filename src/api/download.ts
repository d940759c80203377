/**
 * File download (spec §7): a GET with a blob answer saved as a file. Only member pages download files, so this
 * is kept out of the client the sign-in page loads.
 */
import type { FetchResponse } from 'ofetch';
import { handleFailure, send, type Query } from './client';
import { DOWNLOAD_URL_LIFETIME_MS, saveFile } from '../lib/save-file';

export { DOWNLOAD_URL_LIFETIME_MS };

function fileNameFrom(res: FetchResponse<unknown>, path: string): string {
  const cd = res.headers.get('content-disposition') ?? '';
  const m = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(cd);
  if (m) return decodeURIComponent(m[1]);
  return path.split('?')[0].split('/').filter(Boolean).pop() ?? 'download';
}

/**
 * File download (spec §7): a GET with a blob answer saved under `fileName` or a name derived from
 * the answer or the path. The object URL is revoked after 40 s (spec §9).
 */
export async function download(path: string, query?: Query, fileName?: string): Promise<string> {
  const res = await send(path, { query }, undefined, false, 'blob');
  if (res.status !== 200 && res.status !== 201) {
    console.error('Download failed:', res.status);
    handleFailure('GET', res, {});
  }
  const name = fileName ?? fileNameFrom(res, path);
  return saveFile(res._data as Blob, name);
}
