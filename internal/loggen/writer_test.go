package loggen

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// row is what a log line says, read back by the small independent parsers
// below (not package ingest, so that this test checks the writers alone).
type row struct {
	Unix                               int64
	Host, IP, Method, Target, Protocol string
	Status                             int
	Bytes                              int64
	Referer, UserAgent                 string
}

var combinedRE = regexp.MustCompile(`^(\S+) - - \[([^\]]+)\] "(\S+) (\S+) (\S+)" (\d{3}) (\d+) "((?:[^"\\]|\\x[0-9A-F]{2})*)" "((?:[^"\\]|\\x[0-9A-F]{2})*)"$`)

func unescapeX(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) && s[i+1] == 'x' {
			n, _ := strconv.ParseUint(s[i+2:i+4], 16, 8)
			b.WriteByte(byte(n))
			i += 3
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

func parseCombined(t *testing.T, line string) row {
	m := combinedRE.FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("not a combined line: %q", line)
	}
	tm, err := time.Parse("02/Jan/2006:15:04:05 -0700", m[2])
	if err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	st, _ := strconv.Atoi(m[6])
	by, _ := strconv.ParseInt(m[7], 10, 64)
	ref := unescapeX(m[8])
	if ref == "-" {
		ref = ""
	}
	return row{Unix: tm.Unix(), IP: m[1], Method: m[3], Target: unescapeX(m[4]), Protocol: m[5],
		Status: st, Bytes: by, Referer: ref, UserAgent: unescapeX(m[9])}
}

func parseJSONL(t *testing.T, line string) row {
	var j struct {
		Time       string `json:"time"`
		RemoteAddr string `json:"remote_addr"`
		Method     string `json:"method"`
		URI        string `json:"uri"`
		Protocol   string `json:"protocol"`
		Status     int    `json:"status"`
		Bytes      int64  `json:"bytes"`
		Referer    string `json:"referer"`
		UserAgent  string `json:"user_agent"`
		Host       string `json:"host"`
	}
	dec := json.NewDecoder(strings.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	tm, err := time.Parse(time.RFC3339, j.Time)
	if err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	return row{Unix: tm.Unix(), Host: j.Host, IP: j.RemoteAddr, Method: j.Method, Target: j.URI, Protocol: j.Protocol,
		Status: j.Status, Bytes: j.Bytes, Referer: j.Referer, UserAgent: j.UserAgent}
}

func parseW3C(t *testing.T, fields []string, line string) row {
	vals := strings.Split(line, " ")
	if len(vals) != len(fields) {
		t.Fatalf("line %q has %d fields, #Fields has %d", line, len(vals), len(fields))
	}
	f := map[string]string{}
	for i, n := range fields {
		v := vals[i]
		if v == "-" {
			v = ""
		}
		f[n] = v
	}
	tm, err := time.Parse(time.DateTime, f["date"]+" "+f["time"])
	if err != nil {
		t.Fatalf("line %q: %v", line, err)
	}
	target := f["cs-uri-stem"]
	if q := f["cs-uri-query"]; q != "" {
		target += "?" + q
	}
	st, _ := strconv.Atoi(f["sc-status"])
	by, _ := strconv.ParseInt(f["sc-bytes"], 10, 64)
	return row{Unix: tm.Unix(), Host: f["cs-host"], IP: f["c-ip"], Method: f["cs-method"], Target: target,
		Protocol: f["cs-version"], Status: st, Bytes: by, Referer: f["cs(Referer)"], UserAgent: decodePlus(f["cs(User-Agent)"])}
}

// decodePlus undoes IIS's '+' for space in the agent as well as it can: a run
// of n '+' is a space and n-1 '+'.
func decodePlus(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] != '+' {
			b.WriteByte(s[i])
			continue
		}
		b.WriteByte(' ')
		for i+1 < len(s) && s[i+1] == '+' {
			b.WriteByte('+')
			i++
		}
	}
	return b.String()
}

func parseAll(t *testing.T, format string, out []byte) []row {
	var rows []row
	var fields []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch format {
		case "combined":
			rows = append(rows, parseCombined(t, line))
		case "jsonl":
			rows = append(rows, parseJSONL(t, line))
		case "w3c":
			if rest, ok := strings.CutPrefix(line, "#Fields: "); ok {
				fields = strings.Fields(rest)
				continue
			}
			if strings.HasPrefix(line, "#") {
				continue
			}
			rows = append(rows, parseW3C(t, fields, line))
		}
	}
	return rows
}

// want returns what format can say of r: no host in combined; in W3C the
// agent with its spaces written '+' and read back with decodePlus.
func want(r *Request, format string) row {
	w := row{Unix: r.Unix, Host: r.Host, IP: r.ClientIP, Method: r.Method, Target: string(r.Target),
		Protocol: r.Protocol, Status: r.Status, Bytes: r.Bytes, Referer: string(r.Referer), UserAgent: r.UserAgent}
	switch format {
	case "combined":
		w.Host = ""
	case "w3c":
		w.UserAgent = decodePlus(strings.ReplaceAll(w.UserAgent, " ", "+"))
	}
	return w
}

