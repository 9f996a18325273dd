package logfmt

import "bytes"

// The alb format: AWS Elastic Load Balancing access logs of Application Load
// Balancers, one request per line, space-separated, with some fields quoted:
//
//	type time elb client:port target:port request_processing_time
//	target_processing_time response_processing_time elb_status_code
//	target_status_code received_bytes sent_bytes "request" "user_agent"
//	ssl_cipher ssl_protocol target_group_arn "trace_id" "domain_name" ...
//
// Decisions:
//   - The first 14 fields are required; any fields after "user_agent" are
//     ignored (AWS appends fields over time). Classic Load Balancer lines,
//     which lack the leading type field and start with the time, are accepted
//     too.
//   - Time is the "time" field (when the load balancer answered), in UTC, as
//     in the AWS documentation's queries; request_creation_time is not in
//     every version of the layout and differs by the processing time only.
//   - The request field is "METHOD absolute-URL PROTOCOL". Host is the URL's
//     host, without the port when it is the scheme's default (":443" for
//     https, ":80" for http) and with any other port; target is the URL's path
//     and query exactly as logged ("/" when the URL has no path). A request
//     ALB could not parse ("- http://host:80- -") is rejected with
//     ErrBadRequestLine.
//   - client_ip is the client field without its port; status is
//     elb_status_code (what the client received; "-" is absent); bytes is
//     sent_bytes; user_agent "-" is absent. A quoted field ends at the first
//     '"' that is not escaped as \" and is followed by a space or the end of
//     the line; inner quotes and backslashes are kept as logged. A line that
//     ends inside a quoted field, read or skipped (cut mid-write), is
//     ErrTruncatedLine.

func init() {
	register(Format{
		Name:      "alb",
		Doc:       "AWS Application Load Balancer access logs (also Classic Load Balancer)",
		New:       func() Parser { return &albParser{} },
		Sniffable: true,
	})
}

// albNumFields is how many leading fields of an ALB line the parser reads.
const albNumFields = 14

type albParser struct {
	fields [albNumFields][]byte
}

// Parse implements Parser.
func (p *albParser) Parse(line []byte, r *Row) error {
	r.Reset()
	line = trimLine(line)
	f := &p.fields
	// Classic ELB lines start with the time: shift them to the ALB layout.
	first := 0
	if len(line) > 0 && line[0] >= '0' && line[0] <= '9' {
		sp := bytes.IndexByte(line, ' ')
		if sp < 0 {
			return ErrNotThisFormat
		}
		if _, ok := ParseISO8601(line[:sp]); !ok {
			return ErrNotThisFormat
		}
		f[0] = nil
		first = 1
	}
	n := first
	i := 0
	for n < albNumFields {
		for i < len(line) && line[i] == ' ' {
			i++
		}
		if i == len(line) {
			break
		}
		if line[i] == '"' {
			j := albClose(line, i)
			if j < 0 {
				return ErrTruncatedLine
			}
			f[n] = line[i+1 : j]
			i = j + 1
		} else {
			j := i
			for j < len(line) && line[j] != ' ' {
				j++
			}
			f[n] = line[i:j]
			i = j
		}
		n++
	}
	if n < albNumFields {
		if n <= first+1 {
			return ErrNotThisFormat
		}
		return ErrFieldCount
	}
	// The fields after the user agent are not read, but a line cut inside
	// one of them is cut all the same.
	if albCutAfter(line, i) {
		return ErrTruncatedLine
	}
	if first == 0 {
		switch string(f[0]) {
		case "http", "https", "h2", "grpcs", "ws", "wss":
		default:
			return ErrNotThisFormat
		}
	}

	t, ok := ParseISO8601(f[1])
	if !ok {
		return ErrBadTimestamp
	}
	r.Time = t

	client := f[3]
	switch colons := bytes.Count(client, []byte(":")); {
	case len(client) > 0 && client[0] == '[': // "[2001:db8::1]:54321"
		if end := bytes.IndexByte(client, ']'); end > 0 {
			client = client[1:end]
		}
	case colons >= 1: // "192.0.2.1:54321", or IPv6 with the port appended: "2001:db8::1:54321"
		client = client[:bytes.LastIndexByte(client, ':')]
	}
	if !isClientIP(client) {
		return ErrBadClientIP
	}
	r.ClientIP = client

	status, size := f[8], f[11] // "-" when the load balancer sent no response
	if isDash(status) {
		status = nil
	}
	if isDash(size) {
		size = nil
	}
	if err := setStatusBytes(r, status, size); err != nil {
		return err
	}

	// "GET https://www.example.com:443/path?q HTTP/1.1"
	req := f[12]
	sp1 := bytes.IndexByte(req, ' ')
	sp2 := bytes.LastIndexByte(req, ' ')
	if sp1 <= 0 || sp2 <= sp1 {
		return ErrBadRequestLine
	}
	r.Method = req[:sp1]
	if !isMethodToken(r.Method) || r.Method[0] == '-' {
		return ErrBadRequestLine
	}
	scheme, auth, rest, ok := splitAbsoluteURL(req[sp1+1 : sp2])
	if !ok || len(auth) == 0 {
		return ErrBadRequestLine
	}
	r.Host = hostOfAuthority(scheme, auth)
	if len(r.Host) == 0 {
		return ErrBadRequestLine
	}
	if len(rest) == 0 {
		rest = albSlash
	}
	r.Target = rest
	r.Protocol = req[sp2+1:]
	if len(r.Protocol) == 0 || r.Protocol[0] == '-' {
		return ErrBadRequestLine
	}

	if ua := f[13]; len(ua) > 0 && !(len(ua) == 1 && ua[0] == '-') {
		r.UserAgent = ua
	}
	return nil
}

