// TRANSITION: declarations to come.
export const webhookEndpoints = [];
