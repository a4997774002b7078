#!/usr/bin/env node
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { Agent } from '../agent/index.ts';
import { fileSessionStore, memorySessionStore } from '../sessions/index.ts';
import { CliError } from './cli-error.ts';
import { cliModel } from './cli-model.ts';
import { parseCliOptions, USAGE } from './cli-options.ts';
import type * as McpConfig from './mcp-config.ts';
import { oneLine, runChatSession } from './chat-session.ts';

/**
 * The MCP side of the CLI, loaded only for `--mcp-config`: the MCP packages are optional peers, and
 * a chat without MCP servers must run where they are not installed.
 */
async function mcpConfigModule(): Promise<typeof McpConfig> {
  try {
    return await import('./mcp-config.ts');
  } catch (error) {
    const missing = error as { code?: unknown; message?: unknown };
    const mcpMissing =
      missing.code === 'ERR_MODULE_NOT_FOUND' && String(missing.message).includes("'@modelcontextprotocol/");
    if (!mcpMissing) throw error;
    throw new CliError(
      '--mcp-config needs the MCP packages: npm install @modelcontextprotocol/client @modelcontextprotocol/node @modelcontextprotocol/server',
      { cause: error },
    );
  }
}

/** `rxagent chat`: a terminal chat on an Agent. Resolves with the exit code. */
async function main(argv: readonly string[]): Promise<number> {
  const options = parseCliOptions(argv);
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const model = cliModel(options);
  const home = process.env.RXAGENT_HOME ?? join(homedir(), '.rxagent');
  // Without --session the conversation is kept in memory for the chat's life.
  const sessions =
    options.session === undefined ? memorySessionStore() : fileSessionStore({ dir: join(home, 'sessions') });
  const sessionId = options.session ?? `chat-${randomUUID()}`;
  const history = options.session === undefined ? undefined : await sessions.get(options.session);
  const mcp =
    options.mcpConfig === undefined
      ? undefined
      : await (
          await mcpConfigModule()
        ).connectMcpConfig(
          options.mcpConfig,
          options.mcpNegotiation ? { versionNegotiation: options.mcpNegotiation } : {},
        );
  try {
    const agent = new Agent({
      model,
      tools: mcp?.tools ?? [],
      ...(options.system === undefined ? {} : { system: options.system }),
      sessions,
    });
    const tools = mcp ? `, ${mcp.tools.length} MCP tools` : '';
    const session =
      options.session === undefined
        ? ''
        : `, session ${options.session} (${history?.messages.length ?? 0} messages)`;
    const interactive = Boolean(process.stdin.isTTY && process.stdout.isTTY);
    // Two short lines, within 80 columns; a pipe gets only the replies.
    if (interactive)
      process.stdout.write(
        `rxagent chat: ${model.provider}/${model.modelId}${tools}${session}\nCtrl-C stops a reply, Ctrl-D quits.\n`,
      );
    const end = await runChatSession({
      agent,
      sessionId,
      input: process.stdin,
      output: process.stdout,
      interactive,
    });
    return end === 'interrupt' ? 130 : 0;
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
