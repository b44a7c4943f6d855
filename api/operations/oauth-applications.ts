// TRANSITION: declarations to come.
export const oauthApplications = [];
