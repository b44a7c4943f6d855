// TRANSITION: declarations to come.
export const trackerProjects = [];
