// TRANSITION: declarations to come.
export const search = [];
