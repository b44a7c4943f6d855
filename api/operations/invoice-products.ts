// TRANSITION: declarations to come.
export const invoiceProducts = [];
