package logfmt

import "bytes"

// The w3c format: W3C Extended Log File Format (W3C Working Draft WD-logfile,
// 1996) as Microsoft IIS writes it, and as IIS Advanced Logging, Oracle Web
// Cache and other servers write it.
//
// Decisions, where the draft and IIS's documentation leave room:
//   - Lines starting with '#' are directives and return ErrDirective.
//     "#Fields:" sets the layout of the data lines that follow, and may change
//     mid-file (the format is Stateful). "#Date:" supplies the date for
//     layouts that log only a time. "#GMT-Offset:" (Oracle) applies only to
//     date-local/time-local.
//   - Without any "#Fields:" line yet, the IIS default layouts are assumed by
//     field count: 14 fields (IIS 7) or 15 fields (IIS 8.5+, with
//     cs(Referer)); other counts are rejected (ErrFieldCount, or
//     ErrNotThisFormat when the first field is not a date).
//   - Fields are separated by runs of spaces or tabs. A field that starts
//     with '"' is a quoted string in which "" stands for one quote (IIS
//     Advanced Logging, Oracle); "-" and "" mean absent. A line that ends
//     inside a quoted string (cut mid-write) is ErrTruncatedLine; text glued
//     to a closing quote is ErrSyntax. (IIS's own W3C logs quote nothing: a
//     cut one has too few fields, ErrFieldCount.)
//   - date and time are UTC. date-local/time-local (IIS Advanced Logging) are
//     used only when date/time are not logged, at the offset of a
//     "#GMT-Offset:" directive if there is one, else taken as UTC (the offset
//     is not in the log; the report's times are then local).
//   - target is cs-uri-stem, plus "?" and cs-uri-query when the query is
//     logged; or cs-uri when the stem is not logged (an absolute URL or
//     "host/path", as Incapsula writes, gives the host too).
//   - In an unquoted cs(User-Agent), IIS writes each space as '+', leaving a
//     literal '+' as it is, so "; +http://" becomes ";++http://". A lone '+'
//     is decoded as a space and a run of n '+' as a space and n-1 '+': this
//     restores the usual crawler strings exactly (bingbot, Googlebot).
//     cs(Referer) is kept as logged: it is a URL, which cannot contain a
//     space, so a '+' in it is a literal '+' ("?q=a+b").
//   - host is cs-host or cs(Host); client_ip is c-ip and is required (a line
//     without it is rejected with ErrBadClientIP); bytes is sc-bytes (or
//     Oracle's "bytes"); protocol is cs-version.
//   - forwarded_for is cs(X-Forwarded-For), or a field named X-Forwarded-For
//     (IIS enhanced logging names a custom field as configured), kept whole;
//     in an unquoted value, IIS's '+' for space is undone ("1.2.3.4,+10.0.0.5"
//     is "1.2.3.4, 10.0.0.5": an address has no '+').
//   - A logged method must be an HTTP token: IIS FTP logs ("[2]USER") are
//     rejected with ErrBadRequestLine. A layout without cs-method gives rows
//     without a method.

func init() {
	register(Format{
		Name:      "w3c",
		Doc:       "W3C extended log file format (IIS; #Fields: directives, UTC date and time)",
		New:       func() Parser { return newExtParser(extW3C) },
		Stateful:  true,
		Sniffable: true,
	})
}

// extKind is the meaning of one column of a W3C-style layout.
type extKind uint8

const (
	extOther extKind = iota
	extDate
	extTime
	extDateLocal
	extTimeLocal
	extClientIP
	extMethod
	extURIStem
	extURIQuery
	extURI
	extVersion
	extUserAgent
	extReferer
	extHost
	extHostHeader
	extStatus
	extBytes
	extForwardedFor
	extNumKinds
)

// extFieldNames maps lower-cased W3C field identifiers to their meaning.
var extFieldNames = map[string]extKind{
	"date":                extDate,
	"time":                extTime,
	"date-local":          extDateLocal,
	"time-local":          extTimeLocal,
	"c-ip":                extClientIP,
	"cs-method":           extMethod,
	"cs-uri-stem":         extURIStem,
	"cs-uri-query":        extURIQuery,
	"cs-uri":              extURI,
	"cs-version":          extVersion,
	"cs-protocol-version": extVersion,
	"cs(user-agent)":      extUserAgent,
	"cs(referer)":         extReferer,
	"cs(referrer)":        extReferer,
	"cs-host":             extHost,
	"cs(host)":            extHost,
	"x-host-header":       extHostHeader,
	"sc-status":           extStatus,
	"sc-bytes":            extBytes,
	"bytes":               extBytes,
	"x-forwarded-for":     extForwardedFor, // CloudFront; an IIS custom field so named
	"cs(x-forwarded-for)": extForwardedFor, // IIS Advanced Logging, Oracle
}

