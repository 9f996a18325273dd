// Package ingest streams access logs into Apache Arrow record batches: the
// stream layer between log files and the audit. The line parsers of each
// format live in package logfmt; this package owns the files, decompression,
// format detection, line blocks, limits, parallelism, Arrow builders and the
// accounting of every line. The entry point is Run.
//
// # Schema
//
// Every batch has the schema Schema (columns in this order):
//
//	ts            timestamp[us, UTC]        request time, converted from the offset in the line
//	host          dictionary<int32, utf8>   virtual host; null when the format logs none
//	client_ip     utf8                      client IP address, validated ("" when none or invalid; see below)
//	method        dictionary<int32, utf8>   HTTP method; null when absent
//	target        utf8                      request target, path and query exactly as logged
//	protocol      dictionary<int32, utf8>   "HTTP/1.1"; null when absent
//	status        int32                     HTTP status; null when absent
//	bytes         int64                     response bytes; null when absent ("-")
//	referer       utf8                      Referer; null when absent ("-")
//	user_agent    dictionary<int32, utf8>   User-Agent; null when absent
//	file          dictionary<int32, utf8>   the input the row was read from, as named by the user
//	line          int64                     1-based physical line number in that file (after decompression)
//	forwarded_for utf8                      X-Forwarded-For header as logged, whole; null when absent (see logfmt.Row)
//	scheme        utf8                      "https" or "http" where the log has it ($scheme); null otherwise
//	signature_agent utf8                    Signature-Agent header as logged, whole; null when absent
//	signature_input utf8                    Signature-Input header as logged, whole; null when absent
//	signature     utf8                      Signature header as logged, whole; null when absent (package webbotauth verifies the three)
//
// Strings are valid UTF-8: a byte that is not part of a valid UTF-8 sequence
// is written \xHH (as nginx does), and the row is kept. Every batch carries
// its own complete dictionaries (no dictionary deltas). Batches hold at most
// Options.BatchRows rows; rows of several blocks and files may share a batch,
// and batches arrive in no particular order.
//
// # Inputs
//
// An input is a file, "-" (Options.Stdin, named "(stdin)"), a directory, or a
// glob pattern. A file named on the command line is always read, whatever its
// name. Directories are walked recursively in lexical order; there, and among
// the matches of a glob, hidden files and directories (".name") and files
// whose extension (after a .gz/.zst/.bz2 suffix) says they are not logs
// (.txt, .md, .csv, .html, images, archives, checksums, ...; not .json,
// a common name for JSON-lines logs) are skipped and listed in Accounting.Skipped. robots.txt
// files next to logs are thus not read as logs. A file reached twice is read
// once.
//
// An input may also be a URL of object storage (package objstore): s3://,
// gs:// or azblob:// in gocloud.dev/blob's syntax — a prefix ending in "/"
// (every object under it), a glob in the last segment, or one object — or
// https:// for one object. The objects of a prefix or glob are skipped as
// a directory's members are, and also, when Options.From or To is set,
// when their key dates them more than a day outside that period; named
// alone, an object is always read. Objects are streamed, one GET each,
// through the same decompression, detection, integrity checks and
// accounting as files; they are named by their URL without its query.
//
// Compression is recognised by magic bytes, never by name: gzip (several
// concatenated members too), zstd (window up to 128 MiB; several frames, and
// skippable frames, as pzstd writes them, first or between), bzip2 (concatenated
// streams too), else plain text. xz, lz4, zip and 7z are recognised and
// reported as input errors. A UTF-8 byte order mark at the start of a file is
// skipped.
//
// # Formats
//
// Options.Format names a format for every input; Options.LogFormat (an
// Apache or nginx layout) and Options.JSONFields (a JSON key mapping) build
// one. Otherwise each file's format is detected from its first block by
// DetectFormat over the first 50 non-empty lines (see its rules). A file
// whose format cannot be detected is an input error, and its lines are all
// rejected as ErrUnknownFormat, so that the accounting stays complete.
//
// # Blocks and parallelism
//
// One reader goroutine per file (Options.Workers files at once) cuts the
// decompressed stream into blocks of about Options.BlockBytes (1 MiB) on
// line boundaries, carrying the tail, and counts the newlines of each block
// so that each block knows its first line number. Options.Workers parsing
// goroutines (default GOMAXPROCS) take blocks from a bounded channel, each
// with its own parsers and its own batch builder. Files of a Stateful format
// (W3C, whose "#Fields:" may change mid-file) are parsed in order by their
// reader goroutine. Memory is bounded by the blocks (readers + channel +
// workers) and the batches being built (one per worker and per reader of a
// stateful file), whatever the size of the input (docs/performance.md has
// the heap a 10 GB stream peaks at).
//
// # Lines and accounting
//
// A line ends at '\n'; a '\r' before it is removed. The last line of a
// stream needs no '\n'. The empty lines are not counted. A line longer than
// Options.MaxLineBytes (64 KiB by default, counted without its '\n') is
// rejected as ErrLineTooLong; one longer than a block is skipped as it
// streams, never held whole.
//
// Accounting counts, per file and in total: lines (every non-empty line
// that is a request or should have been one), parsed, rejected per reason
// with the first samples (file, line, the line cut to 200 characters, made
// valid UTF-8), directives, bytes read, and the time span of parsed rows.
// parsed + rejected = lines always holds. Directive lines (W3C and
// CloudFront "#Version:", "#Fields:"), for which a parser returns
// logfmt.ErrDirective, are not requests: they are counted in Directives, not
// in Lines, so nothing is dropped silently and the invariant holds. Samples
// are the first by file order and line number, whatever the scheduling, so
// the accounting is deterministic.
//
// The client address of every parsed line is validated (clientAddr): a
// dotted IPv4 address is kept as logged; an IPv6 address is written in its
// RFC 5952 form, without the brackets and port of "[2001:db8::3]:443"; an
// IPv4-mapped one (::ffff:1.2.3.4) as the IPv4 address. Anything else
// ("999.1.1.1", "010.1.1.1", "1.2.3.4:8080", "fe80::1%eth0", a host name)
// is written as "" and counted in InvalidClients under a reason
// (ClientNotAddress, ClientWithPort, ClientWithZone, ClientHostname,
// ClientMissing), with samples; the line stays a parsed line. The
// forwarded_for column stays as logged.
//
// # Errors
//
// Bad lines are never errors: they are counted. Input errors — a file that
// cannot be opened or read, a truncated compressed stream, a compressed
// stream that fails an integrity check, a plain file that shrinks while it
// is read, an undetectable format — are *FileError values naming the file
// and, for read errors, the byte offset in the file (compressed bytes read
// when the error was detected). Run reads everything it can and returns
// them joined at the end; the lines read before a truncation count, and the
// cut last line is rejected as ErrTruncatedLine, the reason the parsers
// give a line cut inside a quoted field (logfmt.ErrTruncatedLine).
//
// Damage is not data: a gzip member whose CRC-32 or length does not match,
// corrupt deflate data or an invalid member header, a zstd frame whose
// checksum does not match or that is corrupt, a bzip2 checksum or structure
// error are an *IntegrityError (inside the FileError) naming the member or
// frame, the offset where it starts and the offset where the failure was
// detected; FileAccounting.Integrity says so too. The lines decompressed
// from such a file are still counted and sent, but none of them should be
// trusted: the caller drops every row of the file (IntegrityErrors lists
// them). A plain file truncated under the reader (logrotate copytruncate)
// is a *ShrinkError inside the FileError.
package ingest
