import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Config } from '../config.js';
import {
  type DocumentStorage,
  isStorageKey,
  measuring,
  newStorageKey,
  type StoredFile,
} from './stored-file.js';

/** Objects live under this prefix, so the bucket can hold other things too. */
const PREFIX = 'documents/';

function isMissing(err: unknown): boolean {
  if (err instanceof S3ServiceException) {
    return err.name === 'NoSuchKey' || err.name === 'NotFound' || err.$metadata.httpStatusCode === 404;
  }
  return false;
}

/**
 * Documents in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2…). Credentials: AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY when set, otherwise the SDK's standard chain (profile, container or instance role).
 */
export class S3Storage implements DocumentStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(private readonly config: Config) {
    if (!config.S3_BUCKET) throw new Error('S3_BUCKET is required for DOCUMENT_STORAGE=s3');
    this.bucket = config.S3_BUCKET;
    this.client = new S3Client({
      region: config.S3_REGION,
      ...(config.S3_ENDPOINT ? { endpoint: config.S3_ENDPOINT } : {}),
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      ...(config.AWS_ACCESS_KEY_ID && config.AWS_SECRET_ACCESS_KEY
        ? {
            credentials: {
              accessKeyId: config.AWS_ACCESS_KEY_ID,
              secretAccessKey: config.AWS_SECRET_ACCESS_KEY,
              ...(config.AWS_SESSION_TOKEN ? { sessionToken: config.AWS_SESSION_TOKEN } : {}),
            },
          }
        : {}),
      // Checksums only where S3 requires them: many S3-compatible stores reject the newer trailers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    });
  }

  private objectKey(key: string): string {
    if (!isStorageKey(key)) throw new Error('invalid storage key');
    return PREFIX + key;
  }

  /** A multipart upload streamed in 5 MB parts: the object exists only once the upload completes. */
  async put(source: Readable, extension: string): Promise<StoredFile> {
    const key = newStorageKey(extension);
    const meter = measuring();
    const upload = new Upload({
      client: this.client,
      params: {
        Bucket: this.bucket,
        Key: this.objectKey(key),
        Body: meter.through,
        ContentType: contentTypeOf(extension),
      },
      queueSize: 2,
      partSize: 5 * 1024 * 1024,
      leavePartsOnError: false,
    });
    const feeding = pipeline(source, meter.through);
    try {
      await Promise.all([feeding, upload.done()]);
    } catch (err) {
      await upload.abort().catch(() => {});
      meter.through.destroy();
      await this.remove(key).catch(() => {});
      throw err;
    }
    return { key, ...meter.result() };
  }

  async open(key: string): Promise<Readable | null> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      return (res.Body as Readable | undefined) ?? null;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async read(key: string): Promise<Buffer | null> {
    try {
      const res = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }),
      );
      if (!res.Body) return null;
      return Buffer.from(await res.Body.transformToByteArray());
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async exists(key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
      return true;
    } catch (err) {
      if (isMissing(err)) return false;
      throw err;
    }
  }

  async remove(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: this.objectKey(key) }));
  }

  async presignedUrl(key: string, download: { fileName: string; mimeType: string }): Promise<string | null> {
    if (!this.config.S3_PRESIGNED_DOWNLOADS) return null;
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: this.objectKey(key),
      ResponseContentDisposition: `attachment; filename="${download.fileName.replace(/["\\\r\n]/g, '_')}"`,
      ResponseContentType: download.mimeType,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, command, { expiresIn: this.config.S3_PRESIGNED_SECONDS });
  }

  async keys(): Promise<string[]> {
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await this.client.send(
        new ListObjectsV2Command({ Bucket: this.bucket, Prefix: PREFIX, ContinuationToken: token }),
      );
      for (const o of page.Contents ?? []) {
        const key = o.Key?.slice(PREFIX.length);
        if (key && isStorageKey(key)) keys.push(key);
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
    return keys;
  }

  /**
   * Nothing to do: an interrupted multipart upload never becomes an object, and aborting other uploads
   * here would break another instance's upload in flight. A bucket lifecycle rule
   * (AbortIncompleteMultipartUpload) reclaims their parts.
   */
  async cleanPartials(): Promise<void> {}

  close(): void {
    this.client.destroy();
  }
}

function contentTypeOf(extension: string): string {
  switch (extension) {
    case 'pdf':
      return 'application/pdf';
    case 'png':
      return 'image/png';
    case 'jpg':
      return 'image/jpeg';
    case 'webp':
      return 'image/webp';
    default:
      return 'application/octet-stream';
  }
}
