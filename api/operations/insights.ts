// TRANSITION: declarations to come.
export const insights = [];
