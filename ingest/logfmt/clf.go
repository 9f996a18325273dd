package logfmt

import (
	"bytes"
	"unicode/utf8"
)

// This file holds the layout engine shared by every format of the Common Log
// Format family (common, combined, vhost_combined, traefik, and any Apache
// LogFormat or nginx log_format given by the user, see custom.go), and the
// built-in formats themselves.
//
// A layout is compiled once into a sequence of (literal, field) pairs and a
// final literal. Parsing walks the line: each literal must match exactly; a
// field runs up to the next occurrence of the literal that follows it. A field
// between double quotes ("%r", "$http_user_agent") ends only at a '"' that is
// not escaped by a backslash and is followed by the rest of the next literal,
// so that escaped quotes (\" from Apache, \x22 from nginx, neither of which
// writes a bare '"' inside a field) and even most unescaped quotes inside a
// user agent do not end it.
//
// Decisions, for every layout:
//   - Logger escapes are undone in every string field (target, referer, user
//     agent, host, method, protocol): \" \\ \xHH \n \r \t \b \v \f and
//     nginx's escape=json \u00HH. Target is otherwise exactly as logged: no
//     percent-decoding, no normalisation.
//   - "-" or an empty value is an absent field (nil, or -1 for status and
//     bytes), except Apache's %b, where "-" means zero bytes sent (as the
//     Apache documentation defines it), so that common/combined "-" bytes are 0.
//   - A request line that is not "METHOD TARGET[ PROTOCOL]" with a token for
//     a method is rejected with ErrBadRequestLine. This includes the "-"
//     request lines that Apache and nginx write for connections that sent no
//     request (scanners, TLS handshakes on a plain port, idle keep-alives,
//     usually status 400 or 408) and binary junk: they carry no target, so no
//     robots.txt rule can apply to them, and counting them under "bad request
//     line" keeps them visible in the accounting rather than hiding them among
//     requests. HTTP/0.9 request lines without a protocol are accepted.
//   - A line cut inside a quoted field (a log rotated or a disk filled
//     mid-write, a syslog relay's length limit) is rejected with
//     ErrTruncatedLine, never taken as a request: its cut user agent would
//     be a bot's name ("... (compatible; Cla"), its cut target another path.
//     A quoted field is cut when no unescaped '"' after its opening one can
//     close it: none is followed by the next literal, nor by a blank or the
//     end of the line (such a quote closed the field in a line of another
//     layout, or of this one cut between two fields: ErrFieldCount, as a
//     line cut outside quotes is), nor by the start of the next literal cut
//     short. The trailing fields that combined, common and vhost_combined
//     tolerate are checked the same way: one that starts with '"' must end
//     with an unescaped '"' followed by a blank or the end of the line.
//   - A line that ends at a field boundary is not truncated but short: a
//     common line in a combined file ("... 200 1513", or cut there) is
//     ErrFieldCount, as it always was; in a common file it is a request, and
//     a combined line cut after its bytes or its referer is a common line
//     (the trailing fields, when whole, are skipped).
//   - A trailing '\r' (a CRLF file) is ignored.

// kind is what a layout field means for the Row.
type kind uint8

const (
	kSkip       kind = iota // logged but not used
	kClient                 // remote address
	kHost                   // virtual host or Host header
	kHostPort               // virtual host with an optional ":port" to drop (vhost_combined)
	kTimeCLF                // "10/Oct/2000:13:55:36 -0700"
	kTimeISO                // "2000-10-10T13:55:36-07:00"
	kTimeSec                // epoch seconds, optionally with a fraction
	kTimeMilli              // epoch milliseconds
	kTimeMicro              // epoch microseconds
	kRequest                // "GET /x?y HTTP/1.1"
	kMethod                 // "GET"
	kTarget                 // path and query ("/x?y"), as $request_uri
	kPath                   // path only, as %U or $uri
	kQuery                  // query without '?', as $args ("" or "-" when none)
	kQueryQ                 // query with its '?', as %q ("" when none)
	kProtocol               // "HTTP/1.1"
	kStatus                 // status code
	kBytes                  // response bytes, "-" absent
	kBytesCLF               // response bytes, "-" meaning zero (Apache %b)
	kReferer                // Referer header
	kUserAgent              // User-Agent header
	kForwarded              // X-Forwarded-For header, kept whole
	kScheme                 // "https" or "http"
	kSigAgent               // Signature-Agent header, kept whole
	kSigInput               // Signature-Input header, kept whole
	kSignature              // Signature header, kept whole
	kRetryAfter             // Retry-After response header, kept whole
	kDigits                 // skipped, but must be a decimal number (Traefik's request count)
	kMillis                 // skipped, but must be a decimal number (Traefik's duration before "ms")
)

