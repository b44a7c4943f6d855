import type { Workflow } from '@temporalio/common';

/**
 * A workflow as its callers know it: the type name it is registered under, with its function
 * signature carried as a type only. Start helpers take this instead of the workflow function, so
 * `shared/` and `api/` type their calls without importing `workflows/`.
 */
export interface WorkflowContract<W extends Workflow> {
  readonly workflowType: string;
  /** Never set at run time; it keeps W so `start<W>` can check the arguments. */
  readonly signature?: W;
}

export function workflowContract<W extends Workflow>(workflowType: string): WorkflowContract<W> {
  return { workflowType };
}
