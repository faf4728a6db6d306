import { type Envelope, uploadWithProgress } from '../transport/api-client';
import { openVersion, reportConflict } from '../live/live-bus';

export interface UploadFields {
  orderId: number;
  email: string;
  file: File;
  mailServiceProvider: 'AWS' | 'Sendgrid';
  /** "Upload, mail and complete": the order also moves to Completed. */
  complete?: boolean;
}

export interface UploadResult {
  httpStatus: number | 'FETCH_ERROR';
  body: Envelope;
}

/** Sends the approved document as multipart (upload-visa-document), reporting the upload's progress. */
export async function uploadVisaDocument(
  fields: UploadFields,
  onProgress: (percent: number) => void,
): Promise<UploadResult> {
  const form = new FormData();
  form.append('orderId', String(fields.orderId));
  form.append('email', fields.email);
  form.append('mailServiceProvider', fields.mailServiceProvider);
  if (fields.complete) form.append('complete', 'true');
  const version = openVersion(fields.orderId);
  if (version !== undefined) form.append('expectedVersion', String(version));
  // The file goes last so the server has read every text field when the stream starts.
  form.append('uploadVisaDoc', fields.file, fields.file.name);

  const result = await uploadWithProgress('admin/upload-visa-document', form, onProgress);
  if (result.ok) return { httpStatus: result.status, body: result.body };
  const { status, data } = result.error;
  if (status === 409) reportConflict('uploadVisaDocument', { orderId: fields.orderId }, data.message);
  return { httpStatus: status, body: data };
}
