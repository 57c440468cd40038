// The Ink UI of `adk chat`: view model, components, and the app shell.
export * from './state/transcript.js';
export * from './state/actions.js';
export { viewReducer, COLLAPSED_RESULT_LINES } from './state/reducer.js';
export { consumeRun, laneOf, type RunOutcome, type Dispatch, type ConsumeOptions } from './state/consume-run.js';
export { coalesceViewActions } from './state/coalesce.js';
export { findLastSafeSplitPoint } from './state/safe-split.js';
export { toolResultStatus, toolCallIdOfAddress } from './state/tool-status.js';

export { useBatchedReducer, FRAME_MS } from './hooks/use-batched-reducer.js';
export { useThrottledValue } from './hooks/use-throttled-value.js';
export { useTerminalSize } from './hooks/use-terminal-size.js';
export { FrameBatcher } from './hooks/frame-batcher.js';
export { useKeys } from './hooks/use-keys.js';
export { useTextField } from './hooks/use-text-field.js';
export { useBracketedPaste } from './hooks/use-bracketed-paste.js';

export { agentColor, AGENT_PALETTE } from './theme/agent-color.js';
export { Transcript } from './components/Transcript.js';
export { LiveTail } from './components/LiveTail.js';
export { TranscriptItemView } from './components/TranscriptItemView.js';
export { Markdown } from './components/Markdown.js';
export { ToolRow, formatArgs } from './components/ToolRow.js';
export { TransferLine } from './components/TransferLine.js';
export { Breadcrumb } from './components/Breadcrumb.js';
export { AgentName } from './components/AgentName.js';
export { ApprovalPrompt, type ApprovalChoice } from './components/ApprovalPrompt.js';
export { AskUserPrompt } from './components/AskUserPrompt.js';
export { PlanReviewPrompt, type PlanDecision } from './components/PlanReviewPrompt.js';
export type { PlanModeDecision } from './app/plan-mode.js';
export { InputBox } from './components/InputBox.js';
export { TextInput } from './components/TextInput.js';
export { StatusLine } from './components/StatusLine.js';
export { DEFAULT_SLASH_COMMANDS, parseSlashCommand, type SlashCommandInfo } from './input/slash-commands.js';
export { bracketedPasteMode } from './input/paste.js';

export { ChatApp, type ChatAppProps } from './app/ChatApp.js';
export type { ChatControllerOptions } from './app/use-chat-controller.js';
export type { ChatUi } from './app/commands.js';
export { resumeData, type PromptAnswer } from './app/answers.js';
export { REPL_RENDER_OPTIONS } from './app/render-options.js';
export { inkStdout } from './app/ink-stdout.js';
