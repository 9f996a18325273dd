package logfmt

import (
	"bytes"
	"testing"
	"unsafe"
)

// aliases reports whether b points into line.
func aliases(line, b []byte) bool {
	if len(line) == 0 || len(b) == 0 {
		return false
	}
	start := uintptr(unsafe.Pointer(unsafe.SliceData(line)))
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	return p >= start && p+uintptr(len(b)) <= start+uintptr(len(line))
}

// checkParsed checks the invariants of a row parsed from line: every field
// is a sub-slice of the line, or (only when the line holds one of the escape
// bytes of its format) a decoded copy no longer than the line; absent fields
// are nil; values are in range; and parsing the line again, with the same
// parser and with a fresh one, gives the same row.
func checkParsed(t *testing.T, f Format, p Parser, line []byte, r *Row, escapes string, needClient bool) {
	t.Helper()
	fields := []struct {
		name string
		b    []byte
	}{{"Host", r.Host}, {"ClientIP", r.ClientIP}, {"Method", r.Method}, {"Target", r.Target}, {"Protocol", r.Protocol}, {"Referer", r.Referer}, {"UserAgent", r.UserAgent}, {"ForwardedFor", r.ForwardedFor}}
	for _, fl := range fields {
		switch {
		case fl.b == nil:
		case len(fl.b) == 0:
			t.Errorf("%s: %s is empty but not nil", f.Name, fl.name)
		case aliases(line, fl.b):
		case !bytes.ContainsAny(line, escapes):
			t.Errorf("%s: %s %q is not a sub-slice of the line, which holds no escape", f.Name, fl.name, fl.b)
		case len(fl.b) > len(line):
			t.Errorf("%s: %s is longer than the line", f.Name, fl.name)
		}
	}
	if len(r.Target) == 0 {
		t.Errorf("%s: parsed row without a target", f.Name)
	}
	if needClient && len(r.ClientIP) == 0 {
		t.Errorf("%s: parsed row without a client", f.Name)
	}
	if r.Method != nil && !isToken(r.Method) {
		t.Errorf("%s: method %q is not a token", f.Name, r.Method)
	}
	if r.Status < -1 || r.Status > 999 {
		t.Errorf("%s: status %d out of range", f.Name, r.Status)
	}
	if r.Bytes < -1 {
		t.Errorf("%s: bytes %d out of range", f.Name, r.Bytes)
	}
	want := viewOf(r)
	var again Row
	if err := p.Parse(line, &again); err != nil || viewOf(&again) != want {
		t.Errorf("%s: parsing again with the same parser gave %v %+v, want %+v", f.Name, err, viewOf(&again), want)
	}
	if err := f.New().Parse(line, &again); err != nil || viewOf(&again) != want {
		t.Errorf("%s: parsing with a fresh parser gave %v %+v, want %+v", f.Name, err, viewOf(&again), want)
	}
}

// fuzzFormat fuzzes one registered format: Parse never panics, returns nil
// or a Reason, and a parsed row passes checkParsed.
func fuzzFormat(f *testing.F, name, escapes string, seeds []string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	format, ok := Lookup(name)
	if !ok {
		f.Fatalf("format %q is not registered", name)
	}
	p := format.New()
	f.Fuzz(func(t *testing.T, line []byte) {
		var r Row
		err := p.Parse(line, &r)
		if err != nil {
			if _, ok := err.(Reason); !ok {
				t.Fatalf("error %v is not a Reason", err)
			}
			return
		}
		checkParsed(t, format, p, line, &r, escapes, true)
	})
}

var clfSeeds = []string{
	`83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /presentations/kibana-search.png HTTP/1.1" 200 203023 "http://semicomplete.com/presentations/" "Mozilla/5.0 (Macintosh)"`,
	`52.143.180.25 - - [17/Oct/2019:14:30:07 +0200] "GET / HTTP/1.1" 200 10479 "-" "}__test|O:21:\"JDatabaseDriverMysqli\":3:{s:2:\"fc\";}" "-"`,
	`46.118.127.106 - - [20/May/2015:12:05:17 +0000] "GET /scripts/grok-py-test/configlib.py HTTP/1.1" 200 235 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html`,
	`2001:db8::5 - frank [17/May/2015:10:05:03 +0000] "GET /a\x22b?q=%2F HTTP/2.0" 404 - "-" "say \xD0\x9F"`,
	`83.149.9.216 - - [17/May/2015:10:05:03 +0000] "-" 400 0 "-" "-"`,
	`83.149.9.216 - - [17/May/2015:10:05:03 +0000] "\x16\x03\x01\x00\xa5" 400 226 "-" "-"`,
	`116.203.1.1 - - [05/Mar/2021:09:01:38 +0100] "GET /test/lists/sip_30d.txt HTTP/1.0" 200 1513`,
	`website.com:443 1.2.3.4 - - [25/Oct/2021:11:05:52 +0200] "GET /web/.well-known HTTP/1.1" 403 6963 "abc.com" "User-agent-string"`,
	`[::1]:8080 ::1 - - [25/Oct/2021:11:05:52 +0200] "GET / HTTP/1.1" 403 6963 "abc.com" "x" 12 "-"`,
	`2021/12/01 13:53:33 [error] 31#31: *46 "/usr/share/nginx/html/market/index.html" is not found`,
	"83.149.9.216 - - [17/May/2015:10:05:03 +0000] \"GET / HTTP/1.1\" 200 1 \"-\" \"-\"\t1\r",
	`83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET /private/ HTTP/1.1" 200 1 "-" "say \"hi\" (compatible; Cla`,
	`83.149.9.216 - - [17/May/2015:10:05:03 +0000] "GET / HTTP/1.1" 200 1 "-" "x" "10.0.0.1, 10.`,
}

func FuzzParseCombined(f *testing.F)      { fuzzFormat(f, "combined", `\`, clfSeeds) }
func FuzzParseCommon(f *testing.F)        { fuzzFormat(f, "common", `\`, clfSeeds) }
func FuzzParseVhostCombined(f *testing.F) { fuzzFormat(f, "vhost_combined", `\`, clfSeeds) }
