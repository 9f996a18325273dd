package report

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

func TestPrintable(t *testing.T) {
	tests := []struct {
		in   string
		max  int
		want string
	}{
		{"Googlebot", 0, "Googlebot"},
		{"evil\x1b[31mred", 0, `evil\x1b[31mred`},
		{"tab\there", 0, `tab\there`},
		{"bad\xffutf8", 0, `bad\xffutf8`},
		{"ünïcode", 0, "ünïcode"},
		{"abcdefgh", 5, "abcd…"},
		{"abcde", 5, "abcde"},
	}
	for _, tt := range tests {
		if got := Printable(tt.in, tt.max); got != tt.want {
			t.Errorf("Printable(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
		}
	}
}

func TestWriteTable(t *testing.T) {
	from := time.Date(2026, 10, 1, 0, 0, 0, 0, time.UTC)
	s := &Summary{
		Input: Input{Files: 1, Lines: 10, Parsed: 9, Rejected: 1, RejectedReasons: map[string]int64{"bad timestamp": 1},
			From: &from, To: &from, BotRequests: 5, HumanRequests: 4},
		Bots: []BotRow{
			{Bot: "GPTBot", Host: "www.example.com", Identity: IdentityVerified, Operator: "OpenAI", Requests: 5, Disallowed: 2, IPs: 1, Verifiable: true},
			{Bot: "Googlebot", Host: "www.example.com", Identity: IdentitySpoofed, Requests: 7, Disallowed: 3, IPs: 2, Verifiable: true},
			{Bot: "YandexBot", Host: "www.example.com", Identity: IdentityUnverified, Operator: "Yandex", Requests: 2, IPs: 1, Verifiable: true},
			{Bot: "x\tinjected\nline", Host: "www.example.com", Identity: IdentityUnverified, Requests: 1},
		},
		Verification: &Verification{Identities: map[string]int64{IdentityVerified: 5, IdentitySpoofed: 7, IdentityUnverified: 3}},
		Audit:        AuditInfo{Spec: "rfc9309", GraceSeconds: 86400, TimeResolution: "1s", Robots: "testdata"},
	}
	for i := range s.Bots {
		s.Bots[i].Judge()
	}
	var term, tsv bytes.Buffer
	if err := WriteTable(&term, s, TableOptions{Terminal: true}); err != nil {
		t.Fatal(err)
	}
	if err := WriteTable(&tsv, s, TableOptions{}); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"GPTBot", "OpenAI", VerdictDisallowed, "bad timestamp: 1", "resolution of one second",
		"Googlebot (spoofed)", "YandexBot (unverified)", "5 bot requests verified, 7 spoofed, 3 unverified"} {
		if !strings.Contains(term.String(), want) {
			t.Errorf("terminal table lacks %q:\n%s", want, term.String())
		}
	}
	lines := strings.Split(strings.TrimSuffix(tsv.String(), "\n"), "\n")
	if len(lines) != 5 {
		t.Fatalf("TSV has %d lines, want header + 4 rows:\n%s", len(lines), tsv.String())
	}
	for _, l := range lines {
		if n := strings.Count(l, "\t"); n != 13 {
			t.Errorf("TSV line has %d tabs, want 13: %q", n, l)
		}
	}
	// A spoofed row names no operator and is not blamed on the crawler.
	if !strings.Contains(tsv.String(), "Googlebot\twww.example.com\tspoofed\t\t\t7\t0\t3\t") || !strings.HasSuffix(lines[2], "\t"+VerdictSpoofed) {
		t.Errorf("spoofed TSV row: %q", lines[2])
	}
	for _, l := range strings.Split(term.String(), "\n") {
		if strings.Contains(l, "Googlebot (spoofed)") && strings.Contains(l, VerdictDisallowed) {
			t.Errorf("a spoofed row is called %q: %q", VerdictDisallowed, l)
		}
	}
}
