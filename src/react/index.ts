// First: no schema may be built before zod's JIT is off (see zod-jitless.ts).
export { ZOD_JITLESS } from './zod-jitless.js';
export { ChatView, ChatWidget, type ChatWidgetProps, type Notify } from './ChatWidget.js';
export { ConversationInputs, WaitingLine } from './ConversationInputs.js';
export { createHttpTransport, type HttpTransportOptions } from './http-transport.js';
export { InputForm, type InputFormProps } from './InputForm.js';
export { InputsInbox, type InputsInboxProps } from './InputsInbox.js';
export { createLocalTransport } from './local-transport.js';
export type { InspectorState, StatelyInspector } from './stately-inspector.js';
export { TransportError, type EventsHandlers, type InputQuery, type Transport } from './transport.js';
export { useConversation, type Conversation, type ConversationStatus, type UseConversationOptions } from './use-conversation.js';
export { useInputs, type Inputs, type UseInputsOptions } from './use-inputs.js';
export { chatSessionMachine, type ChatSessionContext, type ChatSessionEvent, type TranscriptEntry } from '../../machines/chat-session.js';
