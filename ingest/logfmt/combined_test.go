package logfmt

import (
	"bytes"
	"fmt"
	"reflect"
	"strings"
	"testing"
)

// newCombinedPair returns the combined format's parser and a bare layout
// engine for the same layout: the reference the fast path must agree with.
func newCombinedPair(t testing.TB) (*combinedParser, Parser) {
	t.Helper()
	p, ok := mustNew(t, "combined").(*combinedParser)
	if !ok {
		t.Fatal("the combined format does not use combinedParser")
	}
	return p, mustCompile(layoutCombined, true).newParser()
}

// checkSameAsEngine parses line with the combined parser and with the layout
// engine and fails unless both return the same error and the same row. It
// reports whether the fast path took the line.
func checkSameAsEngine(t *testing.T, p *combinedParser, ref Parser, line []byte) (fast bool) {
	t.Helper()
	// The rows parsed into hold a former line's values in every field: the
	// fast path does not reset them and must set each.
	got, probe := staleRow(), staleRow()
	var want Row
	// The fast path alone, on a copy, to know whether it took the line.
	fast = p.fast(bytes.Clone(line), &probe)
	err := p.Parse(line, &got)
	wantErr := ref.Parse(line, &want)
	if err != wantErr {
		t.Fatalf("%q: error %v, engine says %v", line, err, wantErr)
	}
	if fast && err != nil {
		t.Fatalf("%q: the fast path took a line the engine rejects (%v)", line, err)
	}
	if err == nil && !reflect.DeepEqual(got, want) {
		t.Fatalf("%q:\n got %+v\nwant %+v", line, got, want)
	}
	if fast && !reflect.DeepEqual(probe, want) {
		t.Fatalf("%q: fast path:\n got %+v\nwant %+v", line, probe, want)
	}
	return fast
}

// staleRow returns a Row with every field set, as a former line leaves it.
func staleRow() Row {
	var r Row
	v := reflect.ValueOf(&r).Elem()
	for i := range v.NumField() {
		switch f := v.Field(i); f.Kind() {
		case reflect.Slice:
			f.SetBytes([]byte("stale"))
		case reflect.Int32, reflect.Int64:
			f.SetInt(12345)
		default:
			panic("staleRow: a Row field of kind " + f.Kind().String())
		}
	}
	return r
}

