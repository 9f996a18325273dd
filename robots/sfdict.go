package robots

import (
	"fmt"
	"unicode/utf8"
)

// sfKind is the type of a dictionary member's value, as far as the
// preference vocabulary cares (draft-ietf-aipref-vocab-07 §6.5: only a
// Token "y" or "n" states a preference).
type sfKind uint8

const (
	sfToken     sfKind = iota // a Token (RFC 9651 §3.3.4)
	sfBoolean                 // ?1 or ?0, and a key written without "=" (true)
	sfInnerList               // (a b c)
	sfOther                   // an Integer, Decimal, String, Byte Sequence, Date or Display String
)

// sfMember is one member of a parsed dictionary: its key, the type of its
// value and, for a Token, the token. Strings point into the parsed input.
type sfMember struct {
	key   string
	kind  sfKind
	token string
	// raw is the value as written ("n", "no", "\"n\"", "?1"), "" for a
	// key without "=".
	raw string
}

// sfError says where a dictionary stops being valid: offset is a byte
// offset into the input.
type sfError struct {
	offset int
	what   string
}

func (e *sfError) Error() string {
	return fmt.Sprintf("at character %d: %s", e.offset+1, e.what)
}

// parseSFDictionary parses s as an RFC 9651 Dictionary (§4.2.2, with the
// field-level rules of §4.2: leading and trailing spaces dropped, nothing
// may follow). Members are appended to dst in order of appearance; a key
// that appears twice appears twice (the caller applies "the last value
// wins", §4.2.2, and reports the repetition). It is a validating parser:
// every bare item type of §4.2.3.1 is checked, but only Tokens are kept.
func parseSFDictionary(dst []sfMember, s string) ([]sfMember, error) {
	p := sfParser{s: s}
	p.skip(" ")
	if p.i == len(s) {
		return dst, nil // an empty dictionary (RFC 9651 §4.2: empty input)
	}
	for {
		key, err := p.key()
		if err != nil {
			return dst, err
		}
		m := sfMember{key: key, kind: sfBoolean}
		if p.peek() == '=' {
			p.i++
			start := p.i
			if p.peek() == '(' {
				if err := p.innerList(); err != nil {
					return dst, err
				}
				m.kind = sfInnerList
			} else {
				kind, tok, err := p.bareItem()
				if err != nil {
					return dst, err
				}
				m.kind, m.token = kind, tok
			}
			m.raw = s[start:p.i]
		}
		if err := p.params(); err != nil {
			return dst, err
		}
		dst = append(dst, m)
		p.skip(" \t")
		if p.i == len(s) {
			return dst, nil
		}
		if p.peek() != ',' {
			return dst, p.fail("expected \",\" between members")
		}
		p.i++
		p.skip(" \t")
		if p.i == len(s) {
			return dst, p.fail("a \",\" with no member after it")
		}
	}
}

type sfParser struct {
	s string
	i int
}

func (p *sfParser) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *sfParser) skip(set string) {
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c != set[0] && (len(set) < 2 || c != set[1]) {
			return
		}
		p.i++
	}
}

func (p *sfParser) fail(what string) error { return &sfError{offset: p.i, what: what} }

func isLCAlpha(c byte) bool { return 'a' <= c && c <= 'z' }
func isDigit(c byte) bool   { return '0' <= c && c <= '9' }
func isAlpha(c byte) bool   { return isLCAlpha(c) || 'A' <= c && c <= 'Z' }

// isTChar is RFC 9110 §5.6.2's tchar.
func isTChar(c byte) bool {
	if isAlpha(c) || isDigit(c) {
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

// key parses a key (RFC 9651 §4.2.3.3): lcalpha or "*", then lcalpha,
// DIGIT, "_", "-", "." or "*". Upper case is not allowed.
func (p *sfParser) key() (string, error) {
	start := p.i
	c := p.peek()
	if !isLCAlpha(c) && c != '*' {
		if 'A' <= c && c <= 'Z' {
			return "", p.fail("a label must be lower case")
		}
		return "", p.fail(fmt.Sprintf("a label must start with a lower-case letter, not %s", sfChar(c, p.i == len(p.s))))
	}
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		if !isLCAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' && c != '*' {
			if 'A' <= c && c <= 'Z' {
				return "", p.fail("a label must be lower case")
			}
			break
		}
		p.i++
	}
	return p.s[start:p.i], nil
}

// sfChar names a character for a message.
func sfChar(c byte, end bool) string {
	switch {
	case end:
		return "the end of the value"
	case c == ' ':
		return "a space"
	case c == '\t':
		return "a tab"
	case c < 0x20 || c >= 0x7f:
		return fmt.Sprintf("byte 0x%02x", c)
	}
	return fmt.Sprintf("%q", string(c))
}

// params parses parameters (RFC 9651 §4.2.3.2), which the vocabulary
// ignores (draft-ietf-aipref-vocab-07 §6.5).
func (p *sfParser) params() error {
	for p.peek() == ';' {
		p.i++
		p.skip(" ")
		if _, err := p.key(); err != nil {
			return err
		}
		if p.peek() == '=' {
			p.i++
			if _, _, err := p.bareItem(); err != nil {
				return err
			}
		}
	}
	return nil
}

