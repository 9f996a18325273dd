package logfmt

import "bytes"

// combinedParser parses the combined format with the layout engine, after a
// fast path written for that one layout:
//
//	%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-Agent}i"
//
// The fast path takes the lines most logs are made of: no backslash in a
// quoted field (where the engine would undo escapes or skip an escaped
// quote; elsewhere a backslash fails the field's own check), each quoted
// field closed by the first '"' after it, each separator where the layout
// puts it, no trailing field cut inside its quotes. A line cut inside a
// quoted field has no such closing quote: the engine rejects it as
// ErrTruncatedLine. It fills the Row exactly as the layout engine would (the
// differential test and FuzzCombinedFastPath hold it to that) and gives up
// on any other line, which the engine then parses — and rejects with its
// reason when the line is bad. So the fast path decides nothing on its own:
// it only skips the generic walk over the fields.
type combinedParser struct {
	layoutParser
}

// Parse implements Parser.
func (p *combinedParser) Parse(line []byte, r *Row) error {
	if p.fast(line, r) {
		return nil
	}
	return p.layoutParser.Parse(line, r)
}

// fast parses line into r when it is a plain combined line and reports
// whether it did; r is undefined when it did not.
func (p *combinedParser) fast(line []byte, r *Row) bool {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	// r is not reset here: a line that parses sets every field below, and
	// the fields combined does not log at the end; one that does not goes
	// to the layout engine, which resets it. Zeroing the whole Row first
	// cost a tenth of the fast path.
	// %h, up to the first space. One walk over the address's characters
	// finds its end too when the first byte that is not one of them is the
	// space (no brackets): the checks of clientIP, without a second pass.
	i := addrEnd(line)
	if i > 0 && i < len(line) && line[i] == ' ' && i <= 255 && !(i == 1 && line[0] == '-') {
		r.ClientIP = line[:i]
	} else {
		if i = indexByteShort(line, ' '); i <= 0 {
			return false
		}
		ip, ok := clientIP(line[:i])
		if !ok {
			return false
		}
		r.ClientIP = ip
	}
	pos := i + 1
	// %l, up to the next space, without a tab.
	if i = dashField(line, pos); i < 0 {
		i = indexByteShort(line[pos:], ' ')
		if i < 0 || bytes.IndexByte(line[pos:pos+i], '\t') >= 0 {
			return false
		}
	}
	pos += i + 1
	// %u, up to " [", without a tab (nor a space: it ends at the first).
	if i = dashField(line, pos); i < 0 {
		i = indexByteShort(line[pos:], ' ')
		if i < 0 || bytes.IndexByte(line[pos:pos+i], '\t') >= 0 {
			return false
		}
	}
	pos += i + 1
	if pos >= len(line) || line[pos] != '[' {
		return false
	}
	pos++
	// %t, up to `] "`. The time is most often "10/Oct/2000:13:55:36 -0700",
	// 26 bytes, which cannot hold a ']': when it parses, the ']' after it
	// is the first, and the search for it can be skipped.
	var t int64
	ok := false
	if pos+28 < len(line) && line[pos+26] == ']' {
		t, ok = p.times.parse(line[pos : pos+26])
		i = 26
	}
	if !ok {
		i = bytes.IndexByte(line[pos:], ']')
		if i < 0 || pos+i+2 >= len(line) {
			return false
		}
		if t, ok = p.times.parse(line[pos : pos+i]); !ok {
			return false
		}
	}
	if line[pos+i+1] != ' ' || line[pos+i+2] != '"' {
		return false
	}
	r.Time = t
	pos += i + 3
	// "%r", up to `" `.
	i = bytes.IndexByte(line[pos:], '"')
	if i < 0 || pos+i+1 >= len(line) || line[pos+i+1] != ' ' || hasBackslash(line[pos:pos+i]) {
		return false
	}
	if !splitRequest(line[pos:pos+i], r) {
		return false
	}
	pos += i + 2
	// %>s, up to a space. As for %h, the walk over its digits finds the
	// space when it follows them; a dash or anything else takes the search.
	if v, k := leadingDigits(line[pos:], 3); k > 0 && pos+k < len(line) && line[pos+k] == ' ' {
		r.Status, i = int32(v), k
	} else {
		if i = indexByteShort(line[pos:], ' '); i < 0 {
			return false
		}
		status, ok := parseStatus(line[pos : pos+i])
		if !ok {
			return false
		}
		r.Status = status
	}
	pos += i + 1
	// %b, up to ` "`; "-" is zero bytes.
	if v, k := leadingDigits(line[pos:], 18); k > 0 && pos+k+1 < len(line) && line[pos+k] == ' ' && line[pos+k+1] == '"' {
		r.Bytes, i = v, k
	} else {
		i = indexByteShort(line[pos:], ' ')
		if i < 0 || pos+i+1 >= len(line) || line[pos+i+1] != '"' {
			return false
		}
		n, ok := parseBytes(line[pos:pos+i], true)
		if !ok {
			return false
		}
		r.Bytes = n
	}
	pos += i + 2
	// "%{Referer}i", up to `" "`.
	i = bytes.IndexByte(line[pos:], '"')
	if i < 0 || pos+i+2 >= len(line) || line[pos+i+1] != ' ' || line[pos+i+2] != '"' || hasBackslash(line[pos:pos+i]) {
		return false
	}
	r.Referer = plainStr(line[pos : pos+i])
	pos += i + 3
	// "%{User-Agent}i", up to a '"' that ends the line or is followed by a
	// blank (trailing fields, which must not end inside a quoted one).
	i = bytes.IndexByte(line[pos:], '"')
	if i < 0 || hasBackslash(line[pos:pos+i]) {
		return false
	}
	if end := pos + i + 1; end < len(line) && (line[end] != ' ' && line[end] != '\t' || cutInTrailing(line[end:])) {
		return false
	}
	r.UserAgent = plainStr(line[pos : pos+i])
	r.Host, r.ForwardedFor, r.Scheme, r.RetryAfter = nil, nil, nil, nil
	r.SignatureAgent, r.SignatureInput, r.Signature = nil, nil, nil
	return true
}

