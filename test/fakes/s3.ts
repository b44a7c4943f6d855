import http from 'node:http';
import { createHash, createHmac, randomBytes } from 'node:crypto';

export interface S3Request {
  method: string;
  bucket: string;
  key: string;
  status: number;
  /** The S3 error code we answered with, if any. */
  error?: string;
}

/**
 * An S3-compatible object store on loopback, path-style (`/{bucket}/{key}`): PUT, GET, HEAD and DELETE of
 * objects in one bucket, answering with S3's XML errors. Every request must carry a SigV4
 * Authorization header for our access key, and its signature is checked against the secret, so a
 * client that signs wrongly fails here as it would against MinIO or AWS.
 */
export async function startS3Fake(opts: { bucket?: string; region?: string; accessKeyId?: string; secretAccessKey?: string } = {}) {
  const bucket = opts.bucket ?? 'documents';
  const region = opts.region ?? 'us-east-1';
  const accessKeyId = opts.accessKeyId ?? 'FAKEACCESSKEYID';
  const secretAccessKey = opts.secretAccessKey ?? 'fake-secret-access-key';
  const objects = new Map<string, Buffer>();
  const requests: S3Request[] = [];

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const [rawPath, rawQuery = ''] = req.url!.split('?', 2);
      const [, bucketName = '', ...keyParts] = rawPath.split('/');
      const key = decodeURIComponent(keyParts.join('/'));
      const record: S3Request = { method: req.method!, bucket: bucketName, key, status: 200 };
      requests.push(record);
      const fail = (status: number, code: string, message: string) => {
        Object.assign(record, { status, error: code });
        res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId() });
        // HEAD answers carry no body, as S3's do.
        res.end(req.method === 'HEAD' ? undefined : errorXml(code, message, rawPath));
      };

      const authError = checkSignature(req, rawPath, rawQuery, body, { accessKeyId, secretAccessKey, region });
      if (authError) return fail(...authError);
      if (bucketName !== bucket) return fail(404, 'NoSuchBucket', 'The specified bucket does not exist');
      if (!key) return fail(501, 'NotImplemented', 'Only object operations are implemented by this fake');

      if (req.method === 'PUT') {
        objects.set(key, body);
        res.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"`, 'x-amz-request-id': requestId() });
        return res.end();
      }
      if (req.method === 'GET' || req.method === 'HEAD') {
        const stored = objects.get(key);
        if (!stored) return fail(404, 'NoSuchKey', 'The specified key does not exist.');
        res.writeHead(200, {
          'content-type': 'application/octet-stream',
          'content-length': stored.length,
          etag: `"${createHash('md5').update(stored).digest('hex')}"`,
          'x-amz-request-id': requestId(),
        });
        return res.end(req.method === 'HEAD' ? undefined : stored);
      }
      if (req.method === 'DELETE') {
        // S3 answers 204 whether or not the key existed.
        objects.delete(key);
        res.writeHead(204, { 'x-amz-request-id': requestId() });
        return res.end();
      }
      fail(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  return {
    url,
    bucket,
    region,
    accessKeyId,
    secretAccessKey,
    /** Stored objects of the bucket by key. */
    objects,
    requests,
    /** The configuration that points the service at this store. */
    env: { S3_ENDPOINT: url, S3_BUCKET: bucket, S3_REGION: region, S3_ACCESS_KEY_ID: accessKeyId, S3_SECRET_ACCESS_KEY: secretAccessKey },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

type AuthError = [status: number, code: string, message: string];

/** SigV4 as S3 checks it: credential scope, then the signature over the canonical request. */
function checkSignature(
  req: http.IncomingMessage,
  rawPath: string,
  rawQuery: string,
  body: Buffer,
  expected: { accessKeyId: string; secretAccessKey: string; region: string },
): AuthError | null {
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(
      req.headers.authorization ?? '',
    );
  if (!auth) return [403, 'AccessDenied', 'Access Denied'];
  const [, keyId, date, region, signedHeaders, signature] = auth;
  if (keyId !== expected.accessKeyId)
    return [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'];
  if (region !== expected.region)
    return [400, 'AuthorizationHeaderMalformed', `the region '${region}' is wrong; expecting '${expected.region}'`];
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (!amzDate.startsWith(date) || !payloadHash) return [403, 'AccessDenied', 'x-amz-date and x-amz-content-sha256 are required'];
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) {
    return [400, 'XAmzContentSHA256Mismatch', "The provided 'x-amz-content-sha256' header does not match what was computed."];
  }

  const canonicalHeaders = signedHeaders
    .split(';')
    .map(
      (h) =>
        `${h}:${String(req.headers[h] ?? '')
          .trim()
          .replace(/\s+/g, ' ')}\n`,
    )
    .join('');
  const canonicalRequest = [req.method, rawPath, canonicalQuery(rawQuery), canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = [date, region, 's3', 'aws4_request'].reduce<Buffer | string>(
    (k, part) => hmac(k, part),
    `AWS4${expected.secretAccessKey}`,
  );
  if (hmac(signingKey, stringToSign).toString('hex') !== signature) {
    return [
      403,
      'SignatureDoesNotMatch',
      'The request signature we calculated does not match the signature you provided. Check your key and signing method.',
    ];
  }
  return null;
}

/** Query parameters sorted by name, each name and value encoded as RFC 3986 unreserved-only. */
function canonicalQuery(rawQuery: string): string {
  const encode = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => {
      const eq = pair.includes('=') ? pair.indexOf('=') : pair.length;
      return [encode(decodeURIComponent(pair.slice(0, eq))), encode(decodeURIComponent(pair.slice(eq + 1)))];
    })
    .sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
const requestId = () => randomBytes(8).toString('hex').toUpperCase();
const xmlEscape = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);
const errorXml = (code: string, message: string, resource: string) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${requestId()}</RequestId></Error>`;
