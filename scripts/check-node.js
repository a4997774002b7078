// Run before the repository's TypeScript scripts (`npm run demo`, `npm run web`): they need the
// project's own Node 24 (the `node` devDependency), which `npm run` puts first on PATH. When npm
// scripts were disabled at install (`npm ci --ignore-scripts`), that binary is missing and the
// machine's older Node would fail with a raw ERR_UNKNOWN_FILE_EXTENSION: say what to do instead.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  console.error(
    `rxagent: this script needs Node >= 22.12, but runs on ${process.version}: the project's own Node ` +
      '(the "node" devDependency) is not installed. Run `npm rebuild node` (or `npm install` without ' +
      '--ignore-scripts), then try again.',
  );
  process.exit(1);
}
