/**
 * Workflow interceptors of the traced bundle (`dist/workflow-bundle.traced.js`): a workflow's run, its signals
 * and each activity it schedules are spans, children of the span that started or signalled it. They run in
 * the workflow sandbox and leave through the worker's `exporter` sink (worker/tracing.ts). The plain bundle
 * leaves them out, so a worker without tracing makes no spans at all.
 */
export { interceptors } from '@temporalio/interceptors-opentelemetry/lib/workflow-interceptors';
