/* global crypto, document, sessionStorage, fetch, EventSource, MessageEvent, window, requestAnimationFrame, setTimeout */
// The page's side of the web chat: POST a message, then watch the run with EventSource. A dropped
// connection is retried by the browser with Last-Event-ID, so the server sends only what was
// missed; Stop is a POST that cancels the run on the server (closing the page does not).
// Replies are markdown, rendered with marked and sanitized with DOMPurify before they reach the page.
import { marked } from '/vendor/marked.js';
import DOMPurify from '/vendor/purify.js';

// The conversation of this tab: kept through a reload, or a phone discarding the tab (see restore).
const sessionKey = 'rxagent-web-chat-session';
const sessionId = sessionStorage.getItem(sessionKey) ?? crypto.randomUUID();
sessionStorage.setItem(sessionKey, sessionId);
// The page's own elements, found once: the model's HTML can never stand in for them.
const $ = (selector) => document.querySelector(selector);
const [messages, composer, prompt, send, stop, statusLine] = '#messages #composer #prompt #send #stop #status'
  .split(' ')
  .map($);
const status = (text) => (statusLine.textContent = text);
let current;
/** Whether the conversation so far is still being loaded (see restore): a message waits for it. */
let restoring = true;

const escapeHtml = (text) => text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
// An image would be fetched as soon as it is shown, and its URL can carry anything the model read
// (the conversation, a tool's output) to any server: it becomes a link the person may follow.
marked.use({
  renderer: {
    image: ({ href, text }) => `<a href="${escapeHtml(href)}">${escapeHtml(text || 'image')}</a>`,
    // HTML in a reply is shown as the text it is (a line break in a table cell excepted): parsed, an
    // unclosed or unknown tag, or one the sanitizer removes with its content (<script>, <style>,
    // <textarea>, <svg>), would swallow the rest of the reply, and a model that names a tag in passing
    // would lose its answer.
    html: ({ text, block }) =>
      /^<br\s*\/?>$/i.test(text.trim())
        ? '<br>'
        : block
          ? `<p>${escapeHtml(text.trim()).replaceAll('\n', '<br>')}</p>`
          : escapeHtml(text),
  },
});

// A link opens in a new tab: following it must not navigate the chat away, nor give the page it
// opens a handle on this one.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName !== 'A' || !node.hasAttribute('href')) return;
  node.setAttribute('target', '_blank');
  node.setAttribute('rel', 'noopener noreferrer');
});

/**
 * What markdown becomes on the page: its own tags and the few attributes they need, nothing else
 * (no ids, classes, styles or data attributes a model could use to pass for the page's controls).
 */
const markdownTags =
  'p br hr h1 h2 h3 h4 h5 h6 blockquote ul ol li pre code em strong del a table thead tbody tr th td';
const markdownOnly = {
  ALLOWED_TAGS: markdownTags.split(' '),
  ALLOWED_ATTR: ['href', 'title', 'start', 'align'],
  ALLOW_DATA_ATTR: false,
};

/** Whether the page shows its bottom (give or take a line): then it follows the reply as it grows. */
const atBottom = () => window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 48;
const follow = (wasAtBottom) => {
  if (wasAtBottom) window.scrollTo(0, document.documentElement.scrollHeight);
};

function add(className, text = '') {
  const wasAtBottom = atBottom();
  const element = document.createElement('div');
  element.className = className;
  element.textContent = text;
  messages.append(element);
  follow(wasAtBottom);
  return element;
}

/** A failure the person must see, in the conversation. */
const fail = (message) => {
  add('error', message);
  status('failed');
};

/** POSTs JSON; resolves with `{ ok, status, body }`, or rejects when the server cannot be reached. */
async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  const answer = await response.json().catch(() => ({}));
  return { ok: response.ok, status: response.status, body: answer };
}

// Enter sends; Shift+Enter (or a pasted block) keeps its line breaks, and the box grows with them.
prompt.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  composer.requestSubmit();
});
const fit = () => {
  prompt.style.height = '';
  // An empty box keeps its one row (its scrollHeight would count a wrapped placeholder).
  if (prompt.value !== '') prompt.style.height = `${prompt.scrollHeight + 2}px`;
};
prompt.addEventListener('input', fit);

