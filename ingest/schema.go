package ingest

import (
	"github.com/apache/arrow-go/v18/arrow"
)

// Column indices of Schema, in order.
const (
	ColTime      = iota // timestamp[us, tz=UTC]: request time
	ColHost             // dictionary<int32, utf8>: virtual host; null when the log has none
	ColClientIP         // utf8: client address
	ColMethod           // dictionary<int32, utf8>: HTTP method
	ColTarget           // utf8: request target, path and query exactly as logged
	ColProtocol         // dictionary<int32, utf8>: "HTTP/1.1"; null when absent
	ColStatus           // int32: HTTP status; null when absent
	ColBytes            // int64: response bytes; null when absent
	ColReferer          // utf8: Referer; null when absent
	ColUserAgent        // dictionary<int32, utf8>: User-Agent; null when absent
	ColFile             // dictionary<int32, utf8>: the file the row was read from
	ColLine             // int64: 1-based line number in that file
	// ColForwardedFor is utf8: the X-Forwarded-For header (or a CDN's field
	// for it) as logged, whole ("203.0.113.7, 10.0.0.5"); null when the
	// format logs none or the line has "-". Never trusted by ingest: the
	// audit takes a client from it only with --trusted-proxy.
	ColForwardedFor
	// ColScheme is utf8: the request's scheme ("https") where the log has
	// it; null otherwise.
	ColScheme
	// ColSignatureAgent, ColSignatureInput and ColSignature are utf8: the
	// Signature-Agent, Signature-Input and Signature headers of a signed
	// request (RFC 9421, Web Bot Auth) as logged, whole; null when the format
	// logs none or the request had none. Package webbotauth verifies them.
	ColSignatureAgent
	ColSignatureInput
	ColSignature
	// ColRetryAfter is utf8: the response's Retry-After header as logged
	// ("120" or an HTTP-date), where the format logs it; null otherwise.
	// The audit reads it to tell whether a crawler waited after a 503 or 429.
	ColRetryAfter
	NumCols
)

var dictString = &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}

// Schema is the schema of every record batch the ingest layer produces. All
// strings are valid UTF-8 (invalid bytes are written as \xHH).
var Schema = arrow.NewSchema([]arrow.Field{
	{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "host", Type: dictString, Nullable: true},
	{Name: "client_ip", Type: arrow.BinaryTypes.String},
	{Name: "method", Type: dictString, Nullable: true},
	{Name: "target", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "protocol", Type: dictString, Nullable: true},
	{Name: "status", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "bytes", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "referer", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "user_agent", Type: dictString, Nullable: true},
	{Name: "file", Type: dictString},
	{Name: "line", Type: arrow.PrimitiveTypes.Int64},
	{Name: "forwarded_for", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "scheme", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "signature_agent", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "signature_input", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "signature", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "retry_after", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)
