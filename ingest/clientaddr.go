package ingest

import (
	"bytes"
	"hash/maphash"
	"net/netip"
	"unicode/utf8"
	"unsafe"
)

// Reasons under which a client address is counted in
// Accounting.InvalidClients. The line is kept (it is a request that
// happened) and its client_ip is written as "".
const (
	// ClientNotAddress: neither an IPv4 nor an IPv6 address: an IPv4 octet
	// above 255 ("999.1.1.1") or with a leading zero ("010.1.1.1", octal to
	// some, decimal to others), an IPv4 address in brackets, junk.
	ClientNotAddress = "not an address"
	// ClientWithPort: an IPv4 address with a port ("1.2.3.4:8080"). An
	// IPv6 address with a port in brackets ("[2001:db8::3]:443", RFC 3986
	// §3.2.2) is an address: the port is dropped.
	ClientWithPort = "address with a port"
	// ClientWithZone: an IPv6 address with a zone ("fe80::1%eth0", RFC
	// 4007 §11): it names an interface of the logging host, not a client
	// anyone else can reach or block.
	ClientWithZone = "address with a zone"
	// ClientHostname: a name of letters, digits, hyphens and dots whose
	// last label has a letter, as Apache logs %h with HostnameLookups on
	// ("unknown" counts here too).
	ClientHostname = "hostname"
	// ClientMissing: the parser found no client address at all.
	ClientMissing = "no address"
)

// clientValueBytes is how much of an invalid client address a sample keeps.
const clientValueBytes = 64

// clientChecker validates client addresses for one worker (clientAddr),
// remembering the last one: runs of requests of one client are the rule
// (three lines in four in a generated month of traffic), and comparing
// costs less than checking even a dotted IPv4 address.
//
// It also remembers the results for the addresses that are no dotted IPv4
// address (IPv6 ones, mostly), in a small table indexed by their hash:
// parsing one and writing it back in canonical form costs several times a
// lookup, and a client's requests often come in runs broken by other
// clients' requests. The table holds no pointers to the heap but its
// reasons, which are constants, so it costs the collector nothing.
type clientChecker struct {
	scratch []byte
	last    []byte // the last address checked
	lastOut []byte // its result when in scratch or seen
	lastOff int    // else the offset of the result in it
	lastLen int
	lastWhy string
	hasLast bool
	seen    *[seenSlots]seenClient // allocated at the first address remembered
	seed    maphash.Seed
}

// seenSlots is the size of clientChecker.seen, and seenBytes the longest
// address it remembers: 1,024 slots catch nearly as many repeats as an
// unbounded map on a month of realistic traffic (docs/performance.md), in
// 120 KiB; an IPv6 address with brackets and a port fits in 48 bytes.
const (
	seenSlots = 1024
	seenBytes = 48
)

// seenClient is the result of clientAddr for the address key[:keyLen]
// (keyLen 0: an empty slot): the reason it is invalid, or its
// canonical form out[:outLen] (outLen -1: the address itself).
type seenClient struct {
	key    [seenBytes]byte
	out    [seenBytes]byte
	keyLen uint8
	outLen int8
	why    string
}

// check returns clientAddr(v). The result is valid until the next call or
// as long as v, whichever is shorter.
func (c *clientChecker) check(v []byte) ([]byte, string) {
	if c.hasLast && v != nil && string(v) == string(c.last) {
		if c.lastWhy != "" || c.lastOut != nil {
			return c.lastOut, c.lastWhy
		}
		return v[c.lastOff : c.lastOff+c.lastLen], ""
	}
	switch {
	case isDottedIPv4(v): // what clientAddr checks first, and keeps
		c.last = append(c.last[:0], v...)
		c.hasLast, c.lastWhy, c.lastOut, c.lastOff, c.lastLen = true, "", nil, 0, len(v)
		return v, ""
	case len(v) == 0 || len(v) > seenBytes:
		return c.checkNew(v)
	}
	return c.checkSeen(v)
}

// checkSeen is check for an address that is no dotted IPv4 address, of 1
// to seenBytes bytes: the remembered result, or clientAddr's, remembered.
func (c *clientChecker) checkSeen(v []byte) ([]byte, string) {
	if c.seen == nil {
		c.seen, c.seed = new([seenSlots]seenClient), maphash.MakeSeed()
	}
	e := &c.seen[maphash.Bytes(c.seed, v)%seenSlots]
	if int(e.keyLen) == len(v) && string(e.key[:len(v)]) == string(v) {
		c.last = append(c.last[:0], v...)
		c.hasLast, c.lastWhy, c.lastOut = true, e.why, nil
		switch {
		case e.why != "":
			return nil, e.why
		case e.outLen < 0:
			c.lastOff, c.lastLen = 0, len(v)
			return v, ""
		}
		c.lastOut = e.out[:e.outLen:e.outLen]
		return c.lastOut, ""
	}
	out, why := c.checkNew(v)
	e.keyLen = uint8(copy(e.key[:], v))
	e.why, e.outLen = why, -1
	if why == "" && (!within(v, out) || len(out) != len(v)) {
		// Written in canonical form (at most 39 bytes), or v without its
		// brackets and port: it fits in out.
		e.outLen = int8(copy(e.out[:], out))
	}
	return out, why
}

// checkNew is check for an address not remembered.
func (c *clientChecker) checkNew(v []byte) ([]byte, string) {
	out, why := clientAddr(v, &c.scratch)
	c.last = append(c.last[:0], v...)
	c.hasLast, c.lastWhy, c.lastOut = v != nil, why, nil
	switch {
	case why != "":
	case within(v, out):
		c.lastOff = int(uintptr(unsafe.Pointer(unsafe.SliceData(out))) - uintptr(unsafe.Pointer(unsafe.SliceData(v))))
		c.lastLen = len(out)
	default:
		c.lastOut = out // in scratch, which only clientAddr writes
	}
	return out, why
}