composer.addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = prompt.value.trim();
  if (message === '' || current || restoring) return;
  prompt.value = '';
  fit();
  const bubble = add('user', message);
  send.disabled = true;
  status('sending…');
  try {
    const { ok, status: code, body } = await post('/api/chat', { message, sessionId });
    if (!ok || typeof body.runId !== 'string') {
      bubble.remove();
      prompt.value = message;
      fit();
      return fail(`Not sent: ${body.error?.message ?? `the server answered ${code}`}`);
    }
    watch(body.runId);
  } catch {
    bubble.remove();
    prompt.value = message;
    fit();
    fail('Not sent: the server cannot be reached. Your message is back in the box; try again.');
  } finally {
    // A reply that streams keeps Send disabled until it ends (Enter waits too; the text stays).
    send.disabled = current !== undefined;
  }
});

stop.addEventListener('click', async () => {
  if (!current) return;
  const { runId } = current;
  try {
    const { ok } = await post(`/api/runs/${runId}/cancel`);
    if (!ok) add('error', 'The server did not stop the reply.');
  } catch {
    add('error', 'The server cannot be reached: the reply may go on there.');
  }
});

/**
 * JSON as a person must see it before approving it: bidi controls and invisible characters are
 * written as \u escapes, so they cannot reorder or hide what is shown.
 */
