// TRANSITION: declarations to come.
export const chat = [];
