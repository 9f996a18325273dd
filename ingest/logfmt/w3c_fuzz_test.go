package logfmt

import (
	"bytes"
	"testing"
)

// xCheckParsed checks the invariants of every row a parser accepts: it has a
// target and a client address that look right, a status and a byte count in
// range, and no field that is empty but not nil.
func xCheckParsed(t *testing.T, line []byte, r *Row) {
	t.Helper()
	if len(r.Target) == 0 {
		t.Errorf("Parse(%q): accepted without a target", line)
	}
	if !isClientIP(r.ClientIP) {
		t.Errorf("Parse(%q): accepted client %q", line, r.ClientIP)
	}
	if r.Method != nil && !isMethodToken(r.Method) {
		t.Errorf("Parse(%q): accepted method %q", line, r.Method)
	}
	if r.Status < -1 || r.Status > 999 || r.Bytes < -1 {
		t.Errorf("Parse(%q): status %d bytes %d", line, r.Status, r.Bytes)
	}
	for _, b := range [][]byte{r.Host, r.ClientIP, r.Method, r.Target, r.Protocol, r.Referer, r.UserAgent, r.ForwardedFor} {
		if b != nil && len(b) == 0 {
			t.Errorf("Parse(%q): a field is empty but not nil: %+v", line, r)
		}
	}
}

// xFuzzLines feeds each line of data, in order, to one parser of the named
// format and checks that it returns nil or a Reason and never panics.
func xFuzzLines(t *testing.T, format string, data []byte) {
	f, ok := Lookup(format)
	if !ok {
		t.Fatalf("format %q is not registered", format)
	}
	p := f.New()
	var r Row
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		err := p.Parse(line, &r)
		switch err.(type) {
		case nil:
			xCheckParsed(t, line, &r)
		case Reason:
		default:
			t.Fatalf("Parse(%q) = %v (%T), want nil or a Reason", line, err, err)
		}
	}
}

func FuzzParseW3C(f *testing.F) {
	f.Add([]byte(iisSoftware + "\n" + iisFields17 + "\n2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " https://www.example.com/ 200 0 0 5120 310 15"))
	f.Add([]byte("2026-10-25 01:30:00 10.0.0.1 GET /private/page x=1 443 - 203.0.113.7 " + iisBingUA + " - 200 0 0 15"))
	f.Add([]byte("#Date: 2026-10-25 00:00:00\n#Fields: time c-ip cs-method cs-uri-stem sc-status\n01:30:00 203.0.113.7 GET /robots.txt 404"))
	f.Add([]byte("#GMT-Offset: -0800\n#Fields: date-local time-local c-ip cs-method cs-uri cs(User-Agent)\n2026-10-24 17:30:00 \"203.0.113.7\" GET \"https://h:8443/a?b\" \"a \"\"q\"\" b\""))
	f.Add([]byte("#Fields: date time c-ip cs-uri cs-method cs-uri-query\n\"2026-10-25\" \"01:30:00\" \"203.0.113.7\" \"www.example.com/p\" GET \"x=1\""))
	f.Add([]byte("#Fields: date time c-ip cs-method cs-uri-stem sc-status cs(X-Forwarded-For)\n2026-10-25 01:30:00 10.0.0.1 GET /p 200 203.0.113.7,+10.0.0.5\n2026-10-25 01:30:00 10.0.0.1 GET /p 200 \"a, \"\"b\"\"\""))
	f.Fuzz(func(t *testing.T, data []byte) { xFuzzLines(t, "w3c", data) })
}
