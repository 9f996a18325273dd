// Package logfmt holds one pure line parser per access-log format.
//
// A parser sees only the bytes of one line (without its line terminator) and
// fills a reusable Row; it never reads files, never allocates per line on the
// hot path and never panics. Reading, decompression, line blocks, limits and
// parallelism belong to the stream layer in package ingest.
package logfmt
