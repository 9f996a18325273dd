package logfmt

import "bytes"

// ErrNotRequest is returned by the haproxy parser for a line that HAProxy
// wrote but that logs no HTTP request: start-up and alert messages
// ("Proxy www started."), connection errors ("SSL handshake failure") and
// TCP-mode logs.
const ErrNotRequest Reason = "not a request"

// haproxyParser parses HAProxy's default HTTP log format ("option httplog"),
// with or without a syslog prefix:
//
//	Feb  6 12:14:14 localhost haproxy[14389]: 10.0.1.2:33317 [06/Feb/2009:12:14:14.655] http-in static/srv1 10/0/30/69/109 200 2750 - - ---- 1/1/1/1/0 0/0 {1wt.eu|Mozilla/5.0 (X11)} {} "GET /index.html HTTP/1.1"
//
// Decisions:
//   - The log starts at the first word that is "client:port" followed by
//     " [", so that any prefix (RFC 3164 or RFC 5424 syslog, journald,
//     docker) is skipped whatever its tag; a line without one is
//     ErrNotThisFormat, or ErrNotRequest when it carries a haproxy[pid] tag.
//   - Time is the accept date, which HAProxy writes in its local time without
//     an offset: it is taken as UTC. Run HAProxy with TZ=UTC (as its
//     container images do) or the times shift by the zone's offset.
//   - Five slash-separated timers mark an HTTP log; three (TCP mode) or
//     anything else after the frontend is ErrNotRequest.
//   - Bytes is bytes_read, the bytes sent to the client, headers included.
//   - HAProxy logs no user agent, referer or host unless the configuration
//     captures request headers ("capture request header User-Agent len 200"),
//     which it writes in the first {...} block, separated by '|', in an order
//     the log does not name. Each captured value is assigned by its look: the
//     first value starting with "http://" or "https://" is the referer; the
//     first bare host name (letters, digits, dots, hyphens, an optional
//     :port, at least one letter and one dot, so neither an X-Forwarded-For
//     address nor a bare word) is the host, its port dropped; the first
//     remaining value with a "name/version" product token or a space in it
//     is the user agent (a bare "Wget" is not recognised). Other captures
//     (addresses, Accept-Language, ...) are ignored. A second {...} block
//     holds response headers and is ignored; a single block is taken as the
//     request headers.
//   - HAProxy's #XX escapes (for '"', '#', '{', '|', '}' and control bytes)
//     are undone in the request line and in captured headers.
//   - The request line is the last field, between quotes. HAProxy cuts a
//     log line longer than its buffer ("log ... len", 1024 bytes by default),
//     losing the closing quote; a log rotated mid-write loses it too. Such a
//     line, cut inside the request or inside the captured headers before it,
//     is ErrTruncatedLine: its target may be cut, and a cut user agent would
//     name a bot that never came. Raise the log length (or shorten the
//     captures) to keep long requests.
type haproxyParser struct {
	scratch []byte
}

func init() {
	register(Format{
		Name:      "haproxy",
		Doc:       `HAProxy HTTP log (option httplog), with or without a syslog prefix; user agent, referer and host from captured request headers`,
		New:       func() Parser { return &haproxyParser{scratch: make([]byte, 0, 512)} },
		Sniffable: true,
	})
}

// haproxyStart finds where the HTTP log part of line begins: the first word
// that is an "addr:port" followed by " [". Each word is looked at once, so
// the search is linear in the length of the line.
func haproxyStart(line []byte) int {
	for from := 0; from < len(line); {
		if looksLikeHAProxyClient(line[from:]) {
			return from
		}
		j := bytes.IndexByte(line[from:], ' ')
		if j < 0 {
			return -1
		}
		from += j + 1
	}
	return -1
}

// looksLikeHAProxyClient reports whether b starts with "addr:port [".
func looksLikeHAProxyClient(b []byte) bool {
	sp := bytes.IndexByte(b, ' ')
	if sp < 0 || sp+1 >= len(b) || b[sp+1] != '[' {
		return false
	}
	_, ok := splitHostPort(b[:sp])
	return ok
}

// splitHostPort returns the address of "addr:port" (IPv4, IPv6 with or
// without brackets).
func splitHostPort(b []byte) ([]byte, bool) {
	k := bytes.LastIndexByte(b, ':')
	if k <= 0 || k == len(b)-1 || !allDigits(b[k+1:]) {
		return nil, false
	}
	return clientIP(b[:k])
}

