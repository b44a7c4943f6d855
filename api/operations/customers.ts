// TRANSITION: declarations to come.
export const customers = [];
