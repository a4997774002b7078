/**
 * C0 controls but tab and line feed, DEL, and C1 controls: what lets text drive a terminal (ESC
 * starts every escape sequence; U+009B is a one-character CSI; BEL, BS and CR move or ring).
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROLS = /\r\n|[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from a model, a tool or a server made safe to write to a terminal or a pipe: control
 * characters are dropped (CR LF becomes LF), so a reply cannot set the window title, recolour or
 * clear the screen, write the clipboard (OSC 52) or overwrite what was shown. What follows a dropped
 * ESC stays visible as text (`[31m`), which also tells the reader something was there. Per
 * character, so a sequence split across chunks is caught too.
 * @example terminalText('\u001b]0;pwned\u0007hi\r\n') === ']0;pwnedhi\n'
 */
export function terminalText(text: string): string {
  return text.replace(CONTROLS, (match) => (match === '\r\n' ? '\n' : ''));
}
