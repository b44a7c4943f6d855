// TRANSITION: declarations to come.
export const apiKeys = [];