// field is one field of a compiled layout, preceded by a literal.
type field struct {
	lit    []byte // literal that precedes the field
	kind   kind
	quoted bool   // lit ends with '"' and the next literal starts with '"'
	spaces bool   // the value may hold blanks even when not quoted
	blanks bool   // checksBlanks, computed once
	name   string // the directive as written ("%>s", "$status"), for messages
}

// checksBlanks reports whether a field's value must be checked for blanks
// that would show it swallowed a separator: fields whose parser accepts any
// byte. Client addresses, numbers and times reject blanks themselves.
func (f *field) checksBlanks() bool {
	if f.quoted || f.spaces {
		return false
	}
	switch f.kind {
	case kClient, kTimeCLF, kTimeISO, kTimeSec, kTimeMilli, kTimeMicro, kStatus, kBytes, kBytesCLF, kDigits, kMillis:
		return false
	}
	return true
}

// layout is a compiled line layout.
type layout struct {
	fields []field
	tail   []byte // literal after the last field
	// trailing tolerates extra fields after the layout, separated by a space
	// or a tab, as many sites append "%{X-Forwarded-For}i" or a request time
	// to combined. Such fields are skipped, never read: what an unnamed field
	// holds is not guessed (a layout that names "%{X-Forwarded-For}i" fills
	// Row.ForwardedFor; see NewCustom).
	trailing bool
	// clfDate: the layout logs a bracketed CLF time, so that a rejected line
	// without any "[dd/Mon/yyyy:" is in another format (an error log line,
	// JSON) rather than a damaged line of this one.
	clfDate bool
}

// layoutParser parses lines of one layout. Its scratch buffer holds unescaped
// field values; it is reused from line to line.
type layoutParser struct {
	l       *layout
	scratch []byte
	// CLF times share their date and zone from line to line.
	times clfTimeCache
}

func (l *layout) newParser() Parser { return &layoutParser{l: l, scratch: make([]byte, 0, 1024)} }

// prepare computes what the parser needs per field once the kinds are final.
// Built-in formats that adjust kinds after compiling call it again.
func (l *layout) prepare() {
	for i := range l.fields {
		l.fields[i].blanks = l.fields[i].checksBlanks()
	}
}

// Parse implements Parser.
func (p *layoutParser) Parse(line []byte, r *Row) error {
	err := p.parse(line, r)
	if err != nil && p.l.clfDate && !hasCLFDate(line) {
		return ErrNotThisFormat
	}
	return err
}

// hasCLFDate reports whether line holds "[dd/Mon/yyyy:" somewhere.
func hasCLFDate(line []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(line[i:], '[')
		if j < 0 {
			return false
		}
		i += j + 1
		if b := line[i:]; len(b) >= 12 && b[2] == '/' && b[6] == '/' && b[11] == ':' &&
			allDigits(b[0:2]) && isLetter(b[3]) && isLetter(b[4]) && isLetter(b[5]) && allDigits(b[7:11]) {
			return true
		}
	}
}

