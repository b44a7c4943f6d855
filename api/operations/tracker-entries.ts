// TRANSITION: declarations to come.
export const trackerEntries = [];