// clientAddr validates the client address v that a parser found and
// returns what the client_ip column holds: v itself for a dotted IPv4
// address (the common case, checked by hand without allocating); for an
// IPv6 address its RFC 5952 form, and for an IPv4-mapped IPv6 address
// (::ffff:1.2.3.4) the IPv4 address, written in *scratch (valid until the
// next call); v without the brackets and port of "[2001:db8::3]:443". For
// anything else it returns nil and the reason (ClientNotAddress...).
func clientAddr(v []byte, scratch *[]byte) ([]byte, string) {
	if isDottedIPv4(v) {
		return v, ""
	}
	if v == nil {
		return nil, ClientMissing
	}
	in := v
	bracketed := false
	if len(v) > 0 && v[0] == '[' {
		end := bytes.IndexByte(v, ']')
		if end < 0 {
			return nil, ClientNotAddress
		}
		if rest := v[end+1:]; len(rest) > 0 && (rest[0] != ':' || !isPort(rest[1:])) {
			return nil, ClientNotAddress
		}
		in, bracketed = v[1:end], true
	}
	// netip does not keep the string but in its error (dropped here) and in
	// a zone (interned, that is copied): no copy of the line is needed.
	a, err := netip.ParseAddr(unsafe.String(unsafe.SliceData(in), len(in)))
	if err != nil {
		return nil, invalidClientReason(in, bracketed)
	}
	switch {
	case a.Zone() != "":
		return nil, ClientWithZone
	case a.Is4():
		if bracketed { // an IP-literal holds IPv6 (RFC 3986 §3.2.2)
			return nil, ClientNotAddress
		}
		return in, "" // cannot happen: isDottedIPv4 took it
	case a.Is4In6():
		a = a.Unmap()
	}
	*scratch = a.AppendTo((*scratch)[:0])
	if string(*scratch) == string(in) {
		return in, ""
	}
	return *scratch, ""
}

// invalidClientReason says why v, which netip does not parse, is no address.
func invalidClientReason(v []byte, bracketed bool) string {
	if i := bytes.IndexByte(v, '%'); i > 0 && i < len(v)-1 {
		if _, err := netip.ParseAddr(string(v[:i])); err == nil {
			return ClientWithZone
		}
	}
	if i := bytes.LastIndexByte(v, ':'); !bracketed && i > 0 && isPort(v[i+1:]) && isDottedIPv4(v[:i]) {
		return ClientWithPort
	}
	if !bracketed && isHostname(v) {
		return ClientHostname
	}
	return ClientNotAddress
}

// isDottedIPv4 reports whether v is an IPv4 address in dotted-decimal form:
// four decimal octets of at most 255 without leading zeros, as
// netip.ParseAddr accepts them.
func isDottedIPv4(v []byte) bool {
	n := len(v)
	if n < 7 || n > 15 {
		return false
	}
	i := 0
	for k := range 4 {
		if k > 0 {
			if v[i] != '.' {
				return false
			}
			i++
		}
		if i >= n {
			return false
		}
		d0 := v[i] - '0' // wraps around below '0'
		if d0 > 9 {
			return false
		}
		i++
		if i < n && v[i]-'0' <= 9 {
			if d0 == 0 {
				return false // a leading zero
			}
			d1 := v[i] - '0'
			i++
			if i < n && v[i]-'0' <= 9 {
				if int(d0)*100+int(d1)*10+int(v[i]-'0') > 255 {
					return false
				}
				i++
			}
		}
		if i >= n && k < 3 {
			return false
		}
	}
	return i == n
}

// isPort reports whether v is a TCP port: 1 to 5 digits, at most 65535.
func isPort(v []byte) bool {
	if len(v) == 0 || len(v) > 5 {
		return false
	}
	n := 0
	for _, c := range v {
		if c < '0' || c > '9' {
			return false
		}
		n = n*10 + int(c-'0')
	}
	return n <= 65535
}

// isHostname reports whether v is made of labels of letters, digits and
// hyphens separated by dots, the last of which has a letter (a top-level
// domain is not all-numeric, RFC 3696 §2: "0x7f.0.0.1" is no name).
func isHostname(v []byte) bool {
	if len(v) == 0 || len(v) > 253 || v[0] == '.' || v[0] == '-' {
		return false
	}
	letter := false // in the current label
	for _, c := range v {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
			letter = true
		case c == '.':
			letter = false
		case c >= '0' && c <= '9', c == '-':
		default:
			return false
		}
	}
	return letter
}

// clientSampleText is the text of an invalid client address in a sample:
// its first clientValueBytes bytes, with control characters (C0, DEL and
// C1, such as ESC and CSI) and bytes that are not UTF-8 written as \xHH.
func clientSampleText(v []byte) string {
	if len(v) > clientValueBytes {
		v = v[:clientValueBytes]
	}
	s := string(appendRepaired(nil, v))
	out := make([]byte, 0, len(s))
	for i, r := range s {
		if r < 0x20 || r >= 0x7f && r <= 0x9f {
			for _, c := range []byte(s[i : i+utf8.RuneLen(r)]) {
				out = append(out, '\\', 'x', hexDigits[c>>4], hexDigits[c&0xf])
			}
			continue
		}
		out = utf8.AppendRune(out, r)
	}
	return string(out)
}
