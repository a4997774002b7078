import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);
const readme = await readFile(new URL('README.md', root), 'utf8');
const manifest = JSON.parse(await readFile(new URL('package.json', root), 'utf8')) as {
  engines: { node: string };
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** The README's "Requirements" and "Use it in your project" sections: what a user installs from. */
const install = readme.slice(readme.indexOf('### Requirements'), readme.indexOf('## What works today'));

describe('the README says truthfully how to install the package', () => {
  it('names the Node version `engines` claims', () => {
    const version = /^>=\s*(\S+)$/.exec(manifest.engines.node)?.[1];
    expect(version).toBeDefined();
    expect(install).toContain(`Node ≥ ${version!}`);
    expect(install).not.toMatch(/Node ≥ 22\.12/);
  });

  it('names every peer dependency a user may have to install', () => {
    for (const name of Object.keys(manifest.peerDependencies)) {
      expect(install, `${name} is not named in the install section`).toContain(name);
    }
  });

  it('has a table of the runtimes it is tested in', () => {
    for (const runtime of ['Node 20.16', 'Chromium', 'Deno', 'Bun', 'workerd'])
      expect(install).toContain(runtime);
  });
});
