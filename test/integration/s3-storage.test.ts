import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createDiskStorage, createS3Storage, createStorage, StorageNotFoundError } from '../../shared/providers/storage';
import { startS3Fake } from '../fakes/s3';
import { testConfig } from '../support/api';

let s3: Awaited<ReturnType<typeof startS3Fake>>;
let dir: string;

beforeAll(async () => {
  s3 = await startS3Fake();
  dir = await mkdtemp(path.join(os.tmpdir(), 'finops-storage-'));
});
afterAll(async () => {
  await s3?.close();
  await rm(dir, { recursive: true, force: true });
});

const options = () => ({
  endpoint: s3.url,
  bucket: s3.bucket,
  region: s3.region,
  accessKeyId: s3.accessKeyId,
  secretAccessKey: s3.secretAccessKey,
});

describe('S3-compatible storage', () => {
  it('stores bytes in the bucket under the key and reads them back', async () => {
    const storage = createS3Storage(options());
    const bytes = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x10, 0x80]);
    const key = 'team-1/incoming/0123abcd';
    await storage.put(key, bytes);
    expect(s3.objects.get(key)).toEqual(bytes);
    expect(await storage.get(key)).toEqual(bytes);
    expect(s3.requests.filter((r) => r.key === key).map((r) => [r.method, r.bucket, r.status])).toEqual([
      ['PUT', s3.bucket, 200],
      ['GET', s3.bucket, 200],
    ]);
  });

  it('streams a file in and out and removes it, in the bucket and on disk alike', async () => {
    const source = path.join(dir, 'upload.bin');
    const bytes = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    await writeFile(source, bytes);
    for (const storage of [createS3Storage(options()), createDiskStorage(dir)]) {
      const key = 'team-1/documents/streamed.bin';
      await storage.putFile(key, source, bytes.length);
      const opened = await storage.open(key);
      expect(opened.size).toBe(bytes.length);
      const chunks: Buffer[] = [];
      for await (const chunk of opened.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
      await storage.remove(key);
      await expect(storage.open(key)).rejects.toBeInstanceOf(StorageNotFoundError);
      await storage.remove(key); // nothing there is not an error
    }
    expect(s3.objects.has('team-1/documents/streamed.bin')).toBe(false);
  });

  it('rejects a missing key with StorageNotFoundError, as the disk storage does', async () => {
    for (const storage of [createS3Storage(options()), createDiskStorage(dir)]) {
      const error = await storage.get('team-1/nothing-here').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StorageNotFoundError);
      expect(error).toMatchObject({ key: 'team-1/nothing-here' });
    }
  });

  it('is refused with a wrong access key id or secret, and nothing is stored', async () => {
    const wrongId = createS3Storage({ ...options(), accessKeyId: 'SOMEONEELSE' });
    await expect(wrongId.put('team-1/wrong-id', Buffer.from('x'))).rejects.toMatchObject({ name: 'InvalidAccessKeyId' });
    const wrongSecret = createS3Storage({ ...options(), secretAccessKey: 'not-the-secret' });
    await expect(wrongSecret.put('team-1/wrong-secret', Buffer.from('x'))).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    await expect(wrongSecret.get('team-1/anything')).rejects.toMatchObject({ name: 'SignatureDoesNotMatch' });
    expect(s3.objects.has('team-1/wrong-id')).toBe(false);
    expect(s3.objects.has('team-1/wrong-secret')).toBe(false);
  });

  it('treats an unknown bucket as a configuration error, not a missing document', async () => {
    const error = await createS3Storage({ ...options(), bucket: 'no-such-bucket' })
      .get('team-1/x')
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'NoSuchBucket' });
    expect(error).not.toBeInstanceOf(StorageNotFoundError);
  });
});

describe('createStorage(config)', () => {
  it('uses STORAGE_DIR without S3_BUCKET and the bucket with it', async () => {
    const onDisk = createStorage(testConfig({ STORAGE_DIR: dir }));
    await onDisk.put('team-2/a', Buffer.from('disk bytes'));
    expect(await readFile(path.join(dir, 'team-2/a'), 'utf8')).toBe('disk bytes');
    expect(s3.objects.has('team-2/a')).toBe(false);

    const inBucket = createStorage(testConfig({ STORAGE_DIR: dir, ...s3.env }));
    await inBucket.put('team-2/b', Buffer.from('bucket bytes'));
    expect(s3.objects.get('team-2/b')?.toString()).toBe('bucket bytes');
    expect(existsSync(path.join(dir, 'team-2/b'))).toBe(false);
    expect((await inBucket.get('team-2/b')).toString()).toBe('bucket bytes');
  });
});
