// TRANSITION: declarations to come.
export const reports = [];