func (p *layoutParser) parse(line []byte, r *Row) error {
	r.Reset()
	p.scratch = p.scratch[:0]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	l := p.l
	var parts targetParts // for layouts without %r or $request_uri
	pos := 0
	for i := range l.fields {
		f := &l.fields[i]
		if !hasPrefix(line[pos:], f.lit) {
			return literalMismatch(line[pos:], f.lit)
		}
		pos += len(f.lit)
		next := l.tail
		last := i == len(l.fields)-1
		if !last {
			next = l.fields[i+1].lit
		}
		end, err := p.fieldEnd(line, pos, next, f.quoted, last)
		if err != nil {
			return err
		}
		v := line[pos:end]
		if f.blanks && len(next) > 0 && hasBlank(v, len(next) == 1 && next[0] == ' ') {
			return ErrSyntax
		}
		pos = end
		switch f.kind {
		case kPath:
			parts.path = span{end - len(v), end, true}
		case kQuery, kQueryQ:
			parts.query = span{end - len(v), end, true}
			parts.withQ = f.kind == kQueryQ
		default:
			if err := p.assign(f.kind, v, r); err != nil {
				return err
			}
		}
	}
	if !bytes.HasPrefix(line[pos:], l.tail) {
		return literalMismatch(line[pos:], l.tail)
	}
	pos += len(l.tail)
	if pos < len(line) {
		if !l.trailing {
			return ErrFieldCount
		}
		if c := line[pos]; c != ' ' && c != '\t' {
			return ErrSyntax
		}
		if cutInTrailing(line[pos:]) {
			return ErrTruncatedLine
		}
	}
	return p.finish(line, r, &parts)
}

// span is the position of a field in the line.
type span struct {
	start, end int
	ok         bool
}

// targetParts are the positions of the path and query fields of a layout
// that logs them apart (%U%q, $uri?$args).
type targetParts struct {
	path, query span
	withQ       bool // the query field includes its '?' (%q)
}

// finish builds the target from its parts when the layout logs them apart and
// checks that the row has what every request needs.
func (p *layoutParser) finish(line []byte, r *Row, t *targetParts) error {
	if t.path.ok {
		path := line[t.path.start:t.path.end]
		var query []byte
		if t.query.ok {
			query = line[t.query.start:t.query.end]
			if isDash(query) || t.withQ && len(query) == 1 && query[0] == '?' {
				query = nil
			}
		}
		if len(path) == 0 || isDash(path) {
			return ErrBadRequestLine
		}
		sep := "?"
		if t.withQ {
			if len(query) > 0 && query[0] != '?' {
				return ErrBadRequestLine
			}
			sep = ""
		}
		r.Target = p.join(line, path, query, sep, t)
	} else if t.query.ok {
		return ErrBadRequestLine // a query without a path is no target
	}
	if len(r.Target) == 0 {
		return ErrBadRequestLine
	}
	return nil
}

// join returns path+sep+query with logger escapes undone: a sub-slice of line
// when they are adjacent in it (the usual "$uri?$args", "$uri$is_args$args"
// and "%U%q") and hold no escape, else a copy in scratch.
func (p *layoutParser) join(line, path, query []byte, sep string, t *targetParts) []byte {
	if len(query) == 0 {
		return p.unescape(path)
	}
	gap := line[t.path.end:t.query.start]
	if string(gap) == sep && bytes.IndexByte(line[t.path.start:t.query.end], '\\') < 0 {
		return line[t.path.start:t.query.end]
	}
	start := len(p.scratch)
	p.scratch = appendUnescaped(p.scratch, path)
	p.scratch = append(p.scratch, sep...)
	p.scratch = appendUnescaped(p.scratch, query)
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}

// hasPrefix is bytes.HasPrefix for the short literals of a layout, without
// a call to memequal.
func hasPrefix(s, lit []byte) bool {
	if len(s) < len(lit) {
		return false
	}
	for i, c := range lit {
		if s[i] != c {
			return false
		}
	}
	return true
}

// literalMismatch says why a literal did not match: the line ended (a field
// is missing) or it holds something else.
func literalMismatch(rest, lit []byte) error {
	if len(rest) < len(lit) && bytes.HasPrefix(lit, rest) {
		return ErrFieldCount
	}
	return ErrSyntax
}

