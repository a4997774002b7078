import type * as Sha256Module from '@aws-crypto/sha256-js';
import type * as CodecModule from '@smithy/eventstream-codec';
import type * as SignatureModule from '@smithy/signature-v4';
import type * as Utf8Module from '@smithy/util-utf8';
import { InvalidRequestError } from '../../core/index.ts';

/** The AWS packages Bedrock needs: optional peer dependencies, so only Bedrock users install them. */
export const AWS_PEER_PACKAGES = [
  '@smithy/signature-v4',
  '@smithy/eventstream-codec',
  '@smithy/util-utf8',
  '@aws-crypto/sha256-js',
] as const;

/** What Bedrock uses of {@link AWS_PEER_PACKAGES}. */
export interface AwsModules {
  SignatureV4: typeof SignatureModule.SignatureV4;
  Sha256: typeof Sha256Module.Sha256;
  EventStreamCodec: typeof CodecModule.EventStreamCodec;
  toUtf8: typeof Utf8Module.toUtf8;
  fromUtf8: typeof Utf8Module.fromUtf8;
}

/** How a module is imported; a parameter only so a test can make one missing. */
export type ImportModule = (specifier: string) => Promise<unknown>;

const importModule: ImportModule = (specifier) => import(specifier);

let loaded: Promise<AwsModules> | undefined;

/**
 * Imports the AWS packages on first use (once per process). When one is missing, rejects with an
 * `InvalidRequestError` naming the packages to install; the next call tries again, so installing
 * them needs no restart of a long-running process.
 * @param load the importer. @default dynamic `import()`
 * @example const { SignatureV4, Sha256 } = await loadAwsModules();
 */
export function loadAwsModules(load: ImportModule = importModule): Promise<AwsModules> {
  if (load !== importModule) return importAll(load);
  loaded ??= importAll(load).catch((error: unknown) => {
    loaded = undefined;
    throw error;
  });
  return loaded;
}

async function importAll(load: ImportModule): Promise<AwsModules> {
  try {
    const [signature, codec, utf8, sha] = (await Promise.all(AWS_PEER_PACKAGES.map(load))) as [
      typeof SignatureModule,
      typeof CodecModule,
      typeof Utf8Module,
      typeof Sha256Module,
    ];
    return {
      SignatureV4: signature.SignatureV4,
      Sha256: sha.Sha256,
      EventStreamCodec: codec.EventStreamCodec,
      toUtf8: utf8.toUtf8,
      fromUtf8: utf8.fromUtf8,
    };
  } catch (cause) {
    throw new InvalidRequestError(
      `bedrock: the AWS packages it needs are not installed: npm install ${AWS_PEER_PACKAGES.join(' ')}`,
      { provider: 'bedrock', cause },
    );
  }
}
