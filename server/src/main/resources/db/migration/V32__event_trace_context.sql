-- The W3C trace context of an event's publish (tracing.TraceHeaders): every attempt to deliver the
-- event, sent later and perhaps by another node or after a restart, continues that trace, so one trace
-- runs from the publishing service to the receiver. Null when the publish carried none and tracing was
-- off (its deliveries then start traces of their own). trace_parent is a version-00 traceparent
-- (55 characters); a tracestate longer than 512 characters is not kept.
alter table events add column trace_parent varchar(55);
alter table events add column trace_state varchar(512);