// fieldEnd returns the end of the field starting at pos, followed by the
// literal next (empty for the last field of a layout without a tail), or a
// reason: ErrTruncatedLine for a quoted field the line ends in, ErrFieldCount
// when the literal is not found.
func (p *layoutParser) fieldEnd(line []byte, pos int, next []byte, quoted, last bool) (int, error) {
	if len(next) == 0 {
		if !last {
			return -1, ErrFieldCount // two adjacent fields: the compiler never makes this
		}
		if p.l.trailing {
			if j := bytes.IndexAny(line[pos:], " \t"); j >= 0 {
				return pos + j, nil
			}
		}
		return len(line), nil
	}
	if !quoted {
		if len(next) == 1 {
			j := bytes.IndexByte(line[pos:], next[0])
			if j < 0 {
				return -1, ErrFieldCount
			}
			return pos + j, nil
		}
		// The first byte of a literal, then the rest: literals are short
		// ("] \"", "\" "), and their first byte rarely occurs in a field,
		// so this costs less than bytes.Index.
		for i := pos; ; {
			j := bytes.IndexByte(line[i:], next[0])
			if j < 0 {
				return -1, ErrFieldCount
			}
			j += i
			if hasPrefix(line[j:], next) {
				return j, nil
			}
			i = j + 1
		}
	}
	// A quoted field: find a closing quote that is not escaped and is
	// followed by the rest of next (and, for the last one, by the end of
	// the line or, with trailing fields, a blank).
	for i := pos; ; {
		j := bytes.IndexByte(line[i:], '"')
		if j < 0 {
			break
		}
		j += i
		i = j + 1
		if escapedAt(line, pos, j) || !bytes.HasPrefix(line[j:], next) {
			continue
		}
		if last {
			// The closing quote of the last field ends the line or is
			// followed by a blank: an extra field, tolerated or not.
			if k := j + len(next); k < len(line) && line[k] != ' ' && line[k] != '\t' {
				continue
			}
		}
		return j, nil
	}
	if mayClose(line, pos, next) {
		return -1, ErrFieldCount
	}
	return -1, ErrTruncatedLine
}

// mayClose reports whether the quoted field starting at pos, which no quote
// closes as the layout says, has an unescaped '"' that ends it all the same:
// followed by a blank or the end of the line (a line of another layout, or
// cut after the field), or by the start of next cut short by the end of the
// line (cut inside the literal after the field). When it has none, the line
// ends inside the field: it is truncated.
func mayClose(line []byte, pos int, next []byte) bool {
	for i := pos; ; {
		j := bytes.IndexByte(line[i:], '"')
		if j < 0 {
			return false
		}
		j += i
		i = j + 1
		if escapedAt(line, pos, j) {
			continue
		}
		if i == len(line) || line[i] == ' ' || line[i] == '\t' || bytes.HasPrefix(next, line[j:]) {
			return true
		}
	}
}

// cutInTrailing reports whether the trailing fields t (after a layout that
// tolerates them; t starts with a blank) end inside a quoted one: a field
// that starts with '"' without an unescaped '"' followed by a blank or the
// end of the line after it. Other fields run to the next blank, whatever
// they hold.
func cutInTrailing(t []byte) bool {
	if bytes.IndexByte(t, '"') < 0 {
		return false
	}
	for i := 0; i < len(t); {
		switch t[i] {
		case ' ', '\t':
			i++
		case '"':
			end := trailingClose(t, i+1)
			if end < 0 {
				return true
			}
			i = end + 1
		default:
			j := bytes.IndexAny(t[i:], " \t")
			if j < 0 {
				return false
			}
			i += j
		}
	}
	return false
}

// trailingClose returns the index of the quote that closes a quoted trailing
// field whose value starts at t[start]: the first unescaped '"' followed by a
// blank or the end of t; -1 when there is none.
func trailingClose(t []byte, start int) int {
	for i := start; ; {
		j := bytes.IndexByte(t[i:], '"')
		if j < 0 {
			return -1
		}
		j += i
		i = j + 1
		if escapedAt(t, start, j) {
			continue
		}
		if i == len(t) || t[i] == ' ' || t[i] == '\t' {
			return j
		}
	}
}