// extDialect is the flavour of the W3C extended format: IIS-style (w3c) or
// CloudFront.
type extDialect uint8

const (
	extW3C extDialect = iota
	extCloudFront
)

// Default layouts, used until a "#Fields:" directive is seen.
var (
	extIIS7Layout  = extLayoutOf("date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) sc-status sc-substatus sc-win32-status time-taken")
	extIIS85Layout = extLayoutOf("date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs(User-Agent) cs(Referer) sc-status sc-substatus sc-win32-status time-taken")
	// cloudFrontLayout is the standard log (legacy, v1) field order; older
	// files have a prefix of it, newer ones may append fields.
	cloudFrontLayout = extLayoutOf("date time x-edge-location sc-bytes c-ip cs-method cs(Host) cs-uri-stem sc-status cs(Referer) cs(User-Agent) cs-uri-query cs(Cookie) x-edge-result-type x-edge-request-id x-host-header cs-protocol cs-bytes time-taken x-forwarded-for ssl-protocol ssl-cipher x-edge-response-result-type cs-protocol-version fle-status fle-encrypted-fields c-port time-to-first-byte x-edge-detailed-result-type sc-content-type sc-content-len sc-range-start sc-range-end")
)

// extLayoutOf returns the column kinds of a "#Fields:" list.
func extLayoutOf(fields string) []extKind {
	var l []extKind
	for _, f := range bytes.Fields([]byte(fields)) {
		l = append(l, extKindOf(f))
	}
	return l
}

// extKindOf returns the meaning of one field identifier, case-insensitively.
func extKindOf(name []byte) extKind {
	var buf [32]byte
	if len(name) > len(buf) {
		return extOther
	}
	lower := buf[:len(name)]
	for i, c := range name {
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		lower[i] = c
	}
	return extFieldNames[string(lower)]
}

// extSpan is one field of a data line: a slice of the line or of the
// parser's scratch buffer, and whether it was quoted.
type extSpan struct {
	b      []byte
	quoted bool
	set    bool
}

// extParser parses W3C extended lines (dialect extW3C) and CloudFront
// standard log lines (extCloudFront).
type extParser struct {
	dialect extDialect
	// layout is the current "#Fields:" layout, or nil before the first one.
	layout []extKind
	// date is the date of the last "#Date:" directive, for layouts without a
	// date field.
	date    [10]byte
	hasDate bool
	// gmtOffset is the "#GMT-Offset:" directive's offset in µs east of UTC.
	gmtOffset int64
	vals      [extNumKinds]extSpan
	scratch   []byte
}

func newExtParser(d extDialect) *extParser { return &extParser{dialect: d} }

// Parse implements Parser.
func (p *extParser) Parse(line []byte, r *Row) error {
	r.Reset()
	line = trimLine(line)
	if len(line) > 0 && line[0] == '#' {
		p.directive(line)
		return ErrDirective
	}
	if cap(p.scratch) < 2*len(line)+8 {
		p.scratch = make([]byte, 0, 2*len(line)+64)
	}
	p.scratch = p.scratch[:0]
	for i := range p.vals {
		p.vals[i] = extSpan{}
	}
	if err := p.split(line); err != nil {
		return err
	}
	return p.fill(r)
}

// directive interprets "#Fields:", "#Date:" and "#GMT-Offset:"; every other
// directive is ignored.
func (p *extParser) directive(line []byte) {
	name, value, ok := bytes.Cut(line[1:], []byte(":"))
	if !ok {
		return
	}
	value = bytes.TrimSpace(value)
	switch {
	case bytes.EqualFold(name, []byte("Fields")):
		l := p.layout[:0]
		for _, f := range bytes.Fields(value) {
			l = append(l, extKindOf(f))
		}
		p.layout = l
	case bytes.EqualFold(name, []byte("Date")), bytes.EqualFold(name, []byte("Start-Date")):
		if len(value) >= 10 && value[4] == '-' && value[7] == '-' {
			if _, ok := ParseDateTime(value[:10], []byte("00:00:00")); ok {
				copy(p.date[:], value[:10])
				p.hasDate = true
			}
		}
	case bytes.EqualFold(name, []byte("GMT-Offset")):
		// "-0800": parse as an ISO offset on a fixed date.
		var buf [32]byte
		b := append(append(buf[:0], "1970-01-01T00:00:00"...), value...)
		if t, ok := ParseISO8601(b); ok && len(value) > 0 {
			p.gmtOffset = -t
		}
	}
}

