/** A local file shown by the browser (a preview before upload): its object URL, revoked when the file changes or the view goes. */
import { useEffect, useMemo } from 'react';

export function useObjectUrl(file: File | null): string | null {
  const url = useMemo(() => (file && typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (url && URL.revokeObjectURL(url)), [url]);
  return url;
}