// escapedAt reports whether line[j] is escaped by an odd run of backslashes
// that starts at or after start.
func escapedAt(line []byte, start, j int) bool {
	n := 0
	for k := j - 1; k >= start && line[k] == '\\'; k-- {
		n++
	}
	return n%2 == 1
}

// assign stores the value v of a field of kind k in r.
func (p *layoutParser) assign(k kind, v []byte, r *Row) error {
	switch k {
	case kSkip:
	case kClient:
		ip, ok := clientIP(v)
		if !ok {
			return ErrBadClientIP
		}
		r.ClientIP = ip
	case kHost:
		r.Host = p.str(v)
	case kHostPort:
		r.Host = p.str(stripPort(v))
	case kTimeCLF:
		t, ok := p.times.parse(v)
		if !ok {
			return ErrBadTimestamp
		}
		r.Time = t
	case kTimeISO:
		t, ok := ParseISO8601(v)
		if !ok {
			return ErrBadTimestamp
		}
		r.Time = t
	case kTimeSec, kTimeMilli, kTimeMicro:
		unit := int64(EpochSeconds)
		if k == kTimeMilli {
			unit = EpochMillis
		} else if k == kTimeMicro {
			unit = EpochMicros
		}
		t, ok := ParseEpoch(v, unit)
		if !ok {
			return ErrBadTimestamp
		}
		r.Time = t
	case kRequest:
		if !p.request(v, r) {
			return ErrBadRequestLine
		}
	case kMethod:
		m := p.str(v)
		if m != nil && !isToken(m) {
			return ErrBadRequestLine
		}
		r.Method = m
	case kTarget:
		r.Target = p.str(v)
	case kProtocol:
		r.Protocol = p.str(v)
	case kStatus:
		s, ok := parseStatus(v)
		if !ok {
			return ErrBadStatus
		}
		r.Status = s
	case kBytes, kBytesCLF:
		n, ok := parseBytes(v, k == kBytesCLF)
		if !ok {
			return ErrBadBytes
		}
		r.Bytes = n
	case kReferer:
		r.Referer = p.str(v)
	case kUserAgent:
		r.UserAgent = p.str(v)
	case kForwarded:
		r.ForwardedFor = p.str(v)
	case kScheme:
		r.Scheme = p.str(v)
	case kSigAgent:
		r.SignatureAgent = p.str(v)
	case kSigInput:
		r.SignatureInput = p.str(v)
	case kSignature:
		r.Signature = p.str(v)
	case kRetryAfter:
		r.RetryAfter = p.str(v)
	case kDigits, kMillis:
		if len(v) == 0 || !allDigits(v) {
			return ErrSyntax
		}
	}
	return nil
}

// hasBlank reports whether v holds a space or a tab; with tabOnly, v is known
// to hold no space (it ends at the first one).
func hasBlank(v []byte, tabOnly bool) bool {
	for _, c := range v {
		if c == '\t' || c == ' ' && !tabOnly {
			return true
		}
	}
	return false
}

func isDash(v []byte) bool { return len(v) == 1 && v[0] == '-' }

// str returns the string field v with logger escapes undone, or nil when it
// is absent ("-" or empty).
func (p *layoutParser) str(v []byte) []byte {
	if len(v) == 0 || isDash(v) {
		return nil
	}
	return p.unescape(v)
}

// unescape returns v with logger escapes undone: v itself when it holds no
// backslash, else a copy in scratch.
func (p *layoutParser) unescape(v []byte) []byte {
	if bytes.IndexByte(v, '\\') < 0 {
		return v
	}
	start := len(p.scratch)
	p.scratch = appendUnescaped(p.scratch, v)
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}

