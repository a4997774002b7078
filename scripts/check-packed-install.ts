/**
 * Proves the package a user would get works: `npm pack` (its `prepack` builds dist/), then installs
 * the tarball into an empty temporary project and, from there, imports every subpath in
 * `exports` and streams from `rxagent/bedrock` without the AWS packages installed (it must fail
 * with an InvalidRequestError naming them, not at import time).
 *
 *   npm run check:packed
 */
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
  exports: Record<string, unknown>;
  engines: { node: string };
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
};
const optionalPeers = Object.keys(manifest.peerDependenciesMeta ?? {});
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8' });

/** What `npm install rxagent` may bring for an OpenAI-only user: the package, its runtime
 * dependencies (rxjs as the one required peer) and what ajv needs. */
const OPENAI_ONLY = new Set([
  'rxagent',
  'rxjs',
  'tslib',
  'eventsource-parser',
  'zod',
  'ajv',
  'fast-deep-equal',
  'fast-uri',
  'json-schema-traverse',
  'require-from-string',
  // RE2 in pure JavaScript: tool schemas' patterns run in linear time.
  're2js',
]);

/** The packages under `node_modules` (scoped ones by full name) and their bytes on disk. */
function installFootprint(modules: string): { packages: string[]; bytes: number } {
  const packages = readdirSync(modules)
    .filter((name) => !name.startsWith('.'))
    .flatMap((name) =>
      name.startsWith('@') ? readdirSync(join(modules, name)).map((n) => `${name}/${n}`) : [name],
    )
    .sort();
  const bytes = Number(execFileSync('du', ['-sb', modules], { encoding: 'utf8' }).split('\t')[0]);
  return { packages, bytes };
}

/** Streams from rxagent/openai against a one-shot local server speaking OpenAI's SSE. */
const STREAM_PROGRAM = `
  import { createServer } from 'node:http';
  import { openai } from 'rxagent/openai';
  const frame = (delta, finish = null) => 'data: ' + JSON.stringify({ id: 'c', object: 'chat.completion.chunk',
    created: 1, model: 'gpt-4o-mini', choices: [{ index: 0, delta, finish_reason: finish }] }) + '\\n\\n';
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.end(frame({ role: 'assistant', content: 'Hello' }) + frame({ content: ' from Node' }) + frame({}, 'stop') + 'data: [DONE]\\n\\n');
  }).listen(0, '127.0.0.1', async () => {
    const baseURL = 'http://127.0.0.1:' + server.address().port + '/v1';
    const reply = await openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL }).complete({ messages: 'Hi' });
    console.log(reply.text);
    server.close();
  });
`;

