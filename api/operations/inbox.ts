// TRANSITION: declarations to come.
export const inbox = [];
