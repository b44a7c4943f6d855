// TRANSITION: declarations to come.
export const transactionImports = [];
