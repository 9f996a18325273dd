package logfmt

import (
	"bytes"
	"encoding/json"
	"io"
	"testing"
	"unicode/utf8"
)

func FuzzParseJSONL(f *testing.F) {
	f.Add([]byte(`{"ts":1792891800.25,"request":{"client_ip":"203.0.113.7","proto":"HTTP/1.1","method":"GET","host":"www.example.com","uri":"/caf\u00e9?x=1","headers":{"User-Agent":["Mozilla/5.0 (compatible; \"bot\")"]}},"size":5120,"status":200}`))
	f.Add([]byte(`{"time_local":"25/Oct/2026:02:30:00 +0100","remote_addr":"203.0.113.7","request":"GET /private/page?x=1 HTTP/1.1","status":"200","body_bytes_sent":"5120","http_referer":"-","http_user_agent":"x"}`))
	f.Add([]byte(`caddy  | {"level":"info","ts":1761019822.3152757,"msg":"serving initial configuration"}`))
	f.Add([]byte(`{"ClientIP":"203.0.113.7","ClientRequestURI":"/","EdgeStartTimestamp":1792891800123456789,"x":[1,{"a":[true,false,null]},-0.5e-3]}`))
	f.Add([]byte(`{"StartUTC":"2026-10-25T01:30:00.000000000Z","ClientHost":"203.0.113.7, 10.0.0.50","RequestPath":"/\ud83d\ude00\ud83d","DownstreamStatus":200}`))
	f.Add([]byte(`{"ts":1792891800,"request":{"client_ip":"203.0.113.7","uri":"/","headers":{"X-Forwarded-For":["198.51.100.9", "", "-", "10.0.0.5\u002c x", 1, ["y"]]}},"x-FORWARDED-for":"z","http_x_forwarded_for":"-"}`))
	f.Add([]byte(`{"time":"2026-10-25T01:30:00Z","remote_addr":"203.0.113.7","uri":"/private/","http_user_agent":"Mozilla/5.0 (compatible; Cla`))
	f.Add([]byte(`{"uri":"/","x":[1,{"a":[tr`))
	f.Add([]byte(`{"ts":1793527200,"request":{"remote_ip":"20.171.207.2","host":"example.com","uri":"/p","headers":{"Signature-Agent":["sig1=\"https://chatgpt.com\""],"Signature-Input":["sig1=(\"@authority\");created=1", 2, ""],"Signature":["sig1=:AA==:"]}}}`))
	f.Add([]byte(`{"time":"2026-11-01T10:00:00Z","remote_addr":"20.171.207.2","uri":"/","scheme":"http","http_signature_agent":"-","signature_input":null,"signature":["x","-"]}`))
	f.Add([]byte(`{"uri":"/\u00`))
	f.Add([]byte(`{"uri":"/","s":-1.5e+`))
	f.Fuzz(func(t *testing.T, data []byte) {
		xFuzzLines(t, "jsonl", data)
		// A differential check against encoding/json on the structure.
		if bytes.IndexByte(data, '\n') >= 0 {
			return
		}
		p := newJSONParser(jsonAuto)
		err := p.Parse(data, &Row{})
		obj := bytes.Trim(trimLine(data), " \t\r\n") // JSON whitespace only
		if len(obj) == 0 || obj[0] != '{' {
			return
		}
		valid := json.Valid(obj)
		broken := err == ErrSyntax || err == ErrTruncatedLine
		switch {
		case broken && valid && jsonDepth(obj) <= jsonMaxDepth:
			t.Errorf("Parse(%q) = %v, but encoding/json accepts it", data, err)
		case !broken && !valid && !hasControl(obj):
			t.Errorf("Parse(%q) = %v, but encoding/json rejects it", data, err)
		case broken && !hasControl(trimLine(data)) && jsonDepth(obj) <= jsonMaxDepth:
			// Truncated exactly when encoding/json's decoder runs out of
			// input inside the object (given the blanks at the end of the
			// line too: "-" then a blank is no number cut short).
			var v any
			derr := json.NewDecoder(bytes.NewReader(trimLine(data))).Decode(&v)
			if (derr == io.ErrUnexpectedEOF) != (err == ErrTruncatedLine) {
				t.Errorf("Parse(%q) = %v, but encoding/json's decoder says %v", data, err, derr)
			}
		}
	})
}

// jsonDepth returns the maximum nesting of objects and arrays in a valid
// JSON text.
func jsonDepth(b []byte) int {
	d, max := 0, 0
	in := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == '{' || c == '['):
			d++
			if d > max {
				max = d
			}
		case !in && (c == '}' || c == ']'):
			d--
		}
	}
	return max
}

// hasControl reports whether b has a control character, which encoding/json
// rejects inside strings and the parser tolerates.
func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}

// FuzzJSONUnescape checks string decoding against encoding/json.
func FuzzJSONUnescape(f *testing.F) {
	for _, s := range []string{`a\"b`, `\u00e9\ud83d\ude00`, `\ud83d`, `\udc00\ud83d`, `\/\\\b\f\n\r\t`, `\ud83d\u0041`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		if !utf8.Valid(raw) {
			return
		}
		quoted := append(append([]byte{'"'}, raw...), '"')
		end, _ := jsonScanString(quoted, 1)
		var want string
		err := json.Unmarshal(quoted, &want)
		if end != len(quoted)-1 {
			if err == nil {
				t.Fatalf("jsonScanString(%q) rejects a string encoding/json accepts", raw)
			}
			return
		}
		if err != nil {
			if !hasControl(raw) {
				t.Fatalf("jsonScanString(%q) accepts a string encoding/json rejects: %v", raw, err)
			}
			return
		}
		if got := string(appendJSONUnescaped(nil, raw)); got != want {
			t.Fatalf("appendJSONUnescaped(%q) = %q, want %q", raw, got, want)
		}
	})
}
