// TRANSITION: declarations to come.
export const invoices = [];
