package logfmt

import "bytes"

// Value helpers shared by the jsonl, w3c, cloudfront and alb parsers. None of
// them allocates; each takes the bytes of one field as logged.

// fieldStatus parses an HTTP status code of one to three digits ("200"). A
// logged 0 (Caddy writes it when no response was written) is kept as 0.
func fieldStatus(b []byte) (int32, bool) {
	if len(b) == 0 || len(b) > 3 {
		return 0, false
	}
	var v int32
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int32(c-'0')
	}
	return v, true
}

// setStatusBytes sets r.Status and r.Bytes from the logged fields; a nil
// field leaves the value absent.
func setStatusBytes(r *Row, status, bytes []byte) error {
	if status != nil {
		n, ok := fieldStatus(status)
		if !ok {
			return ErrBadStatus
		}
		r.Status = n
	}
	if bytes != nil {
		n, ok := fieldBytes(bytes)
		if !ok {
			return ErrBadBytes
		}
		r.Bytes = n
	}
	return nil
}

// fieldBytes parses a non-negative decimal byte count of at most 18 digits.
func fieldBytes(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int64(c-'0')
	}
	return v, true
}

// unbracket returns the address inside an IP-literal with or without a
// port, "[2001:db8::3]" or "[2001:db8::3]:443" (RFC 3986 §3.2.2, as Go's
// net/http writes RemoteAddr); any other b is returned as it is. The
// stream layer validates what is inside.
func unbracket(b []byte) []byte {
	if len(b) < 3 || b[0] != '[' {
		return b
	}
	end := bytes.IndexByte(b, ']')
	if end < 2 {
		return b
	}
	if rest := b[end+1:]; len(rest) > 0 && (rest[0] != ':' || len(rest) == 1 || len(rest) > 6 || !allDigits(rest[1:])) {
		return b
	}
	return b[1:end]
}

// isClientIP reports whether b looks like an IPv4 or IPv6 address as logs
// write them: hex digits, dots and colons, with at least one dot or colon, an
// optional IPv6 zone ("%eth0") and at most 64 bytes. It is a cheap shape check
// that keeps hostnames, "unknown" and binary junk out of the client_ip column;
// the stream layer validates addresses strictly (package ingest, the
// accounting's invalid_clients).
func isClientIP(b []byte) bool {
	if len(b) < 2 || len(b) > 64 {
		return false
	}
	sep := false
	for i, c := range b {
		switch {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == '.' || c == ':':
			sep = true
		case c == '%' && i > 0 && sep:
			return isZoneID(b[i+1:])
		default:
			return false
		}
	}
	return sep
}

func isZoneID(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for _, c := range b {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// isMethodToken reports whether b is an HTTP method: 1 to 32 tchar octets
// (RFC 9110 §5.6.2). It rejects FTP verbs logged as "[2]USER" by IIS FTP and
// free text.
func isMethodToken(b []byte) bool {
	if len(b) == 0 || len(b) > 32 {
		return false
	}
	for _, c := range b {
		if !isTchar(c) {
			return false
		}
	}
	return true
}

func isTchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// splitAbsoluteURL splits "https://host:443/path?q" into its scheme
// ("https"), authority ("host:443") and the rest ("/path?q", possibly empty).
// ok is false when u does not start with a scheme followed by "://".
func splitAbsoluteURL(u []byte) (scheme, authority, rest []byte, ok bool) {
	i := 0
	for i < len(u) && (u[i] >= 'a' && u[i] <= 'z' || u[i] >= 'A' && u[i] <= 'Z' || i > 0 && (u[i] >= '0' && u[i] <= '9' || u[i] == '+' || u[i] == '-' || u[i] == '.')) {
		i++
	}
	if i == 0 || len(u) < i+3 || u[i] != ':' || u[i+1] != '/' || u[i+2] != '/' {
		return nil, nil, nil, false
	}
	scheme = u[:i]
	j := i + 3
	k := j
	for k < len(u) && u[k] != '/' && u[k] != '?' && u[k] != '#' {
		k++
	}
	return scheme, u[j:k], u[k:], true
}

// hostOfAuthority returns the host of an authority without userinfo and
// without the port when the port is the default for the scheme (80 for http
// and ws, 443 for https, h2, grpcs and wss); another port is kept, since
// robots.txt applies per host and port (RFC 9309 §2.3).
func hostOfAuthority(scheme, authority []byte) []byte {
	for i := len(authority) - 1; i >= 0; i-- {
		if authority[i] == '@' {
			authority = authority[i+1:]
			break
		}
	}
	colon := -1
	for i := len(authority) - 1; i >= 0; i-- {
		c := authority[i]
		if c == ':' {
			colon = i
			break
		}
		if c < '0' || c > '9' {
			break
		}
	}
	if colon < 0 {
		return authority
	}
	port := string(authority[colon+1:])
	switch string(scheme) {
	case "http", "HTTP", "ws":
		if port == "80" || port == "" {
			return authority[:colon]
		}
	case "https", "HTTPS", "h2", "grpcs", "wss":
		if port == "443" || port == "" {
			return authority[:colon]
		}
	}
	return authority
}

// hexDigitValue returns the value of a hexadecimal digit, or -1.
func hexDigitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// appendPercentDecoded appends b to dst with every valid "%XX" escape decoded.
// A '%' not followed by two hex digits is kept as it is; '+' is not touched
// (it is a space only in form bodies).
func appendPercentDecoded(dst, b []byte) []byte {
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c == '%' && i+2 < len(b) {
			if h, l := hexDigitValue(b[i+1]), hexDigitValue(b[i+2]); h >= 0 && l >= 0 {
				dst = append(dst, byte(h<<4|l))
				i += 2
				continue
			}
		}
		dst = append(dst, c)
	}
	return dst
}

// hasByte reports whether b contains c.
func hasByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// trimLine drops a UTF-8 byte order mark at the start of line (the first
// line of a file written by Windows tools) and one trailing carriage return
// left by a CRLF file.
func trimLine(b []byte) []byte {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if len(b) > 0 && b[len(b)-1] == '\r' {
		return b[:len(b)-1]
	}
	return b
}
