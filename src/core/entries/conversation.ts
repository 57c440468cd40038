/** `adk/conversation`: multi-turn conversations saved in any store (history, interrupts, resume, compaction), as the CLI uses them. */
export { Conversation, type ConversationOptions, type TurnOptions, type TurnOutcome, type HistoryMessage, type ContextCompaction, toHistory, closeDanglingCalls } from '../conversation/conversation.js';
export { compactionOf, type ConversationTeam, type TeamCompaction } from '../conversation/team.js';
export { describeInterrupt } from '../conversation/describe-interrupt.js';
export { openAdkStores, type AdkStores } from '../store/adk-stores.js';
