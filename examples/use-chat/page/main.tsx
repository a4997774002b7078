/**
 * The AI SDK's own chat front end, unchanged, against rxagent's `chatHandler`: `useChat` with its
 * default transport, `resume: true` (a reload picks the reply up again), tool approvals answered
 * with `addToolApprovalResponse`, and Stop as an explicit cancel on the server.
 */
import { useChat } from '@ai-sdk/react';
import {
  DefaultChatTransport,
  isToolUIPart,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  type UIMessage,
} from 'ai';
import { type FormEvent, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

// The chat's id and messages live in the tab's storage, so a reload keeps the conversation.
const chatId = sessionStorage.getItem('chat-id') ?? crypto.randomUUID();
sessionStorage.setItem('chat-id', chatId);
const stored = JSON.parse(sessionStorage.getItem(`chat:${chatId}`) ?? '[]') as UIMessage[];

function ToolPart({
  part,
  onDecide,
}: {
  part: UIMessage['parts'][number];
  onDecide: (id: string, approved: boolean) => void;
}) {
  if (!isToolUIPart(part)) return null;
  const name = part.type === 'dynamic-tool' ? part.toolName : part.type.slice('tool-'.length);
  return (
    <div className="tool" data-state={part.state}>
      {name}({JSON.stringify(part.input)}) · {part.state}
      {part.state === 'output-available' && <div className="output">→ {JSON.stringify(part.output)}</div>}
      {part.state === 'approval-requested' && (
        <div>
          <button onClick={() => onDecide(part.approval.id, true)}>Approve</button>{' '}
          <button onClick={() => onDecide(part.approval.id, false)}>Reject</button>
        </div>
      )}
    </div>
  );
}

function App() {
  const [input, setInput] = useState('');
  const { messages, sendMessage, status, stop, error, addToolApprovalResponse } = useChat({
    id: chatId,
    messages: stored,
    resume: true,
    transport: new DefaultChatTransport({ api: '/api/chat' }),
    sendAutomaticallyWhen: lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  useEffect(() => sessionStorage.setItem(`chat:${chatId}`, JSON.stringify(messages)), [messages]);
  const busy = status === 'submitted' || status === 'streaming';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (input.trim() === '' || busy) return;
    void sendMessage({ text: input });
    setInput('');
  };
  // useChat's stop() only closes this connection (the server keeps the run for a resume): the
  // DELETE stops the run itself.
  const stopRun = async () => {
    await fetch(`/api/chat/${encodeURIComponent(chatId)}/stream`, { method: 'DELETE' });
    await stop();
  };
  return (
    <main>
      <h1>useChat on rxagent</h1>
      <p id="status" data-status={status}>
        {status}
      </p>
      {messages.map((message) => (
        <div key={message.id} className={`message ${message.role}`} data-id={message.id}>
          {message.parts.map((part, index) =>
            part.type === 'text' ? (
              <span key={index} className="text">
                {part.text}
              </span>
            ) : (
              <ToolPart
                key={index}
                part={part}
                onDecide={(id, approved) => void addToolApprovalResponse({ id, approved })}
              />
            ),
          )}
        </div>
      ))}
      {error && <p className="error">{error.message}</p>}
      <form onSubmit={submit}>
        <input
          id="prompt"
          value={input}
          onChange={(event) => setInput(event.target.value)}
          placeholder="Say something"
        />
        <button type="submit" disabled={busy}>
          Send
        </button>
        <button type="button" id="stop" disabled={!busy} onClick={() => void stopRun()}>
          Stop
        </button>
      </form>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
