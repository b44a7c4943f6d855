// TRANSITION: declarations to come.
export const bankAccounts = [];