const visibleJson = (value) =>
  JSON.stringify(value).replace(
    /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** A block of markdown text: its source grows, and it is rendered (sanitized) once per frame. */
function textBlock(parent) {
  const element = document.createElement('div');
  element.className = 'text';
  parent.append(element);
  let raw = '';
  let scheduled = false;
  const render = () => {
    scheduled = false;
    const wasAtBottom = atBottom();
    element.innerHTML = DOMPurify.sanitize(marked.parse(raw), markdownOnly);
    follow(wasAtBottom);
  };
  return {
    add(delta) {
      raw += delta;
      if (scheduled) return;
      scheduled = true;
      requestAnimationFrame(render);
    },
    clear() {
      raw = '';
      element.replaceChildren();
    },
  };
}

/** A reply bubble: one markdown block per step's text, tool lines in between, in the order they came. */
function reply(runId) {
  const bubble = add('assistant');
  if (runId) bubble.dataset.run = runId;
  let block;
  /** The tool lines, by tool call id. */
  const tools = new Map();
  return {
    bubble,
    /** A line for a tool call; its result is appended to it. */
    tool(call) {
      const line = document.createElement('div');
      line.className = 'tool';
      line.textContent = `tool: ${call.name}(${visibleJson(call.arguments)})`;
      this.append(line);
      tools.set(call.id, line);
    },
    result(id, content) {
      tools.get(id)?.append(` → ${content}`);
    },
    /** The approval boxes shown, by tool call id. */
    approvals: new Map(),
    /** The calls that wait for the person's decision. */
    waiting: new Set(),
    /** The status of a live run: waiting for the person, or streaming. */
    live() {
      status(this.waiting.size > 0 ? 'waiting for your approval' : 'streaming');
    },
    /** The next text starts a new block (a new step). */
    step() {
      block = undefined;
    },
    /** Drops the current step's text (it is streamed again). */
    restart() {
      block?.clear();
    },
    text(delta) {
      block ??= textBlock(bubble);
      block.add(delta);
    },
    append(element) {
      const wasAtBottom = atBottom();
      bubble.append(element);
      block = undefined;
      follow(wasAtBottom);
    },
  };
}

function watch(runId) {
  const view = reply(runId);
  let completed = false;
  const source = new EventSource(`/api/runs/${runId}`);
  current = { runId, source };
  stop.disabled = false;
  send.disabled = true;
  status('streaming');

  const finish = (how) => {
    source.close();
    current = undefined;
    stop.disabled = true;
    send.disabled = false;
    // Nothing can be decided any more in a run that ended.
    for (const box of view.approvals.values()) {
      box.querySelectorAll('button').forEach((button) => (button.disabled = true));
      box.append(' (no longer pending: the reply ended)');
    }
    if (how === 'stopped') {
      const note = document.createElement('div');
      note.className = 'note';
      note.textContent = 'Stopped.';
      view.append(note);
    }
    status(how);
  };
  const handle = (event) => {
    switch (event.type) {
      case 'step-started':
        view.step();
        break;
      case 'text-delta':
        view.text(event.text);
        break;
      case 'step-restarted':
        view.restart();
        break;
      case 'tool-calls-ready':
        for (const call of event.toolCalls) view.tool(call);
        break;
      case 'approval-requested':
        ask(runId, event.toolCall, view);
        break;
      case 'tool-result':
        view.result(event.toolCall.id, event.outcome.content);
        view.approvals.get(event.toolCall.id)?.remove();
        view.approvals.delete(event.toolCall.id);
        if (view.waiting.delete(event.toolCall.id)) view.live();
        break;
      case 'agent-completed':
        completed = true;
        break;
    }
  };
  source.onopen = () => view.live();
  source.onmessage = (message) => handle(JSON.parse(message.data));
  source.addEventListener('end', () => finish(completed ? 'done' : 'stopped'));
  source.addEventListener('error', (event) => {
    if (event instanceof MessageEvent) {
      // The run failed on the server.
      add('error', JSON.parse(event.data).message);
      finish('failed');
    } else if (source.readyState === EventSource.CLOSED) {
      add('error', 'The connection to the server was lost.');
      finish('disconnected');
    } else {
      status('reconnecting…');
    }
  });
}

function ask(runId, toolCall, view) {
  if (view.approvals.has(toolCall.id)) return;
  const box = document.createElement('div');
  box.className = 'approval';
  view.approvals.set(toolCall.id, box);
  view.waiting.add(toolCall.id);
  view.live();
  // The box says which call it decides: a step may ask for several calls of one tool.
  const question = document.createElement('span');
  question.className = 'question';
  question.textContent = `Allow ${toolCall.name}(${visibleJson(toolCall.arguments)})?`;
  box.append(question);
  const buttons = [];
  for (const [label, approved] of [
    ['Approve', true],
    ['Reject', false],
  ]) {
    const button = document.createElement('button');
    button.textContent = label;
    button.className = approved ? 'approve' : 'reject';
    button.addEventListener('click', async () => {
      buttons.forEach((b) => (b.disabled = true));
      try {
        const { ok, status: code } = await post(`/api/runs/${runId}/approvals/${toolCall.id}`, { approved });
        if (ok || code === 409) {
          box.replaceChildren(
            ok
              ? approved
                ? 'Approved.'
                : 'Rejected.'
              : 'This request is no longer pending: nothing was done.',
          );
          if (view.waiting.delete(toolCall.id) && view.bubble.dataset.run === current?.runId) view.live();
        } else {
          box.append(` The server refused (${code}); try again.`);
          buttons.forEach((b) => (b.disabled = false));
        }
      } catch {
        box.append(' The server cannot be reached; try again.');
        buttons.forEach((b) => (b.disabled = false));
      }
    });
    buttons.push(button);
    box.append(button);
  }
  view.append(box);
}

/**
 * Shows the conversation the server keeps for this tab's session (after a reload), then watches
 * the run still in progress, if any, from its start (so its approval asks again).
 */
async function restore() {
  let answer;
  // A phone coming back from the background often has no network for a moment: a few tries, 0.5 s
  // to 4 s apart, before saying so (a message sent then would continue a conversation not shown).
  for (let attempt = 0; answer === undefined; attempt += 1) {
    try {
      const response = await fetch(`/api/sessions/${sessionId}`);
      if (response.status === 404) return; // a new conversation
      if (response.ok) answer = await response.json();
    } catch {
      // Not reached, or cut off: try again.
    }
    if (answer !== undefined) break;
    if (attempt === 4) {
      return fail(
        'The conversation so far could not be loaded: the server cannot be reached. Reload to try again.',
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 500 * 2 ** attempt));
  }
  let view;
  for (const message of answer.messages) {
    if (message.role === 'user') {
      add('user', message.text);
      view = undefined;
    } else if (message.role === 'assistant') {
      view ??= reply();
      view.step();
      if (message.text) view.text(message.text);
      for (const call of message.toolCalls ?? []) view.tool(call);
    } else if (message.role === 'tool') view?.result(message.toolCallId, message.text);
  }
  if (answer.run && !current) {
    add('user', answer.run.message);
    watch(answer.run.id);
  }
}

send.disabled = true;
status('loading…');
void restore().finally(() => {
  restoring = false;
  if (current) return;
  send.disabled = false;
  if (statusLine.textContent === 'loading…') status('idle');
});
