//go:build duckdb_arrow

package audit

import (
	"context"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAuditHostileLog runs the whole audit over a log that attacks it:
// binary junk, NULs, invalid UTF-8, huge fields, broken percent escapes,
// terminal escape sequences and formula-like names. Nothing may fail, every
// line is accounted for, and the outputs stay valid.
func TestAuditHostileLog(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	var b strings.Builder
	lines := 0
	add := func(s string) {
		b.WriteString(s)
		b.WriteByte('\n')
		lines++
	}
	junk := func(n int) string {
		p := make([]byte, n)
		for i := range p {
			p[i] = byte(r.Intn(256))
			if p[i] == '\n' {
				p[i] = 'x'
			}
		}
		return string(p)
	}
	for i := 0; i < 300; i++ {
		add(line("66.249.66.1", "02/Oct/2026:10:00:00 +0200", "/ok", uaGooglebot)) // keeps the format detectable
		switch i % 10 {
		case 0:
			add(junk(200))
		case 1:
			add(line("10.0.0.1", "02/Oct/2026:10:00:01 +0200", "/a\xff\xfe%zz%%/"+junk(5), "Evil\x1b[31mBot/1.0 \xc3"))
		case 2:
			add(line("10.0.0.2", "02/Oct/2026:10:00:02 +0200", "/"+strings.Repeat("a*", 30000), "=cmd|' /C calc'!A0 bot/1"))
		case 3:
			add(line("10.0.0.3", "02/Oct/2026:10:00:03 +0200", "/private/x", strings.Repeat("Mozilla/5.0 (compatible; ", 2500)+"FooBot/1)"))
		case 4:
			add("\x00\x00\x00" + line("10.0.0.4", "02/Oct/2026:10:00:04 +0200", "/x", "curl/8"))
		case 5:
			add(line("1.2.3.4; rm -rf /", "02/Oct/2026:10:00:05 +0200", "/private/", "curl/8"))
		case 6:
			add(`{"time":"2026-10-02T10:00:00Z","remote_addr":"10.0.0.6","uri":"/x"}`)
		case 7:
			add(line("2001:DB8::"+string(rune('1'+i%9)), "02/Oct/2026:10:00:07 +0200", "/private/%2F..%2F", "python-requests/2.31"))
		}
	}
	dir := t.TempDir()
	logFile := filepath.Join(dir, "hostile.log")
	if err := os.WriteFile(logFile, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	robotsDir, _ := writeScenario(t)
	res, err := Run(context.Background(), Config{Robots: robotsDir}, []string{logFile})
	if err != nil {
		t.Fatal(err)
	}
	defer res.Close()
	in := res.Summary.Input
	if in.Lines != int64(lines) || in.Parsed+in.Rejected != in.Lines || in.Rejected == 0 || in.Parsed == 0 {
		t.Errorf("accounting: lines %d (wrote %d), parsed %d, rejected %d", in.Lines, lines, in.Parsed, in.Rejected)
	}
	for _, bot := range res.Summary.Bots {
		if !utf8.ValidString(bot.Bot) || len(bot.Bot) > 256 {
			t.Errorf("bot name %q is not short valid UTF-8", bot.Bot)
		}
	}
	out := t.TempDir()
	if err := res.WriteOut(context.Background(), out, BlockPolicy{}); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"violations.csv", "breaches.csv"} {
		for _, row := range readCSV(t, filepath.Join(out, f)) {
			for _, cell := range row {
				if cell != "" && strings.ContainsAny(cell[:1], "=+-@\t\r") {
					t.Errorf("%s: cell %q would start a formula", f, cell)
				}
				if strings.ContainsRune(cell, 0x1b) {
					t.Errorf("%s: cell %q holds an escape character", f, cell)
				}
			}
		}
	}
	bl, err := os.ReadFile(filepath.Join(out, "blocklist.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(bl), "rm -rf") {
		t.Errorf("block list holds an injected line:\n%s", bl)
	}
}
