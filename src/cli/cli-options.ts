import { parseArgs } from 'node:util';
import { CliError } from './cli-error.ts';

/** What `rxagent chat` was asked to do. */
export interface CliOptions {
  provider: string;
  model: string | undefined;
  system: string | undefined;
  baseURL: string | undefined;
  mcpConfig: string | undefined;
  /** The MCP version negotiation of servers whose config entry does not choose one. */
  mcpNegotiation: 'auto' | 'legacy' | undefined;
  session: string | undefined;
  demo: boolean;
  help: boolean;
}

/** The usage text. */
export const USAGE = `Usage: rxagent chat [options]

  --provider <name>     openai (default), anthropic, gemini, ollama
  --model <id>          the model (each provider has a default)
  --system <text>       the system prompt
  --base-url <url>      the provider's base URL (an OpenAI-compatible server, a
                        proxy); a local server needs no key
  --mcp-config <file>   MCP servers whose tools the agent may use:
                        {"mcpServers": {...}}
  --mcp-negotiation <auto|legacy>
                        how MCP servers without their own
                        "versionNegotiation" connect: auto (server/discover,
                        then initialize) or legacy (initialize only)
  --session <id>        keep the conversation in ~/.rxagent/sessions
                        (RXAGENT_HOME overrides); without it, it lasts as
                        long as the chat
  --demo                a bundled offline model, no key needed
  -h, --help            this text

Lines typed during a reply are sent after it; a pasted block of lines is one
message, sent with Enter. Ctrl-C stops the current reply (the message stays in
the conversation) or clears a half-typed line; on an empty line it quits, as
Ctrl-D does. Piped input: each line is one turn.`;

/**
 * Reads the command line (without `node` and the script).
 * @throws CliError for an unknown command or option
 */
export function parseCliOptions(argv: readonly string[]): CliOptions {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        provider: { type: 'string' },
        model: { type: 'string' },
        system: { type: 'string' },
        'base-url': { type: 'string' },
        'mcp-config': { type: 'string' },
        'mcp-negotiation': { type: 'string' },
        session: { type: 'string' },
        demo: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const { values, positionals } = parsed;
  const [command = 'chat', ...rest] = positionals;
  if (!values.help && (command !== 'chat' || rest.length > 0)) {
    throw new CliError(`unknown command "${[command, ...rest].join(' ')}" (try: rxagent chat --help)`);
  }
  const negotiation = values['mcp-negotiation'];
  if (negotiation !== undefined && negotiation !== 'auto' && negotiation !== 'legacy') {
    throw new CliError(`--mcp-negotiation must be auto or legacy, not "${negotiation}"`);
  }
  return {
    provider: values.provider ?? 'openai',
    model: values.model,
    system: values.system,
    baseURL: values['base-url'],
    mcpConfig: values['mcp-config'],
    mcpNegotiation: negotiation,
    session: values.session,
    demo: values.demo,
    help: values.help,
  };
}
