// TRANSITION: declarations to come.
export const invoicePaymentSuggestions = [];
