import { createHash, createHmac } from 'node:crypto';
import type { RecordedRequest } from '../../support/transcript-server.ts';

/**
 * An independent AWS Signature V4 check of a request as the server received it, written from the
 * AWS documentation ("Create a signed AWS API request") with node:crypto, so the provider's signer
 * is checked against the spec rather than against itself. Returns the expected signature and
 * the parsed parts; throws when a signed header is missing.
 */
export function verifySigV4(
  request: RecordedRequest,
  credentials: { accessKeyId: string; secretAccessKey: string },
) {
  const header = (name: string): string => {
    const value = request.headers[name];
    if (typeof value !== 'string') throw new Error(`missing header ${name}`);
    return value;
  };
  const auth =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, SignedHeaders=([^,]+), Signature=([0-9a-f]{64})$/.exec(
      header('authorization'),
    );
  if (!auth) throw new Error(`malformed authorization header: ${header('authorization')}`);
  const [, accessKeyId, date, region, service, signedHeaders, signature] = auth as unknown as string[];
  const amzDate = header('x-amz-date');

  const [path = '', rawQuery = ''] = request.url.split('?');
  // Non-S3 services: every path segment URI-encoded again (the path arrives encoded once).
  const canonicalUri = path
    .split('/')
    .map((segment) => encodeRfc3986(segment))
    .join('/');
  const canonicalQuery = rawQuery
    .split('&')
    .filter(Boolean)
    .map((pair) => pair.split('=').map((part) => encodeRfc3986(decodeURIComponent(part))))
    .sort(([a = ''], [b = '']) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v = '']) => `${k}=${v}`)
    .join('&');
  const names = (signedHeaders as string).split(';');
  const canonicalHeaders = names
    .map((name) => `${name}:${header(name).trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const payloadHash = sha256(request.body);
  const canonicalRequest = [
    request.method,
    canonicalUri,
    canonicalQuery,
    canonicalHeaders,
    signedHeaders,
    payloadHash,
  ].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  let key: Buffer = hmac(`AWS4${credentials.secretAccessKey}`, date as string);
  for (const part of [region as string, service as string, 'aws4_request']) key = hmac(key, part);
  const expected = createHmac('sha256', key).update(stringToSign, 'utf8').digest('hex');
  return {
    valid: expected === signature && accessKeyId === credentials.accessKeyId,
    accessKeyId,
    date,
    region,
    service,
    amzDate,
    signedHeaders: names,
    payloadHash,
    signature,
    expected,
  };
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const encodeRfc3986 = (text: string) =>
  encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
