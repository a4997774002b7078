/**
 * The program's entry for each kind of runtime. Each is source text bundled by esbuild with
 * `./program.ts`: the browser stores its report on `window`, Deno and Bun print it, workerd answers
 * it to a request.
 */
export const ENTRIES = {
  browser: `
    import { runProgram } from './program.ts';
    runProgram(location.origin + '/v1').then(
      (report) => { globalThis.__report = report; },
      (error) => { globalThis.__report = { error: String(error?.stack ?? error) }; },
    );`,
  script: `
    import { runProgram } from './program.ts';
    const baseURL = globalThis.Deno ? globalThis.Deno.args[0] : globalThis.process.argv.at(-1);
    runProgram(baseURL).then(
      (report) => console.log(JSON.stringify(report)),
      (error) => { console.error(String(error?.stack ?? error)); globalThis.Deno ? globalThis.Deno.exit(1) : globalThis.process.exit(1); },
    );`,
  worker: `
    import { runProgram } from './program.ts';
    export default {
      async fetch(request) {
        const baseURL = new URL(request.url).searchParams.get('base');
        if (!baseURL) return new Response('ready');
        try {
          return Response.json(await runProgram(baseURL));
        } catch (error) {
          return Response.json({ error: String(error?.stack ?? error) }, { status: 500 });
        }
      },
    };`,
} as const;

export type EntryKind = keyof typeof ENTRIES;
