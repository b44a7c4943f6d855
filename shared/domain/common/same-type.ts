/**
 * The layers below the domain declare the types they carry on their own (a model's column types, a
 * Temporal contract's payloads), since they may not import the domain. Where the domain has its own
 * type of the same thing, usually a schema's, it states that the two agree, and a drift on either
 * side fails to compile: `type _Agree = Assert<SameType<z.infer<typeof schema>, ColumnType>>;`.
 */

/**
 * `true` when A and B are the same type: a field or a value on one side only, optional or not, tells
 * them apart. Mutual assignability would not (an optional field on one side only passes both ways);
 * TypeScript relates these two generic signatures only when A and B are identical.
 */
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- T is the probe the identity check needs, once per side
export type SameType<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

/** Compiles only when T is `true`. */
export type Assert<T extends true> = T;
