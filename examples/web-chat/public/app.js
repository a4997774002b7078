/* global crypto, document, fetch, EventSource, MessageEvent */
// The page's side of the web chat: POST a message, then watch the run with EventSource. A dropped
// connection is retried by the browser with Last-Event-ID, so the server sends only what was
// missed; Stop is a POST that cancels the run on the server (closing the page does not).
const sessionId = crypto.randomUUID();
const $ = (selector) => document.querySelector(selector);
const messages = $('#messages');
const status = (text) => ($('#status').textContent = text);
let current;

function add(className, text = '') {
  const element = document.createElement('div');
  element.className = className;
  element.textContent = text;
  messages.append(element);
  return element;
}

async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body ?? {}),
  });
  return response.json();
}

$('#composer').addEventListener('submit', async (event) => {
  event.preventDefault();
  const message = $('#prompt').value.trim();
  if (message === '' || current) return;
  $('#prompt').value = '';
  add('user', message);
  const { runId } = await post('/api/chat', { message, sessionId });
  watch(runId);
});

$('#stop').addEventListener('click', () => {
  if (current) void post(`/api/runs/${current.runId}/cancel`);
});

function watch(runId) {
  const bubble = add('assistant');
  const text = bubble.appendChild(document.createElement('span'));
  text.className = 'text';
  const tools = new Map();
  let stepStart = 0;
  let completed = false;
  const source = new EventSource(`/api/runs/${runId}`);
  current = { runId, source };
  $('#stop').disabled = false;
  status('streaming');

  const finish = (how) => {
    source.close();
    current = undefined;
    $('#stop').disabled = true;
    status(how);
  };
  const handle = (event) => {
    switch (event.type) {
      case 'step-started':
        // A later step's text is a new sentence of the same reply.
        if (text.textContent !== '' && !/\s$/.test(text.textContent)) text.textContent += ' ';
        stepStart = text.textContent.length;
        break;
      case 'text-delta':
        text.textContent += event.text;
        break;
      case 'step-restarted':
        // The step is streamed again from its start: drop its partial text.
        text.textContent = text.textContent.slice(0, stepStart);
        break;
      case 'tool-calls-ready':
        for (const call of event.toolCalls) {
          const line = document.createElement('div');
          line.className = 'tool';
          line.textContent = `tool: ${call.name}(${JSON.stringify(call.arguments)})`;
          bubble.append(line);
          tools.set(call.id, line);
        }
        break;
      case 'approval-requested':
        ask(runId, event.toolCall, bubble);
        break;
      case 'tool-result':
        tools.get(event.toolCall.id)?.append(` → ${event.outcome.content}`);
        bubble.querySelector(`[data-call="${event.toolCall.id}"]`)?.remove();
        break;
      case 'agent-completed':
        completed = true;
        break;
    }
  };
  source.onopen = () => status('streaming');
  source.onmessage = (message) => handle(JSON.parse(message.data));
  source.addEventListener('end', () => finish(completed ? 'done' : 'stopped'));
  source.addEventListener('error', (event) => {
    if (event instanceof MessageEvent) {
      // The run failed on the server.
      add('error', JSON.parse(event.data).message);
      finish('failed');
    } else if (source.readyState === EventSource.CLOSED) {
      finish('disconnected');
    } else {
      status('reconnecting…');
    }
  });
}

function ask(runId, toolCall, bubble) {
  if (bubble.querySelector(`[data-call="${toolCall.id}"]`)) return;
  const box = document.createElement('div');
  box.className = 'approval';
  box.dataset.call = toolCall.id;
  box.append(`Allow ${toolCall.name}?`);
  for (const [label, approved] of [
    ['Approve', true],
    ['Reject', false],
  ]) {
    const button = document.createElement('button');
    button.textContent = label;
    button.className = approved ? 'approve' : 'reject';
    button.addEventListener('click', async () => {
      box.querySelectorAll('button').forEach((b) => (b.disabled = true));
      await post(`/api/runs/${runId}/approvals/${toolCall.id}`, { approved });
      box.replaceChildren(approved ? 'Approved.' : 'Rejected.');
    });
    box.append(button);
  }
  bubble.append(box);
}