// split cuts line into fields by the current layout and stores the ones the
// row needs in p.vals.
func (p *extParser) split(line []byte) error {
	layout := p.layout
	if p.dialect == extCloudFront {
		if layout == nil {
			layout = cloudFrontLayout
		}
		n := 0
		for start := 0; ; n++ {
			end := bytes.IndexByte(line[start:], '\t')
			if end < 0 {
				end = len(line)
			} else {
				end += start
			}
			if n < len(layout) {
				if k := layout[n]; k != extOther {
					p.vals[k] = extSpan{b: line[start:end], set: true}
				}
			}
			if end == len(line) {
				break
			}
			start = end + 1
		}
		n++
		switch {
		case n < 2:
			return ErrNotThisFormat
		case p.layout != nil && n != len(p.layout):
			return ErrFieldCount
		case p.layout == nil && n < 12: // up to cs-uri-query: the oldest layout has them all
			return ErrFieldCount
		}
		return nil
	}

	n := 0
	i := 0
	for {
		for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
			i++
		}
		if i == len(line) {
			break
		}
		var f extSpan
		f.set = true
		if line[i] == '"' {
			// A quoted string; "" is a literal quote.
			start := len(p.scratch)
			i++
			closed := false
			for i < len(line) {
				c := line[i]
				if c == '"' {
					if i+1 < len(line) && line[i+1] == '"' {
						p.scratch = append(p.scratch, '"')
						i += 2
						continue
					}
					i++
					closed = true
					break
				}
				p.scratch = append(p.scratch, c)
				i++
			}
			if !closed {
				return ErrTruncatedLine // the line ends inside the string
			}
			if i < len(line) && line[i] != ' ' && line[i] != '\t' {
				return ErrSyntax
			}
			f.b = p.scratch[start:len(p.scratch):len(p.scratch)]
			f.quoted = true
		} else {
			start := i
			for i < len(line) && line[i] != ' ' && line[i] != '\t' {
				i++
			}
			f.b = line[start:i]
		}
		if n == 0 && layout == nil {
			// No "#Fields:" yet: choose an IIS default layout by count,
			// after checking that this looks like a W3C line at all.
			if len(f.b) != 10 || f.b[4] != '-' || f.b[7] != '-' {
				return ErrNotThisFormat
			}
			switch extCountFields(line) {
			case len(extIIS7Layout):
				layout = extIIS7Layout
			case len(extIIS85Layout):
				layout = extIIS85Layout
			default:
				return ErrFieldCount
			}
		}
		if n < len(layout) {
			if k := layout[n]; k != extOther {
				p.vals[k] = f
			}
		}
		n++
	}
	if n == 0 {
		return ErrSyntax
	}
	if n != len(layout) {
		return ErrFieldCount
	}
	return nil
}

// extCountFields counts the whitespace-separated fields of an unquoted line.
func extCountFields(line []byte) int {
	n := 0
	in := false
	for _, c := range line {
		if c == ' ' || c == '\t' {
			in = false
		} else if !in {
			in = true
			n++
		}
	}
	return n
}

// val returns the value of field k, or nil when it is absent: not in the
// layout, "-" or empty.
func (p *extParser) val(k extKind) []byte {
	v := p.vals[k]
	if !v.set || len(v.b) == 0 || !v.quoted && len(v.b) == 1 && v.b[0] == '-' {
		return nil
	}
	return v.b
}