// The same requests written in every format read back as the same rows.
func TestFormatsAgree(t *testing.T) {
	cfg := SampleConfig()
	cfg.Lines = 30000
	cfg.Hosts = []string{"www.example.com", "shop.example.org"}
	cfg.Start = time.Date(2026, 10, 20, 0, 0, 0, 0, time.UTC) // over the DST change
	cfg.End = cfg.Start.Add(10 * 24 * time.Hour)
	reqs := collect(t, cfg)
	for _, format := range Formats {
		t.Run(format, func(t *testing.T) {
			rows := parseAll(t, format, render(t, cfg, format))
			if len(rows) != len(reqs) {
				t.Fatalf("read back %d rows, wrote %d", len(rows), len(reqs))
			}
			for i := range reqs {
				if w := want(&reqs[i], format); rows[i] != w {
					t.Fatalf("row %d:\n got %+v\nwant %+v", i, rows[i], w)
				}
			}
		})
	}
}

// Hostile strings are escaped so that a line stays one line of its format.
func TestWritersEscape(t *testing.T) {
	r := &Request{Unix: time.Date(2026, 10, 25, 0, 59, 59, 0, time.UTC).Unix(), Offset: 7200, Host: "www.example.com",
		ClientIP: "2001:db8::1", Method: "GET", Target: []byte(`/a"b\c?q=x`), Protocol: "HTTP/1.1", Status: 200, Bytes: 5,
		Referer: []byte("https://x.example/\x00\n"), UserAgent: "Evil\"Bot/1.0 \\ \t\x7f caf\xc3\xa9 \xff"}
	tests := []struct {
		format string
		want   string
	}{
		{"combined", `2001:db8::1 - - [25/Oct/2026:02:59:59 +0200] "GET /a\x22b\x5Cc?q=x HTTP/1.1" 200 5 "https://x.example/\x00\x0A" "Evil\x22Bot/1.0 \x5C \x09\x7F caf\xC3\xA9 \xFF"` + "\n"},
		{"jsonl", `{"time":"2026-10-25T02:59:59+02:00","remote_addr":"2001:db8::1","method":"GET","uri":"/a\"b\\c?q=x","protocol":"HTTP/1.1","status":200,"bytes":5,"referer":"https://x.example/\u0000\n","user_agent":"Evil\"Bot/1.0 \\ \t` + "\x7f café \\ufffd\",\"host\":\"www.example.com\"}\n"},
	}
	for _, tc := range tests {
		var buf bytes.Buffer
		w, err := NewWriter(&buf, tc.format)
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
		w.Close()
		if got := buf.String(); got != tc.want {
			t.Errorf("%s:\n got %q\nwant %q", tc.format, got, tc.want)
		}
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, "w3c")
	w.Write(r)
	w.Close()
	lines := strings.Split(strings.TrimSuffix(buf.String(), "\n"), "\n")
	last := lines[len(lines)-1]
	if n := len(strings.Split(last, " ")); n != len(strings.Fields(W3CFields)) {
		t.Errorf("w3c line %q has %d fields, want %d", last, n, len(strings.Fields(W3CFields)))
	}
	if !strings.HasPrefix(last, "2026-10-25 00:59:59 ") {
		t.Errorf("w3c line %q does not start with the UTC date and time", last)
	}
	if _, err := NewWriter(&buf, "xml"); err == nil {
		t.Error("NewWriter accepted format xml")
	}
}

func ExampleNewWriter() {
	r := &Request{Unix: time.Date(2026, 10, 25, 1, 0, 0, 0, time.UTC).Unix(), Offset: 3600, Host: "www.example.com",
		ClientIP: "66.249.66.1", Method: "GET", Target: []byte("/robots.txt"), Protocol: "HTTP/1.1", Status: 200,
		Bytes: 1997, UserAgent: "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"}
	for _, f := range Formats {
		var buf bytes.Buffer
		w, _ := NewWriter(&buf, f)
		w.Write(r)
		w.Close()
		fmt.Print(buf.String())
	}
	// Output:
	// 66.249.66.1 - - [25/Oct/2026:02:00:00 +0100] "GET /robots.txt HTTP/1.1" 200 1997 "-" "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	// {"time":"2026-10-25T02:00:00+01:00","remote_addr":"66.249.66.1","method":"GET","uri":"/robots.txt","protocol":"HTTP/1.1","status":200,"bytes":1997,"referer":"","user_agent":"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)","host":"www.example.com"}
	// #Software: Microsoft Internet Information Services 10.0
	// #Version: 1.0
	// #Date: 2026-10-25 01:00:00
	// #Fields: date time s-ip cs-method cs-uri-stem cs-uri-query s-port cs-username c-ip cs-version cs(User-Agent) cs(Referer) cs-host sc-status sc-substatus sc-win32-status sc-bytes time-taken
	// 2026-10-25 01:00:00 10.0.0.4 GET /robots.txt - 443 - 66.249.66.1 HTTP/1.1 Mozilla/5.0+(compatible;+Googlebot/2.1;++http://www.google.com/bot.html) - www.example.com 200 0 0 1997 14
}
