/** Attachment header with a safe ASCII fallback and the UTF-8 name (RFC 6266). */
export function contentDisposition(fileName: string, kind: 'attachment' | 'inline' = 'attachment'): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
