// TRANSITION: declarations to come.
export const tags = [];
