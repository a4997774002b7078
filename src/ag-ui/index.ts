export { type AgUiHandlerOptions, agUiHandler } from '../http/ag-ui-handler.ts';
export { actorThreadSessionId } from '../http/ag-ui-session-id.ts';
export { fromAgUiMessages } from '../http/ag-ui-messages.ts';
export { type AgUiEvent, type ToAgUiEventsOptions, toAgUiEvents } from '../http/to-ag-ui-events.ts';
