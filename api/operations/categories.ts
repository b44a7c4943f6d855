// TRANSITION: declarations to come.
export const categories = [];
