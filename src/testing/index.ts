export { recordModel } from './record-model.ts';
export type { RecordedEvent, RecordingHeader } from './recording.ts';
export { type ReplayModelOptions, replayModel } from './replay-model.ts';
export { type ScriptedModel, type ScriptedModelOptions, scriptedModel } from './scripted-model.ts';
export type { ScriptedToolCall, ScriptedTurn, ScriptedTurnSpec } from './scripted-turn.ts';
