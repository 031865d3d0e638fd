export { ChatView, ChatWidget, type ChatWidgetProps } from './ChatWidget.js';
export { createHttpTransport, type HttpTransportOptions } from './http-transport.js';
export { createLocalTransport } from './local-transport.js';
export { TransportError, type Transport } from './transport.js';
export { useConversation, type Conversation, type ConversationStatus, type UseConversationOptions } from './use-conversation.js';
export { chatSessionMachine, type ChatSessionContext, type ChatSessionEvent, type TranscriptEntry } from '../../machines/chat-session.js';