// appendUnescaped appends v to dst with the escapes that Apache
// (ap_escape_logitem: \" \\ \b \n \r \t \v \xhh) and nginx (escape=default:
// \xHH; escape=json: \" \\ \n \r \t \b \f \u00HH) write undone. Anything else
// after a backslash is kept as it is.
func appendUnescaped(dst, v []byte) []byte {
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c != '\\' || i+1 == len(v) {
			dst = append(dst, c)
			continue
		}
		switch e := v[i+1]; e {
		case '"', '\\':
			dst = append(dst, e)
			i++
		case 'n':
			dst = append(dst, '\n')
			i++
		case 'r':
			dst = append(dst, '\r')
			i++
		case 't':
			dst = append(dst, '\t')
			i++
		case 'b':
			dst = append(dst, '\b')
			i++
		case 'v':
			dst = append(dst, '\v')
			i++
		case 'f':
			dst = append(dst, '\f')
			i++
		case 'x':
			if b, ok := hexByte(v, i+2); ok {
				dst = append(dst, b)
				i += 3
			} else {
				dst = append(dst, c)
			}
		case 'u':
			if i+5 < len(v) && v[i+2] == '0' && v[i+3] == '0' {
				if b, ok := hexByte(v, i+4); ok {
					dst = append(dst, b)
					i += 5
					continue
				}
			}
			dst = append(dst, c)
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// hexByte parses two hex digits at v[i:].
func hexByte(v []byte, i int) (byte, bool) {
	if i+2 > len(v) {
		return 0, false
	}
	h, l := hexDigitValue(v[i]), hexDigitValue(v[i+1])
	return byte(h<<4 | l), h >= 0 && l >= 0
}

// request splits a request line into method, target and protocol.
func (p *layoutParser) request(v []byte, r *Row) bool {
	if bytes.IndexByte(v, '\\') >= 0 {
		v = p.unescape(v)
	}
	return splitRequest(v, r)
}

// splitRequest splits "METHOD TARGET[ PROTOCOL]" into r. The method must be
// an HTTP token; the protocol is the last word when it looks like "NAME/x.y"
// (HTTP/1.1, HTTP/2.0); the target is everything in between, spaces included,
// and must not be empty.
func splitRequest(v []byte, r *Row) bool {
	// A method is a few token characters and then a space: one walk over
	// them finds the space too (a space is no token character), and fails
	// the request line wherever the search and isToken would.
	sp := 0
	for sp < len(v) && sp <= 32 && tokenChars[v[sp]] {
		sp++
	}
	if sp == 0 || sp > 32 || sp == len(v) || v[sp] != ' ' {
		return false
	}
	method, rest := v[:sp], v[sp+1:]
	var proto []byte
	if k := bytes.LastIndexByte(rest, ' '); k >= 0 && isProtocol(rest[k+1:]) {
		proto, rest = rest[k+1:], rest[:k]
	}
	// A target that starts and ends with an ASCII byte above the space has
	// no space to trim, ASCII or Unicode: TrimSpace only for the others.
	if n := len(rest); n == 0 || !plainEnd(rest[0]) || !plainEnd(rest[n-1]) {
		rest = bytes.TrimSpace(rest)
	}
	if len(rest) == 0 || proto == nil && isProtocol(rest) {
		return false
	}
	r.Method, r.Target, r.Protocol = method, rest, proto
	return true
}

// plainEnd reports whether c, at an end of a value, leaves nothing for
// bytes.TrimSpace to trim: an ASCII byte above the space, which is no
// space and cannot be part of a multi-byte one.
func plainEnd(c byte) bool { return c > ' ' && c < utf8.RuneSelf }

// isProtocol reports whether b looks like "HTTP/1.1": upper-case letters, a
// slash, then digits and dots.
func isProtocol(b []byte) bool {
	i := 0
	for i < len(b) && 'A' <= b[i] && b[i] <= 'Z' {
		i++
	}
	if i == 0 || i == len(b) || b[i] != '/' || i+1 == len(b) {
		return false
	}
	for _, c := range b[i+1:] {
		if (c < '0' || c > '9') && c != '.' {
			return false
		}
	}
	return true
}

// tokenChars marks the characters of an HTTP token (RFC 9110 tchar).
var tokenChars = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return t
}()

func isToken(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !tokenChars[c] {
			return false
		}
	}
	return true
}

