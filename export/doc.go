// Package export sends every decision journal record, after the journal
// has it, to the places a security team already looks: OpenTelemetry logs
// over OTLP/HTTP (protobuf or JSON), syslog (RFC 5424 over a local
// socket, UDP or TCP) and a JSON-lines file another shipper tails.
//
// The local hash-chained journal stays the record of truth: a record is
// exported only after its append succeeded (journal.Options.OnAppend), and
// no failure here reaches the journal or the decision. Export never delays
// a decision: a long-running process (serve) hands each line to a bounded
// queue per sink (Exporter) whose worker batches, retries with backoff and
// counts what it had to drop; a one-shot process (hook, dispatch) leaves
// its lines in the spool (Spool), a file each, and starts a detached
// `export flush` child that sends them, bounded in time, unless one is
// already running — serve flushes the spool too.
//
// Where records go comes only from the user's (or the managed) config's
// export: block and, for OTLP once that block turns it on, the standard
// OTEL_EXPORTER_OTLP_* variables; a repository's hooks file cannot set
// it (hookconfig ignores the block there).
//
// The OTLP encoding is written here, against the OTLP proto definitions,
// rather than linked from the OpenTelemetry SDK: the SDK and the protobuf
// runtime it needs cost every start of the binary their package inits
// (~1.3 ms, more than the whole binary's today; BENCHMARKS.md), and the
// binary links no protobuf runtime (internal/layout). The tests decode what
// this package writes with the OTLP Go bindings and a real Collector.
package export