const work = await mkdtemp(join(tmpdir(), 'rxagent-packed-'));
try {
  // The prepack build writes to stdout too: the JSON report is what follows its last line "[".
  const output = npm(['pack', '--json', '--pack-destination', work], root);
  const [packed] = JSON.parse(output.slice(output.lastIndexOf('\n[\n') + 1)) as {
    filename: string;
    files: { path: string }[];
  }[];
  if (packed === undefined) throw new Error('npm pack reported no tarball');
  const shipped = new Set(packed.files.map((file) => file.path));
  for (const needed of ['dist/index.js', 'dist/index.d.ts', 'LICENSE', 'README.md', 'package.json']) {
    if (!shipped.has(needed)) throw new Error(`the tarball lacks ${needed}`);
  }
  console.log(`packed ${packed.filename}: ${packed.files.length} files, dist/ and LICENSE included`);

  const project = join(work, 'project');
  await mkdir(project);
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ name: 'consumer', private: true, type: 'module' }),
  );
  npm(['install', '--prefer-offline', join(work, packed.filename)], project);
  const footprint = installFootprint(join(project, 'node_modules'));
  const unexpected = footprint.packages.filter((name) => !OPENAI_ONLY.has(name));
  if (unexpected.length > 0) throw new Error(`an OpenAI-only install pulls more: ${unexpected.join(', ')}`);
  console.log(
    `npm install rxagent: ${footprint.packages.length} packages (${footprint.packages.join(', ')}), ` +
      `${(footprint.bytes / 1e6).toFixed(1)} MB on disk`,
  );

  const subpaths = Object.keys(manifest.exports).filter((key) => key !== './package.json');
  const probe = `
    const optionalPeers = ${JSON.stringify(optionalPeers)};
    const results = [];
    for (const subpath of ${JSON.stringify(subpaths)}) {
      const specifier = 'rxagent' + subpath.slice(1);
      try {
        const module = await import(specifier);
        results.push(specifier + ': ' + Object.keys(module).length + ' exports');
      } catch (error) {
        const peer = optionalPeers.find((name) => String(error?.message).includes("'" + name));
        if (error?.code === 'ERR_MODULE_NOT_FOUND' && peer) results.push(specifier + ': needs the optional peer ' + peer);
        else throw new Error(specifier + ' failed to import: ' + error?.message);
      }
    }
    const { bedrock } = await import('rxagent/bedrock');
    const error = await bedrock('amazon.nova-micro-v1:0', {
      region: 'us-east-1',
      baseURL: 'http://127.0.0.1:9',
      credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
    }).complete({ messages: 'x' }).catch((e) => e);
    if (error?.name !== 'InvalidRequestError' || !String(error.message).includes('@smithy/signature-v4')) {
      throw new Error('bedrock without its AWS packages: ' + String(error));
    }
    results.push('rxagent/bedrock without the AWS packages: ' + error.message);
    console.log(results.join('\\n'));
  `;
  await writeFile(join(project, 'probe.mjs'), probe);
  const report = execFileSync(process.execPath, ['probe.mjs'], { cwd: project, encoding: 'utf8' });
  process.stdout.write(report);

  // The CLI runs without the optional peers (MCP is loaded only for --mcp-config).
  const bin = join(project, 'node_modules', '.bin', 'rxagent');
  const usage = execFileSync(bin, ['--help'], { cwd: project, encoding: 'utf8' });
  if (!usage.startsWith('Usage: rxagent chat')) throw new Error(`rxagent --help printed: ${usage}`);
  console.log('the rxagent bin runs without the optional peers');

  // The oldest Node that `engines` claims, from the npm registry's own Node binary package:
  // every subpath imports there too, and an OpenAI stream runs end to end.
  const oldest = /^>=(\d+\.\d+)(\.\d+)?$/.exec(manifest.engines.node);
  if (!oldest) throw new Error(`engines.node is not ">=x.y": ${manifest.engines.node}`);
  const version = `${oldest[1]}${oldest[2] ?? '.0'}`;
  const oldNode = join(work, 'oldest-node');
  await mkdir(oldNode);
  npm(
    ['install', '--prefix', oldNode, '--no-save', `node-${process.platform}-${process.arch}@${version}`],
    oldNode,
  );
  const oldNodeBin = join(oldNode, 'node_modules', `node-${process.platform}-${process.arch}`, 'bin', 'node');
  await writeFile(join(project, 'stream.mjs'), STREAM_PROGRAM);
  const oldReport = execFileSync(oldNodeBin, ['probe.mjs'], { cwd: project, encoding: 'utf8' });
  const streamed = execFileSync(oldNodeBin, ['stream.mjs'], { cwd: project, encoding: 'utf8' });
  if (oldReport !== report || streamed.trim() !== 'Hello from Node') {
    throw new Error(`on Node ${version}: ${oldReport}\n${streamed}`);
  }
  console.log(
    `on Node ${version} (engines ${manifest.engines.node}): every subpath imports, an OpenAI stream runs`,
  );

  // A strict TypeScript consumer (no skipLibCheck) sees the types of every subpath that imports
  // without an optional peer: none of them may reach an uninstalled package's types.
  const typed = subpaths.filter((subpath) => !report.includes(`rxagent${subpath.slice(1)}: needs`));
  await writeFile(
    join(project, 'consumer.ts'),
    typed.map((subpath, i) => `import * as m${i} from 'rxagent${subpath.slice(1)}';\nvoid m${i};\n`).join(''),
  );
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  const tscArgs = ['--noEmit', '--strict', '--module', 'nodenext', '--target', 'es2023'];
  const types = ['--typeRoots', join(root, 'node_modules', '@types'), '--types', 'node'];
  execFileSync(process.execPath, [tsc, ...tscArgs, ...types, 'consumer.ts'], {
    cwd: project,
    stdio: 'inherit',
  });
  console.log(`types of ${typed.length} subpaths check in a strict consumer without skipLibCheck`);
  console.log('check:packed: ok');
} finally {
  await rm(work, { recursive: true, force: true });
}