// fill builds the row from the fields found by split.
func (p *extParser) fill(r *Row) error {
	// Time.
	date, clock := p.val(extDate), p.val(extTime)
	var off int64
	if date == nil && clock == nil {
		date, clock = p.val(extDateLocal), p.val(extTimeLocal)
		off = p.gmtOffset
	}
	if date == nil && clock != nil && p.hasDate {
		date = p.date[:]
	}
	if date == nil || clock == nil {
		return ErrBadTimestamp
	}
	t, ok := ParseDateTime(date, clock)
	if !ok {
		return ErrBadTimestamp
	}
	r.Time = t - off

	// Client.
	ip := unbracket(p.val(extClientIP))
	if !isClientIP(ip) {
		return ErrBadClientIP
	}
	r.ClientIP = ip

	// Request.
	r.Method = p.val(extMethod)
	if r.Method != nil && !isMethodToken(r.Method) {
		return ErrBadRequestLine
	}
	if err := p.target(r); err != nil {
		return err
	}
	r.Protocol = p.val(extVersion)

	// Host: CloudFront's x-host-header is the Host the viewer sent (the
	// site's own name); cs(Host) is the distribution's domain name.
	if h := p.val(extHostHeader); h != nil {
		r.Host = h
	} else if h := p.val(extHost); h != nil {
		r.Host = h
	}

	if err := setStatusBytes(r, p.val(extStatus), p.val(extBytes)); err != nil {
		return err
	}

	r.Referer = p.val(extReferer)
	r.UserAgent = p.val(extUserAgent)
	r.ForwardedFor = p.val(extForwardedFor)
	switch p.dialect {
	case extW3C:
		if r.UserAgent != nil && !p.vals[extUserAgent].quoted && hasByte(r.UserAgent, '+') {
			r.UserAgent = p.decodePlus(r.UserAgent)
		}
		if r.ForwardedFor != nil && !p.vals[extForwardedFor].quoted && hasByte(r.ForwardedFor, '+') {
			r.ForwardedFor = p.decodePlus(r.ForwardedFor)
		}
	case extCloudFront:
		if r.ForwardedFor != nil && hasByte(r.ForwardedFor, '%') {
			start := len(p.scratch)
			p.scratch = appendPercentDecoded(p.scratch, r.ForwardedFor)
			r.ForwardedFor = p.scratch[start:len(p.scratch):len(p.scratch)]
		}
		if r.UserAgent != nil && hasByte(r.UserAgent, '%') {
			r.UserAgent = p.decodeCloudFrontUA(r.UserAgent)
		}
		if r.Referer != nil && hasByte(r.Referer, '%') {
			start := len(p.scratch)
			p.scratch = appendPercentDecoded(p.scratch, r.Referer)
			r.Referer = p.scratch[start:len(p.scratch):len(p.scratch)]
		}
	}
	return nil
}

// target sets r.Target (and r.Host for a cs-uri with a host).
func (p *extParser) target(r *Row) error {
	stem, query := p.val(extURIStem), p.val(extURIQuery)
	if stem == nil {
		uri := p.val(extURI)
		if uri == nil {
			return ErrBadRequestLine
		}
		if scheme, auth, rest, ok := splitAbsoluteURL(uri); ok {
			r.Host = hostOfAuthority(scheme, auth)
			if len(r.Host) == 0 {
				return ErrBadRequestLine
			}
			stem = rest
			if len(stem) == 0 {
				stem = []byte("/")
			}
		} else if uri[0] != '/' {
			// Incapsula: "www.example.com/page.php".
			slash := bytes.IndexByte(uri, '/')
			if slash <= 0 {
				return ErrBadRequestLine
			}
			r.Host = uri[:slash]
			stem = uri[slash:]
		} else {
			stem = uri
		}
		if bytes.IndexByte(stem, '?') >= 0 {
			query = nil // the query is already in cs-uri
		}
	}
	if query == nil {
		r.Target = stem
		return nil
	}
	start := len(p.scratch)
	p.scratch = append(p.scratch, stem...)
	p.scratch = append(p.scratch, '?')
	p.scratch = append(p.scratch, query...)
	r.Target = p.scratch[start:len(p.scratch):len(p.scratch)]
	return nil
}

// decodePlus undoes IIS's '+' for space in an unquoted field: a lone '+' is a
// space, a run of n '+' is a space followed by n-1 literal '+'.
func (p *extParser) decodePlus(b []byte) []byte {
	start := len(p.scratch)
	for i := 0; i < len(b); i++ {
		if b[i] != '+' {
			p.scratch = append(p.scratch, b[i])
			continue
		}
		p.scratch = append(p.scratch, ' ')
		for i+1 < len(b) && b[i+1] == '+' {
			p.scratch = append(p.scratch, '+')
			i++
		}
	}
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}

// decodeCloudFrontUA percent-decodes a CloudFront cs(User-Agent). Some
// CloudFront logs encode the header twice ("Mozilla/5.0%2520(..."): when one
// decoding leaves "%20" and no space, the value is decoded once more.
func (p *extParser) decodeCloudFrontUA(b []byte) []byte {
	start := len(p.scratch)
	p.scratch = appendPercentDecoded(p.scratch, b)
	once := p.scratch[start:]
	if !hasByte(once, ' ') && bytes.Contains(once, []byte("%20")) {
		second := len(p.scratch)
		p.scratch = appendPercentDecoded(p.scratch, once)
		return p.scratch[second:len(p.scratch):len(p.scratch)]
	}
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}
