import type { ApiEnvelope } from '../app/api';
import { getAccessToken } from '../app/session';
import { openVersion, reportConflict } from '../live/live-bus';
import { MSG } from '../../shared/messages';

export interface UploadFields {
  orderId: number;
  email: string;
  file: File;
  mailServiceProvider: 'AWS' | 'Sendgrid';
}

export interface UploadResult {
  httpStatus: number;
  body: ApiEnvelope;
}

/**
 * Sends the approved document as multipart (spec §7 upload-visa-document). XMLHttpRequest, not fetch,
 * because only it reports upload progress.
 */
export function uploadVisaDocument(
  fields: UploadFields,
  onProgress: (percent: number) => void,
): Promise<UploadResult> {
  return new Promise((resolve) => {
    const form = new FormData();
    form.append('orderId', String(fields.orderId));
    form.append('email', fields.email);
    form.append('mailServiceProvider', fields.mailServiceProvider);
    const version = openVersion(fields.orderId);
    if (version !== undefined) form.append('expectedVersion', String(version));
    // The file goes last so the server has read every text field when the stream starts.
    form.append('uploadVisaDoc', fields.file, fields.file.name);

    const xhr = new XMLHttpRequest();
    xhr.open('POST', '/api/admin/upload-visa-document');
    const token = getAccessToken();
    if (token) xhr.setRequestHeader('Authorization', token);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText, xhr.status);
      if (xhr.status === 409) reportConflict('uploadVisaDocument', { orderId: fields.orderId }, body.message);
      resolve({ httpStatus: xhr.status, body });
    };
    xhr.onerror = () => resolve({ httpStatus: 0, body: { status: 0, message: MSG.networkError } });
    xhr.send(form);
  });
}

function parseEnvelope(text: string, httpStatus: number): ApiEnvelope {
  try {
    const body = JSON.parse(text) as ApiEnvelope;
    if (body && typeof body.message === 'string') return body;
  } catch {
    // A proxy's HTML error page: fall through to a generic message.
  }
  return { status: httpStatus === 401 ? 401 : 0, message: `Upload failed (HTTP ${httpStatus})` };
}
