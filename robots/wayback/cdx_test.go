package wayback

import (
	"errors"
	"strings"
	"testing"
	"time"
)

// TestParseCDX checks the parser against the answers the Wayback CDX server
// documents (internetarchive/wayback, wayback-cdx-server/README.md:
// "Output Format (JSON)", "Field Order", "Resumption Key") and the ways an
// answer goes wrong.
func TestParseCDX(t *testing.T) {
	tests := []struct {
		name, in  string
		want      []string // timestamp status original digest, per capture
		resumeKey string
		err       string
	}{
		{
			// README, "Output Format (JSON)": the first row names the fields.
			name: "README json example, all fields",
			in: `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
 ["org,archive)/", "19970126045828", "http://www.archive.org:80/", "text/html", "200", "Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY", "1415"],
 ["org,archive)/", "19971011050034", "http://www.archive.org:80/", "text/html", "200", "XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3", "1402"]]`,
			want: []string{"19970126045828 200 http://www.archive.org:80/ Q4YULN754FHV2U6Q5JUT6Q2P57WEWNNY",
				"19971011050034 200 http://www.archive.org:80/ XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3"},
		},
		{
			// README, "Field Order": fl= picks and orders the fields.
			name: "fl order of history fetch",
			in: `[["timestamp","original","statuscode","digest","length"],
["20261004173344","https://www.example.com/robots.txt","503","3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ","512"],
["20261016000000","http://www.example.com/robots.txt","-","ABCDEFGHIJKLMNOPQRSTUVWXYZ234567","290"]]`,
			want: []string{"20261004173344 503 https://www.example.com/robots.txt 3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ",
				"20261016000000 - http://www.example.com/robots.txt ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"},
		},
		{
			// README, "Resumption Key": an empty row, then the key alone.
			name: "README resumption key",
			in: `[["urlkey","timestamp","original","mimetype","statuscode","digest","length"],
 ["org,archive)/", "19980109140106", "http://archive.org:80/", "text/html", "200", "XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3", "1402"],
 [],
 ["org%2Carchive%29%2F+19980109140106%21"]]`,
			want:      []string{"19980109140106 200 http://archive.org:80/ XAHDNHZ5P3GSSSNJ3DMEOJF7BMCCPZR3"},
			resumeKey: "org%2Carchive%29%2F+19980109140106%21",
		},
		{name: "empty array: no captures", in: "[]\n"},
		{name: "empty body: no captures", in: "  \n"},
		{name: "header only", in: `[["timestamp","original","statuscode","digest"]]`},
		{name: "trailing empty row", in: `[["timestamp","original","statuscode","digest"],["20261001000000","https://example.com/robots.txt","200","A"],[]]`,
			want: []string{"20261001000000 200 https://example.com/robots.txt A"}},
		{name: "an HTML page", in: "<!DOCTYPE html><html><body>Wayback Machine is down</body></html>", err: "not a JSON CDX answer"},
		{name: "plain-text CDX (output=json forgotten)", in: "com,example)/robots.txt 20261001000000 https://example.com/robots.txt text/plain 200 A 300\n", err: "not a JSON CDX answer"},
		{name: "not rows of strings", in: `{"error": "busy"}`, err: "not a JSON CDX answer"},
		{name: "no digest field", in: `[["timestamp","original","statuscode"],["20261001000000","https://example.com/robots.txt","200"]]`, err: `row 1 (the header) has no field "digest"`},
		{name: "short row", in: `[["timestamp","original","statuscode","digest"],["20261001000000","https://example.com/robots.txt","200"]]`, err: "row 2 has 3 fields, the header 4"},
		{name: "bad timestamp", in: `[["timestamp","original","statuscode","digest"],["2026100100","https://example.com/robots.txt","200","A"]]`, err: `row 2: cannot parse timestamp "2026100100"`},
		{name: "original not a URL", in: `[["timestamp","original","statuscode","digest"],["20261001000000","example.com/robots.txt","200","A"]]`, err: `row 2: original "example.com/robots.txt" is not an http or https URL`},
		{name: "empty row in the middle", in: `[["timestamp","original","statuscode","digest"],[],["20261001000000","https://example.com/robots.txt","200","A"],["x"]]`, err: "row 2 is empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			caps, key, err := ParseCDX([]byte(tc.in))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want one containing %q", err, tc.err)
				}
				if tc.err == "not a JSON CDX answer" && !errors.Is(err, ErrNotJSON) {
					t.Errorf("error %v does not wrap ErrNotJSON", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, c := range caps {
				got = append(got, c.Timestamp+" "+c.Status+" "+c.Original+" "+c.Digest)
				if c.Time.Format(cdxTimeLayout) != c.Timestamp || c.Time.Location() != time.UTC {
					t.Errorf("Time %v does not match timestamp %s in UTC", c.Time, c.Timestamp)
				}
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("captures\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if key != tc.resumeKey {
				t.Errorf("resume key %q, want %q", key, tc.resumeKey)
			}
		})
	}
}

// TestParseRetryAfter checks both forms of Retry-After (RFC 9110 §10.2.3:
// delay-seconds or an HTTP-date).
func TestParseRetryAfter(t *testing.T) {
	now := time.Date(2026, 11, 28, 8, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		in   string
		want time.Duration
	}{
		{"120", 2 * time.Minute},
		{"0", 0},
		{"-5", 0},
		{"", 0},
		{"soon", 0},
		{"Sat, 28 Nov 2026 08:00:30 GMT", 30 * time.Second}, // IMF-fixdate
		{"Saturday, 28-Nov-26 08:01:00 GMT", time.Minute},   // obsolete RFC 850 form
		{"Sat, 28 Nov 2026 07:59:00 GMT", 0},                // in the past
		{"99999999", 24 * time.Hour},                        // capped
	} {
		if got := parseRetryAfter(tc.in, now); got != tc.want {
			t.Errorf("parseRetryAfter(%q) = %v, want %v", tc.in, got, tc.want)
		}
	}
}

// FuzzParseCDX checks that the parser never panics, and that whatever it
// accepts has a time matching each timestamp and an http(s) original.
func FuzzParseCDX(f *testing.F) {
	f.Add([]byte(`[["timestamp","original","statuscode","digest","length"],["20261001000000","https://example.com/robots.txt","200","A","1"],[],["key"]]`))
	f.Add([]byte(`[]`))
	f.Add([]byte(`<html>`))
	f.Fuzz(func(t *testing.T, data []byte) {
		caps, _, err := ParseCDX(data)
		if err != nil {
			return
		}
		for _, c := range caps {
			if c.Time.Format(cdxTimeLayout) != c.Timestamp {
				t.Fatalf("time %v for timestamp %q", c.Time, c.Timestamp)
			}
			if o := strings.ToLower(c.Original); !strings.HasPrefix(o, "http://") && !strings.HasPrefix(o, "https://") {
				t.Fatalf("original %q accepted", c.Original)
			}
		}
	})
}
