import type { AnyTool, ToolRegistry } from '../tools/index.ts';
import type { AgentExtension } from './agent-extension.ts';

/**
 * Keeps a registry in step with extensions' tool lists: adds new tools, replaces changed ones and
 * removes the ones an extension no longer lists. Tools registered by others are never touched.
 */
export class ExtensionTools {
  readonly #registry: ToolRegistry;
  readonly #extensions: AgentExtension<never>[] = [];
  /** Name → the tool object an extension registered under it. */
  readonly #registered = new Map<string, AnyTool>();

  constructor(registry: ToolRegistry) {
    this.#registry = registry;
  }

  /** Adds an extension's tools; when one is refused, none of them stays and the error is thrown. */
  add(extension: AgentExtension<never>): void {
    this.#extensions.push(extension);
    try {
      this.sync();
    } catch (error) {
      this.#extensions.pop();
      this.sync(); // unregisters what the refused extension had already added
      throw error;
    }
  }

  /** Applies the extensions' current lists; throws `DuplicateToolError` for a name already taken. */
  sync(): void {
    if (this.#extensions.length === 0 && this.#registered.size === 0) return;
    const current = new Map<string, AnyTool>();
    for (const extension of this.#extensions) {
      const tools = typeof extension.tools === 'function' ? extension.tools() : (extension.tools ?? []);
      for (const tool of tools) current.set(tool.name, tool);
    }
    for (const [name, tool] of this.#registered) {
      if (current.get(name) === tool) continue;
      this.#registry.unregister(name);
      this.#registered.delete(name);
    }
    for (const [name, tool] of current) {
      if (this.#registered.get(name) === tool) continue;
      this.#registry.register(tool);
      this.#registered.set(name, tool);
    }
  }
}
