const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** A request's method as a label or attribute: any other verb a client makes up is `OTHER`, so the set stays bounded. */
export const boundedMethod = (method: string): string => (METHODS.has(method) ? method : 'OTHER');