// addrChars marks the characters of a client address: IPv4, IPv6 (with a
// zone), or a host name when the server resolves clients (Apache's %h with
// HostnameLookups on).
var addrChars = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c] = true
		t[c-'a'+'A'] = true
	}
	for _, c := range ".:-_%" {
		t[c] = true
	}
	return t
}()

// clientIP checks the shape of a client address and strips the brackets
// around an IPv6 address, and its port after them ("[::1]", "[::1]:443").
// The stream layer validates the address (package ingest).
func clientIP(v []byte) ([]byte, bool) {
	v = unbracket(v)
	if len(v) == 0 || len(v) > 255 || isDash(v) {
		return nil, false
	}
	for _, c := range v {
		if !addrChars[c] {
			return nil, false
		}
	}
	return v, true
}

// stripPort drops a ":port" suffix from a host ("example.com:443",
// "[::1]:80"); a bare IPv6 address is left alone.
func stripPort(v []byte) []byte {
	k := bytes.LastIndexByte(v, ':')
	if k < 0 || k == len(v)-1 || !allDigits(v[k+1:]) {
		return v
	}
	h := v[:k]
	if bytes.IndexByte(h, ':') >= 0 && !(len(h) > 1 && h[0] == '[' && h[len(h)-1] == ']') {
		return v // an IPv6 address without brackets: no port
	}
	return h
}

func allDigits(v []byte) bool {
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// parseStatus parses an HTTP status of one to three digits; "-" is absent.
func parseStatus(v []byte) (int32, bool) {
	if isDash(v) {
		return -1, true
	}
	return fieldStatus(v)
}

// parseBytes parses a byte count; "-" is absent (-1), or zero when dashZero
// (Apache's %b). A leading '+' (HAProxy's logasap) is accepted.
func parseBytes(v []byte, dashZero bool) (int64, bool) {
	if isDash(v) {
		if dashZero {
			return 0, true
		}
		return -1, true
	}
	if len(v) > 0 && v[0] == '+' {
		v = v[1:]
	}
	return fieldBytes(v)
}

// The built-in layouts, as Apache LogFormat strings (Apache's own definitions
// in httpd.conf; nginx's "combined" writes the same line).
const (
	layoutCommon        = `%h %l %u %t "%r" %>s %b`
	layoutCombined      = `%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"`
	layoutVhostCombined = `%v:%p %h %l %u %t "%r" %>s %O "%{Referer}i" "%{User-Agent}i"`
)

func init() {
	common := mustCompile(layoutCommon, true)
	combined := mustCompile(layoutCombined, true)
	// vhost_combined: Apache writes "%v:%p"; other setups write "%v" alone
	// ("www.example.com 1.2.3.4 - - ..."). Parse the first word as a host
	// with an optional port, which is dropped.
	vhost := mustCompile(`%v `+layoutCombined, true)
	vhost.fields[0].kind = kHostPort
	// Apache's vhost_combined logs %O, which is never "-"; tolerate "-" as
	// zero like %b, since many vhost setups are combined with %b.
	for i := range vhost.fields {
		if vhost.fields[i].kind == kBytes {
			vhost.fields[i].kind = kBytesCLF
		}
	}
	vhost.prepare()
	register(Format{
		Name:      "vhost_combined",
		Doc:       `Apache vhost_combined: "%v:%p %h %l %u %t \"%r\" %>s %O \"%{Referer}i\" \"%{User-Agent}i\"" (port optional, extra trailing fields allowed)`,
		New:       vhost.newParser,
		Sniffable: true,
	})
	register(Format{
		Name: "combined",
		Doc:  `Apache/nginx combined: "%h %l %u %t \"%r\" %>s %b \"%{Referer}i\" \"%{User-Agent}i\"" (extra trailing fields allowed)`,
		New: func() Parser {
			return &combinedParser{layoutParser{l: combined, scratch: make([]byte, 0, 1024)}}
		},
		Sniffable: true,
	})
	register(Format{
		Name:      "common",
		Doc:       `Common Log Format: "%h %l %u %t \"%r\" %>s %b" (extra trailing fields allowed)`,
		New:       common.newParser,
		Sniffable: true,
	})
}
