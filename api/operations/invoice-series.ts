// TRANSITION: declarations to come.
export const invoiceSeries = [];
