/** The story the demo model tells, streamed a few characters at a time. */
export const demoStory =
  'Once upon a time, a stream of tokens flowed from a server to a browser. ' +
  'Each token arrived on its own, and the page showed it at once. ' +
  'When the connection dropped, the page reconnected and asked for what it had missed, ' +
  'and the story went on without a word lost or repeated. The end.';
