// TRANSITION: declarations to come.
export const documents = [];
