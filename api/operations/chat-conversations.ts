// TRANSITION: declarations to come.
export const chatConversations = [];
