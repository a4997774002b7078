import { Writable } from 'node:stream';

/** A terminal output that can be muted: readline echoes through it, the reply does not. */
export interface GatedOutput extends Writable {
  muted: boolean;
  readonly columns: number | undefined;
  readonly isTTY: boolean | undefined;
}

/**
 * Wraps `output` so readline's echo of what is typed can be held back while a reply streams (the
 * keystrokes still reach readline's line buffer; only their echo is dropped, so they do not land in
 * the middle of the reply). Reports the terminal's width and TTY-ness, which readline reads.
 * @param output the terminal
 */
export function gatedOutput(
  output: NodeJS.WritableStream & { columns?: number; isTTY?: boolean },
): GatedOutput {
  const gate = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      if (!gated.muted) output.write(chunk);
      callback();
    },
  }) as Writable & { muted: boolean };
  gate.muted = false;
  const gated = Object.defineProperties(gate, {
    columns: { get: () => output.columns },
    isTTY: { get: () => output.isTTY },
  }) as GatedOutput;
  // readline redraws on resize; pass the terminal's event on.
  (output as NodeJS.WritableStream & { on?: (event: string, listener: () => void) => void }).on?.(
    'resize',
    () => gated.emit('resize'),
  );
  return gated;
}