// dashField returns 1 when line holds "- " at pos (the usual %l and %u):
// the field's end, found without a search. Else it returns -1.
func dashField(line []byte, pos int) int {
	if pos+1 < len(line) && line[pos] == '-' && line[pos+1] == ' ' {
		return 1
	}
	return -1
}

// addrEnd returns the index of the first byte of line that is not one of
// addrChars, or len(line) when there is none.
func addrEnd(line []byte) int {
	for i, c := range line {
		if !addrChars[c] {
			return i
		}
	}
	return len(line)
}

// leadingDigits returns the value of the decimal digits that begin b, at
// most max of them (max <= 18 keeps it within an int64), and their count.
func leadingDigits(b []byte, max int) (int64, int) {
	b = b[:min(len(b), max)]
	var v int64
	for i, c := range b {
		if c < '0' || c > '9' {
			return v, i
		}
		v = v*10 + int64(c-'0')
	}
	return v, len(b)
}

// indexByteShort is bytes.IndexByte(b, c) for a c expected within the
// first bytes of b (the end of an address, a status, a size): it looks at
// up to 16 bytes itself before it calls IndexByte, whose setup costs more
// than so short a scan.
func indexByteShort(b []byte, c byte) int {
	n := min(len(b), 16)
	for i := range n {
		if b[i] == c {
			return i
		}
	}
	if len(b) <= n {
		return -1
	}
	if i := bytes.IndexByte(b[n:], c); i >= 0 {
		return n + i
	}
	return -1
}

// hasBackslash reports whether a quoted field holds an escape.
func hasBackslash(v []byte) bool { return bytes.IndexByte(v, '\\') >= 0 }

// plainStr is layoutParser.str for a value known to hold no backslash.
func plainStr(v []byte) []byte {
	if len(v) == 0 || isDash(v) {
		return nil
	}
	return v
}