// TestCombinedFastPath: the fast path fills rows exactly as the layout engine
// does, leaves every line it does not take to the engine, and takes the
// plain lines logs are made of.
func TestCombinedFastPath(t *testing.T) {
	p, ref := newCombinedPair(t)
	const ok = `203.0.113.9 - - [10/Oct/2026:13:55:36 -0700] "GET /a?b=c HTTP/1.1" 200 2326 "https://example.com/" "Mozilla/5.0 (compatible; Googlebot/2.1)"`
	tests := []struct {
		name string
		line string
		fast bool // the fast path takes it
	}{
		{"plain", ok, true},
		{"crlf", ok + "\r", true},
		{"trailing field", ok + ` "-"`, true},
		{"trailing tab field", ok + "\t0.123", true},
		{"dashes", `::1 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.0" 304 - "-" "-"`, true},
		{"empty referer and agent", `::1 - - [10/Oct/2026:13:55:36 +0000] "GET / HTTP/1.0" 200 0 "" ""`, true},
		{"user", `10.0.0.1 - frank [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"empty ident", `10.0.0.1  frank [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"bracketed v6", `[2001:db8::1] - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"http/0.9", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x" 200 1 "-" "curl/8.0"`, true},
		{"space in target", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /a b HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"fraction", `10.0.0.1 - - [10/Oct/2026:13:55:36.123 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		// %h as Apache's mod_log_config documents it: the client's address, or
		// its name with HostnameLookups on; the fast path's one walk over it
		// must end where the engine's field ends.
		{"hostname client", `crawl-66-249-66-1.googlebot.com - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"zone", `fe80::1%eth0 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"client of 255 bytes", strings.Repeat("a", 255) + ` - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, true},
		{"client of 256 bytes", strings.Repeat("a", 256) + ` - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, false},
		{"dash client", `- - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl/8.0"`, false},
		{"tab after client", "10.0.0.1\t- - [10/Oct/2026:13:55:36 -0700] \"GET /x HTTP/1.1\" 200 1 \"-\" \"curl/8.0\"", false},
		{"client alone", `10.0.0.1`, false},
		// %>s and %b (Apache's mod_log_config: %b is "-" for no bytes), whose
		// digits the fast path walks once.
		{"one-digit status", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 2 1 "-" "curl/8.0"`, true},
		{"dash status", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" - 1 "-" "curl/8.0"`, true},
		{"status and a tab", "10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] \"GET /x HTTP/1.1\" 200\t1 \"-\" \"curl/8.0\"", false},
		{"dash size", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 - "-" "curl/8.0"`, true},
		{"size with a plus", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 +12 "-" "curl/8.0"`, true},
		{"size of 18 digits", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 123456789012345678 "-" "curl/8.0"`, true},
		{"size of 19 digits", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1234567890123456789 "-" "curl/8.0"`, false},
		{"size without the referer's quote", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 12 -`, false},
		// Left to the engine, which accepts them.
		{"escaped quote in agent", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "a \"b\" c"`, false},
		{"escape in target", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x\x41 HTTP/1.1" 200 1 "-" "curl"`, false},
		{"unterminated agent", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "Mozilla/5.0 (cut`, false},
		{"quote inside agent", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "a "b" c"`, false},
		{"quote inside referer", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "a"b" "curl"`, false},
		{"quote inside request", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /"x" HTTP/1.1" 200 1 "-" "curl"`, false},
		{"bracket in user", `10.0.0.1 - fr]ank [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`, true},
		{"bracket in time", `10.0.0.1 - - [10/Oct/2026]:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`, false},
		// Rejected, by the engine, with its reason.
		{"dash request", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "-" 400 0 "-" "-"`, false},
		{"bad time", `10.0.0.1 - - [32/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`, false},
		{"bad status", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 2000 1 "-" "curl"`, false},
		{"bad bytes", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1k "-" "curl"`, false},
		{"bad client", `10.0.0.1/8 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`, false},
		{"tab in ident", "10.0.0.1 -\tx - [10/Oct/2026:13:55:36 -0700] \"GET /x HTTP/1.1\" 200 1 \"-\" \"curl\"", false},
		{"tab in user", "10.0.0.1 - a\tb [10/Oct/2026:13:55:36 -0700] \"GET /x HTTP/1.1\" 200 1 \"-\" \"curl\"", false},
		{"space in user", `10.0.0.1 - a b [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`, false},
		{"junk after agent", ok + `x`, false},
		{"cut inside request", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /private/x HT`, false},
		{"cut inside referer", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "https://exa`, false},
		{"cut inside agent: the bot Cla", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /private/x HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Cla`, false},
		{"cut inside agent, CRLF", "10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] \"GET /private/x HTTP/1.1\" 200 1 \"-\" \"Mozilla/5.0 (compatible; Cla\r", false},
		{"cut inside a quoted trailing field", ok + ` "10.0.0.1, 10.0`, false},
		{"cut after a trailing field's opening quote", ok + "\t0.123 \"", false},
		{"trailing fields with quotes inside", ok + ` rt=0.1 ua="a b" x"y`, true},
		{"common line", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1`, false},
		{"no referer", `10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "curl"`, false},
		{"json", `{"time":"2026-10-10T13:55:36Z"}`, false},
		{"empty", ``, false},
		{"leading space", ` ` + ok, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if fast := checkSameAsEngine(t, p, ref, []byte(tt.line)); fast != tt.fast {
				t.Errorf("fast path took it: %v, want %v", fast, tt.fast)
			}
		})
	}

	// The realistic mix: all the same as the engine, and the fast path
	// takes every line without a backslash that the engine accepts.
	var plain, took int
	for _, l := range combinedMix(4096) {
		fast := checkSameAsEngine(t, p, ref, l)
		var r Row
		if bytes.IndexByte(l, '\\') < 0 && ref.Parse(l, &r) == nil {
			plain++
			if !fast {
				t.Errorf("the fast path left a plain line: %q", l)
			}
		}
		if fast {
			took++
		}
	}
	if plain < 3000 || took != plain {
		t.Errorf("fast path took %d lines of %d plain ones", took, plain)
	}
}

// FuzzCombinedFastPath holds the fast path to the layout engine on any line.
func FuzzCombinedFastPath(f *testing.F) {
	for _, l := range combinedMix(64) {
		f.Add(bytes.Clone(l))
	}
	f.Add([]byte(`10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "a "b" c"` + "\r"))
	f.Add([]byte(strings.Repeat(`" `, 20)))
	f.Add([]byte(`10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /private/x HTTP/1.1" 200 1 "-" "Mozilla/5.0 (compatible; Cla`))
	f.Add([]byte(`10.0.0.1 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl" "10.0.0.1, 10.0`))
	f.Add([]byte(`[2001:db8::3]:443 - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`))
	f.Add([]byte(`[2001:db8::3] - - [10/Oct/2026:13:55:36 -0700] "GET /x HTTP/1.1" 200 1 "-" "curl"`))
	f.Fuzz(func(t *testing.T, line []byte) {
		p, ref := newCombinedPair(t)
		checkSameAsEngine(t, p, ref, line)
		checkCuts(t, p, ref, line)
	})
}

// checkCuts checks, for a line that the combined format accepts, that the
// same line cut inside one of its quoted fields is a truncated line (for the
// fast path and the engine alike), and so is the line with a trailing field
// opened but not closed.
func checkCuts(t *testing.T, p *combinedParser, ref Parser, line []byte) {
	t.Helper()
	var r Row
	if ref.Parse(line, &r) != nil {
		return
	}
	cut := func(what string, l []byte) {
		t.Helper()
		checkSameAsEngine(t, p, ref, l)
		if err := p.Parse(l, &r); err != ErrTruncatedLine {
			t.Fatalf("%q accepted; %s: %q gives %v, want %v", line, what, l, err, ErrTruncatedLine)
		}
	}
	cut("with an unclosed trailing field", append(bytes.Clone(line), ` "x`...))
	// With no backslash and exactly six quotes, the quotes are the
	// delimiters of the request, the referer and the user agent: cut the
	// line right after an opening quote, in the field, and right before the
	// closing quote.
	if bytes.IndexByte(line, '\\') >= 0 || bytes.Count(line, []byte{'"'}) != 6 {
		return
	}
	var q []int
	for i, c := range line {
		if c == '"' {
			q = append(q, i)
		}
	}
	for f := 0; f < 6; f += 2 {
		open, closing := q[f], q[f+1]
		for _, k := range []int{open + 1, (open + 1 + closing) / 2, closing} {
			cut(fmt.Sprintf("cut at %d inside quoted field %d", k, f/2+1), bytes.Clone(line[:k]))
		}
	}
}

// TestSplitRequest: the request line "METHOD TARGET[ PROTOCOL]" (RFC 9112
// §3: request-line = method SP request-target SP HTTP-version; HTTP/0.9
// lines have no version) split as the layout engine and the fast path
// both do, with the spaces around the target trimmed as bytes.TrimSpace
// trims them, Unicode spaces included, whichever way the ends are checked.
func TestSplitRequest(t *testing.T) {
	tests := []struct {
		name, line            string
		ok                    bool
		method, target, proto string
	}{
		{"RFC 9112 §3 request line", "GET /where?q=now HTTP/1.1", true, "GET", "/where?q=now", "HTTP/1.1"},
		{"HTTP/0.9, no version", "GET /x", true, "GET", "/x", ""},
		{"space inside the target", "GET /a b HTTP/1.1", true, "GET", "/a b", "HTTP/1.1"},
		{"two spaces before the version", "GET /a  HTTP/1.1", true, "GET", "/a", "HTTP/1.1"},
		{"two spaces after the method", "GET  /a HTTP/1.1", true, "GET", "/a", "HTTP/1.1"},
		{"tab after the target", "GET /a\t HTTP/1.1", true, "GET", "/a", "HTTP/1.1"},
		{"no-break space (U+00A0) after the target", "GET /a\u00a0 HTTP/1.1", true, "GET", "/a", "HTTP/1.1"},
		{"next line (U+0085) before the target", "GET \u0085/a HTTP/1.1", true, "GET", "/a", "HTTP/1.1"},
		{"ideographic space (U+3000) ends the target", "GET /a\u3000", true, "GET", "/a", ""},
		{"non-ASCII last byte, no space", "GET /caf\u00e9 HTTP/1.1", true, "GET", "/caf\u00e9", "HTTP/1.1"},
		{"invalid UTF-8 at the end", "GET /a\xff HTTP/1.1", true, "GET", "/a\xff", "HTTP/1.1"},
		{"control byte at the end, not a space", "GET /a\x01 HTTP/1.1", true, "GET", "/a\x01", "HTTP/1.1"},
		{"DEL at the end, not a space", "GET /a\x7f", true, "GET", "/a\x7f", ""},
		{"RFC 9110 §9.1: the method is a token", "G(T /a HTTP/1.1", false, "", "", ""},
		{"only spaces for a target", "GET \u00a0 HTTP/1.1", false, "", "", ""},
		{"a version and no target", "GET HTTP/1.1", false, "", "", ""},
		{"no space", "GET", false, "", "", ""},
		{"method longer than 32 bytes", strings.Repeat("M", 33) + " /a", false, "", "", ""},
		{"method of 32 bytes", strings.Repeat("M", 32) + " /a", true, strings.Repeat("M", 32), "/a", ""},
		{"RFC 9110 §9.1: tchar punctuation in the method", "M-SEARCH * HTTP/1.1", true, "M-SEARCH", "*", "HTTP/1.1"},
		{"a space before the method", " GET /a HTTP/1.1", false, "", "", ""},
		{"a tab after the method", "GET\t/a HTTP/1.1", false, "", "", ""},
		{"a method and a space alone", "GET ", false, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r Row
			r.Reset()
			ok := splitRequest([]byte(tt.line), &r)
			if ok != tt.ok {
				t.Fatalf("%q: ok = %v, want %v", tt.line, ok, tt.ok)
			}
			if !ok {
				return
			}
			if string(r.Method) != tt.method || string(r.Target) != tt.target || string(r.Protocol) != tt.proto {
				t.Errorf("%q: got %q %q %q, want %q %q %q", tt.line, r.Method, r.Target, r.Protocol, tt.method, tt.target, tt.proto)
			}
			if (r.Protocol == nil) != (tt.proto == "") {
				t.Errorf("%q: protocol %q, want nil: %v", tt.line, r.Protocol, tt.proto == "")
			}
		})
	}
}

// FuzzSplitRequest holds splitRequest's method to the rule of RFC 9110 §9.1
// as the parser wrote it before its one walk over the method: the first
// space ends a method of 1 to 32 token characters. A request line whose
// method breaks the rule is refused; one whose method keeps it is split
// there, and accepted or refused as the same line with the method GET.
func FuzzSplitRequest(f *testing.F) {
	for _, s := range []string{"GET / HTTP/1.1", "M-SEARCH * HTTP/1.1", " GET /", "GET", "GET ", "G(T /a", "GET\t/a",
		strings.Repeat("M", 32) + " /a", strings.Repeat("M", 33) + " /a"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, v []byte) {
		sp := bytes.IndexByte(v, ' ')
		methodOK := sp > 0 && sp <= 32 && isToken(v[:sp])
		var r Row
		got := splitRequest(v, &r)
		if !methodOK {
			if got {
				t.Fatalf("%q accepted with the method %q", v, r.Method)
			}
			return
		}
		if got && string(r.Method) != string(v[:sp]) {
			t.Fatalf("%q: method %q, want %q", v, r.Method, v[:sp])
		}
		var g Row
		if want := splitRequest(append([]byte("GET"), v[sp:]...), &g); got != want {
			t.Fatalf("%q: accepted %v, but %v with the method GET", v, got, want)
		}
	})
}
