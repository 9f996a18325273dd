package logfmt

// Row is one parsed request.
//
// Byte-slice fields alias the line given to Parse or the parser's own scratch
// buffer: they are valid until the next call to Parse on the same parser. An
// absent field ("-" in most formats) is a nil slice. Fields are not checked
// for UTF-8 validity; the stream layer repairs them.
type Row struct {
	// Time is the request time in microseconds since the Unix epoch, UTC,
	// already converted from the offset written in the line.
	Time int64
	// Host is the virtual host or authority the request was sent to, when
	// the format logs one.
	Host []byte
	// ClientIP is the remote address as logged (IPv4 or IPv6, no port),
	// without the brackets (and port) of "[2001:db8::3]:443". Parsers
	// check only its shape; the stream layer (package ingest) validates it.
	ClientIP []byte
	// Method is the HTTP method ("GET").
	Method []byte
	// Target is the request target, path and query exactly as logged.
	Target []byte
	// Protocol is the protocol of the request line ("HTTP/1.1").
	Protocol []byte
	// Status is the HTTP status code; -1 when absent.
	Status int32
	// Bytes is the response size in bytes; -1 when absent.
	Bytes int64
	// Referer is the Referer header.
	Referer []byte
	// UserAgent is the User-Agent header, with format-specific escapes (such
	// as W3C's '+' for space) undone.
	UserAgent []byte
	// ForwardedFor is the X-Forwarded-For header (or a CDN's field for it)
	// as logged, with format-specific escapes undone but otherwise whole: a
	// comma-separated chain, client first ("203.0.113.7, 10.0.0.5"). It is
	// nil when the format does not log it, or logs "-" or nothing. Parsers
	// fill it only from a field that a layout or a key name says is that
	// header, never by guessing what an unnamed field holds. It is never
	// trusted here: the audit decides which address of the chain, if any, is
	// the client.
	ForwardedFor []byte
	// Scheme is the scheme of the request ("https", "http") when the format
	// logs it (nginx's $scheme, Traefik's RequestScheme); nil otherwise.
	Scheme []byte
	// SignatureAgent, SignatureInput and Signature are the headers of a
	// signed request (RFC 9421 and the Web Bot Auth drafts) as logged, with
	// format-specific escapes undone, so that the signature base can be
	// rebuilt from them; nil when the format does not log them or the
	// request had none. Like ForwardedFor, they are filled only from fields
	// that a layout or a key name says are those headers.
	SignatureAgent []byte
	SignatureInput []byte
	Signature      []byte
	// RetryAfter is the response's Retry-After header (RFC 9110 §10.2.3:
	// seconds or an HTTP-date) as logged, escapes undone; nil when the
	// format does not log it or the response had none. Filled only from a
	// field that a layout or a key name says is that header.
	RetryAfter []byte
}

// Reset clears r for reuse.
func (r *Row) Reset() { *r = Row{Status: -1, Bytes: -1} }

// Reason is why a line was rejected. It is an error that costs no allocation;
// the stream layer counts lines per Reason.
type Reason string

// Error returns the reason itself.
func (r Reason) Error() string { return string(r) }

// Reasons shared by all parsers. Parsers may define more, but should prefer
// these so that accounting stays comparable across formats.
const (
	ErrBadRequestLine Reason = "bad request line"
	ErrBadTimestamp   Reason = "bad timestamp"
	ErrBadStatus      Reason = "bad status"
	ErrBadBytes       Reason = "bad bytes"
	ErrBadClientIP    Reason = "bad client ip"
	ErrFieldCount     Reason = "wrong field count"
	ErrSyntax         Reason = "syntax error"
	ErrNotThisFormat  Reason = "line in another format"
	// ErrTruncatedLine is returned for a line cut inside a quoted field (a
	// request, referer or user agent whose closing quote never comes): a log
	// rotated or a disk filled mid-write. Such a line is never a request,
	// so that a cut user agent cannot invent a bot. The stream layer uses
	// the same reason for the cut last line of a truncated stream.
	ErrTruncatedLine Reason = "truncated line"
	// ErrDirective is returned for a line that is not a request but a
	// directive of the format (W3C "#Fields:", CloudFront "#Version:"). The
	// stream layer does not count it as a rejected line; see package ingest.
	ErrDirective Reason = "directive"
)

// Parser parses the lines of one format. A Parser is not safe for concurrent
// use; the stream layer makes one per worker with Format.New.
type Parser interface {
	// Parse parses one line, without its line terminator, into r (which it
	// resets first). It returns nil or a Reason.
	Parse(line []byte, r *Row) error
}

// Format describes one log format.
type Format struct {
	// Name is the format's name as given to --format ("combined").
	Name string
	// Doc is a one-line description for --help.
	Doc string
	// New returns a fresh parser.
	New func() Parser
	// Stateful formats (W3C with its "#Fields:" directives) interpret a line
	// by what came before it in the same file: the stream layer parses such
	// files sequentially, in one worker.
	Stateful bool
	// Sniffable formats take part in automatic detection. Formats that only
	// exist with a user-given layout (--log-format) are not.
	Sniffable bool
}
