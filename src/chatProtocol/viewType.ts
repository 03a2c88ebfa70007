// Apart from messages.ts so the extension registers the chat panel's serializer at activation without loading the
// chat protocol.

export const CHAT_VIEW_TYPE = 'modelGateway.chat';
