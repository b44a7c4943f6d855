// TRANSITION: declarations to come.
export const bankConnections = [];
