#!/usr/bin/env node
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../agent/index.ts';
import { fileSessionStore } from '../sessions/index.ts';
import { CliError } from './cli-error.ts';
import { cliModel } from './cli-model.ts';
import { parseCliOptions, USAGE } from './cli-options.ts';
import { oneLine, runChatSession } from './chat-session.ts';
import { connectMcpConfig } from './mcp-config.ts';

/** `rxagent chat`: a terminal chat on an Agent. Resolves with the exit code. */
async function main(argv: readonly string[]): Promise<number> {
  const options = parseCliOptions(argv);
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const model = cliModel(options);
  const home = process.env.RXAGENT_HOME ?? join(homedir(), '.rxagent');
  const sessions =
    options.session === undefined ? undefined : fileSessionStore({ dir: join(home, 'sessions') });
  const history = options.session === undefined ? undefined : await sessions!.get(options.session);
  const mcp =
    options.mcpConfig === undefined
      ? undefined
      : await connectMcpConfig(
          options.mcpConfig,
          options.mcpNegotiation ? { versionNegotiation: options.mcpNegotiation } : {},
        );
  try {
    const agent = new Agent({
      model,
      tools: mcp?.tools ?? [],
      ...(options.system === undefined ? {} : { system: options.system }),
      ...(sessions ? { sessions } : {}),
    });
    const tools = mcp ? `, ${mcp.tools.length} MCP tools` : '';
    const session =
      options.session === undefined
        ? ''
        : `, session ${options.session} (${history?.messages.length ?? 0} messages)`;
    process.stdout.write(
      `rxagent chat: ${model.provider}/${model.modelId}${tools}${session}. Ctrl-C stops a reply, Ctrl-D quits.\n`,
    );
    await runChatSession({ agent, sessionId: options.session, input: process.stdin, output: process.stdout });
    return 0;
  } finally {
    await mcp?.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`rxagent: ${error instanceof CliError ? error.message : oneLine(error)}\n`);
    process.exitCode = 1;
  },
);
