const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `s` is a UUID, as every id here is: checked before it reaches a uuid column, which would refuse it with an error. */
export const isUuid = (s: string) => UUID.test(s);