// albClose returns the index of the quote that closes the quoted field
// opened at line[open]: the first '"' after it that is not escaped as \" and
// is followed by a space or the end of the line; -1 when the line ends
// inside the field.
func albClose(line []byte, open int) int {
	j := open + 1
	for {
		k := bytes.IndexByte(line[j:], '"')
		if k < 0 {
			return -1
		}
		j += k
		if line[j-1] == '\\' && j-1 > open { // an escaped quote: \"
			j++
			continue
		}
		if j+1 == len(line) || line[j+1] == ' ' {
			return j
		}
		j++
	}
}

// albCutAfter reports whether the fields of line after line[i] (a space, or
// the end of the line), which the parser skips, end inside a quoted one. A
// quote after a space opens a field (elsewhere it is inside an unquoted one)
// that the next quote not escaped as \" and followed by a space or the end
// of the line closes, as in albClose. Only the last quote after a space
// matters: it opens the last quoted field or is inside it, so the line ends
// inside a field exactly when no quote closes one after it. When that quote
// could close a field itself (`"a "`, or `"` at the end of the line) the
// quotes are followed from the start.
func albCutAfter(line []byte, i int) bool {
	q := len(line)
	for {
		k := bytes.LastIndexByte(line[i:q], '"')
		if k < 0 {
			return false
		}
		q = i + k
		if line[q-1] == ' ' {
			break
		}
	}
	if q+1 == len(line) || line[q+1] == ' ' {
		return albCutForward(line, i)
	}
	return albClose(line, q) < 0
}

// albCutForward is albCutAfter following every quote from line[i] on.
func albCutForward(line []byte, i int) bool {
	open := -1
	for {
		k := bytes.IndexByte(line[i:], '"')
		if k < 0 {
			return open >= 0
		}
		j := i + k
		i = j + 1
		switch {
		case open < 0:
			if line[j-1] == ' ' {
				open = j
			}
		case line[j-1] == '\\' && j-1 > open:
		case i == len(line) || line[i] == ' ':
			open = -1
		}
	}
}

// albSlash is the target of an absolute URL without a path. Its capacity is
// its length, so a caller's append cannot write into it.
var albSlash = []byte("/")[:1:1]
