// TRANSITION: declarations to come.
export const users = [];
