// TRANSITION: declarations to come.
export const teams = [];