// innerList parses an Inner List (RFC 9651 §4.2.1.2) and its parameters.
func (p *sfParser) innerList() error {
	p.i++ // "("
	for p.i < len(p.s) {
		p.skip(" ")
		if p.peek() == ')' {
			p.i++
			return p.params()
		}
		if _, _, err := p.bareItem(); err != nil {
			return err
		}
		if err := p.params(); err != nil {
			return err
		}
		if c := p.peek(); c != ' ' && c != ')' {
			return p.fail("expected a space or \")\" in an inner list")
		}
	}
	return p.fail("an inner list without its closing \")\"")
}

// bareItem parses a Bare Item (RFC 9651 §4.2.3.1); tok is set for a Token.
func (p *sfParser) bareItem() (kind sfKind, tok string, err error) {
	c := p.peek()
	switch {
	case c == '-' || isDigit(c):
		return sfOther, "", p.number(false)
	case c == '"':
		return sfOther, "", p.str()
	case isAlpha(c) || c == '*':
		start := p.i
		p.i++
		for p.i < len(p.s) && (isTChar(p.s[p.i]) || p.s[p.i] == ':' || p.s[p.i] == '/') {
			p.i++
		}
		return sfToken, p.s[start:p.i], nil
	case c == ':':
		return sfOther, "", p.bytes()
	case c == '?':
		p.i++
		if b := p.peek(); b != '0' && b != '1' {
			return 0, "", p.fail("a boolean is ?0 or ?1")
		}
		p.i++
		return sfBoolean, "", nil
	case c == '@':
		p.i++
		return sfOther, "", p.number(true)
	case c == '%':
		return sfOther, "", p.displayString()
	}
	return 0, "", p.fail(fmt.Sprintf("expected a value, found %s", sfChar(c, p.i == len(p.s))))
}

// number parses an Integer or Decimal (RFC 9651 §4.2.4); a Date (§4.2.9)
// when date is set, which must be an Integer.
func (p *sfParser) number(date bool) error {
	if p.peek() == '-' {
		p.i++
	}
	if !isDigit(p.peek()) {
		return p.fail("expected a digit")
	}
	digits, dot, frac := 0, -1, 0
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case isDigit(c):
			digits++
			if dot >= 0 {
				frac++
			}
		case c == '.' && dot < 0:
			if date {
				return p.fail("a date is a whole number of seconds")
			}
			if digits > 12 {
				return p.fail("a decimal has at most 12 digits before the point")
			}
			dot = digits
		default:
			goto done
		}
		p.i++
		if digits > 15 {
			return p.fail("a number has at most 15 digits")
		}
	}
done:
	if dot >= 0 && (frac == 0 || frac > 3) {
		return p.fail("a decimal has one to three digits after the point")
	}
	return nil
}

// str parses a String (RFC 9651 §4.2.5).
func (p *sfParser) str() error {
	p.i++
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c == '\\':
			if n := p.peek(); n != '"' && n != '\\' {
				return p.fail("in a string, \\ may only escape \" or \\")
			}
			p.i++
		case c == '"':
			return nil
		case c < 0x20 || c > 0x7e:
			p.i--
			return p.fail("a string holds only printable ASCII")
		}
	}
	return p.fail("a string without its closing quote")
}

// bytes parses a Byte Sequence (RFC 9651 §4.2.7): base64 between colons.
func (p *sfParser) bytes() error {
	p.i++
	pad := false
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == ':' {
			p.i++
			return nil
		}
		if c == '=' {
			pad = true
		} else if pad || !isAlpha(c) && !isDigit(c) && c != '+' && c != '/' {
			return p.fail("a byte sequence holds only base64 characters, \"=\" only at its end")
		}
		p.i++
	}
	return p.fail("a byte sequence without its closing \":\"")
}

// displayString parses a Display String (RFC 9651 §4.2.10): %"…" with
// non-ASCII as lower-case %xx escapes of UTF-8.
func (p *sfParser) displayString() error {
	p.i++
	if p.peek() != '"' {
		return p.fail("expected \" after %")
	}
	p.i++
	var buf [4]byte
	n := 0
	for p.i < len(p.s) {
		c := p.s[p.i]
		p.i++
		switch {
		case c < 0x20 || c > 0x7e:
			p.i--
			return p.fail("a display string holds only printable ASCII")
		case c == '"':
			if n != 0 {
				return p.fail("a display string with an incomplete UTF-8 sequence")
			}
			return nil
		case c == '%':
			if p.i+2 > len(p.s) || !isLCHex(p.s[p.i]) || !isLCHex(p.s[p.i+1]) {
				return p.fail("in a display string, % is followed by two lower-case hex digits")
			}
			buf[n] = unhex(p.s[p.i])<<4 | unhex(p.s[p.i+1])
			n++
			p.i += 2
			if utf8.FullRune(buf[:n]) {
				if r, _ := utf8.DecodeRune(buf[:n]); r == utf8.RuneError {
					return p.fail("a display string that is not UTF-8")
				}
				n = 0
			}
		default:
			if n != 0 {
				return p.fail("a display string with an incomplete UTF-8 sequence")
			}
		}
	}
	return p.fail("a display string without its closing quote")
}

// isLCHex is RFC 9651's lchex: a digit or a lower-case a-f.
func isLCHex(c byte) bool { return isDigit(c) || 'a' <= c && c <= 'f' }