// Parse implements Parser.
func (p *haproxyParser) Parse(line []byte, r *Row) error {
	r.Reset()
	p.scratch = p.scratch[:0]
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	start := haproxyStart(line)
	if start < 0 {
		if bytes.Contains(line, []byte("haproxy[")) {
			return ErrNotRequest
		}
		return ErrNotThisFormat
	}
	s := line[start:]
	// client:port [accept date]
	sp := bytes.IndexByte(s, ' ')
	ip, _ := splitHostPort(s[:sp])
	r.ClientIP = ip
	s = s[sp+2:]
	end := bytes.IndexByte(s, ']')
	if end < 0 {
		return ErrFieldCount
	}
	t, ok := ParseCLFTime(s[:end])
	if !ok {
		return ErrBadTimestamp
	}
	r.Time = t
	s = s[end+1:]
	if len(s) == 0 || s[0] != ' ' {
		return ErrSyntax
	}
	// frontend backend/server timers status bytes
	var tok [5][]byte
	for i := range tok {
		tok[i], s = nextToken(s)
		switch {
		case i == 1 && bytes.IndexByte(tok[1], '/') < 0:
			return ErrNotRequest // "fe/bind: SSL handshake failure"
		case i == 2:
			switch timerCount(tok[2]) {
			case 5:
			case 0:
				return ErrSyntax
			default:
				return ErrNotRequest // TCP log: Tw/Tc/Tt
			}
		case tok[i] == nil:
			return ErrFieldCount
		}
	}
	if len(tok[3]) == 2 && tok[3][0] == '-' && tok[3][1] == '1' {
		r.Status = -1
	} else if st, ok := parseStatus(tok[3]); ok && st >= 0 {
		r.Status = st
	} else {
		return ErrBadStatus
	}
	n, ok := parseBytes(tok[4], false)
	if !ok {
		return ErrBadBytes
	}
	r.Bytes = n
	// cookies, termination state, connection counts and queues, captured
	// headers, then the quoted request line.
	q := bytes.IndexByte(s, '"')
	if q < 0 {
		if b := bytes.LastIndexByte(s, '{'); b >= 0 && bytes.IndexByte(s[b:], '}') < 0 {
			return ErrTruncatedLine // cut inside the captured headers
		}
		return ErrFieldCount
	}
	mid, req := s[:q], s[q+1:]
	k := bytes.LastIndexByte(req, '"')
	if k < 0 {
		// HAProxy writes a quote inside the request as #22: the line ends
		// inside the request, whose target may be cut too.
		return ErrTruncatedLine
	}
	if len(bytes.TrimRight(req[k+1:], " ")) == 0 {
		req = req[:k]
	}
	if b := bytes.IndexByte(mid, '{'); b >= 0 {
		if e := bytes.IndexByte(mid[b:], '}'); e >= 0 {
			p.captures(mid[b+1:b+e], r)
		}
	}
	req = p.unhash(req)
	if !splitRequest(req, r) {
		return ErrBadRequestLine
	}
	return nil
}

// nextToken returns the next space-separated token of s and the rest.
func nextToken(s []byte) (tok, rest []byte) {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	if len(s) == 0 {
		return nil, s
	}
	if i := bytes.IndexByte(s, ' '); i >= 0 {
		return s[:i], s[i:]
	}
	return s, s[len(s):]
}

// timerCount returns how many slash-separated integers ("-1" allowed, '+'
// prefix allowed) make up b, or 0 when it is not such a list.
func timerCount(b []byte) int {
	n := 0
	for len(b) > 0 {
		i := bytes.IndexByte(b, '/')
		part := b
		if i >= 0 {
			part, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(part) > 0 && (part[0] == '-' || part[0] == '+') {
			part = part[1:]
		}
		if len(part) == 0 || !allDigits(part) {
			return 0
		}
		n++
	}
	return n
}

// captures assigns the captured request headers (one {...} block, values
// separated by '|') to the host, referer and user agent.
func (p *haproxyParser) captures(block []byte, r *Row) {
	for len(block) > 0 {
		v := block
		if i := bytes.IndexByte(block, '|'); i >= 0 {
			v, block = block[:i], block[i+1:]
		} else {
			block = nil
		}
		if len(v) == 0 || isDash(v) {
			continue
		}
		v = p.unhash(v)
		switch {
		case bytes.HasPrefix(v, []byte("http://")) || bytes.HasPrefix(v, []byte("https://")):
			if r.Referer == nil {
				r.Referer = v
			}
		case isHostName(v):
			if r.Host == nil {
				r.Host = stripPort(v)
			}
		case looksLikeUA(v):
			if r.UserAgent == nil {
				r.UserAgent = v
			}
		}
	}
}

// isHostName reports whether v is a host name with an optional port:
// letters, digits, dots and hyphens, with at least one letter and one dot
// (so that neither an address nor a bare word such as "Wget" is taken for
// one).
func isHostName(v []byte) bool {
	v = stripPort(v)
	letter, dot := false, false
	for _, c := range v {
		switch {
		case isLetter(c):
			letter = true
		case c == '.':
			dot = true
		case '0' <= c && c <= '9', c == '-':
		default:
			return false
		}
	}
	return letter && dot
}

// looksLikeUA reports whether v starts with a product token "name/version"
// or holds a space, as user agents do.
func looksLikeUA(v []byte) bool {
	if bytes.IndexByte(v, ' ') >= 0 {
		return true
	}
	i := 0
	for i < len(v) && tokenChars[v[i]] && v[i] != '/' {
		i++
	}
	return i > 0 && i+1 < len(v) && v[i] == '/'
}

// unhash undoes HAProxy's "#XX" escapes, into scratch when there are any.
func (p *haproxyParser) unhash(v []byte) []byte {
	i := bytes.IndexByte(v, '#')
	if i < 0 {
		return v
	}
	start := len(p.scratch)
	p.scratch = append(p.scratch, v[:i]...)
	for ; i < len(v); i++ {
		if v[i] == '#' {
			if b, ok := hexByte(v, i+1); ok {
				p.scratch = append(p.scratch, b)
				i += 2
				continue
			}
		}
		p.scratch = append(p.scratch, v[i])
	}
	return p.scratch[start:len(p.scratch):len(p.scratch)]
}
