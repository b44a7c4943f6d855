// TRANSITION: declarations to come.
export const notifications = [];
