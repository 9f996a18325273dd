package logfmt

import (
	"strings"
	"testing"
)

// Row.ForwardedFor, format by format: the X-Forwarded-For field is kept
// whole where a layout or a key names it, and nowhere else.

func TestForwardedForCustomApache(t *testing.T) {
	const ua = "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)"
	const pre = `157.55.39.146 - - [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200 431 "-" "` + ua + `"`
	base := view{Time: "2026-10-25T01:30:00Z", Client: "157.55.39.146", Method: "GET", Target: "/robots.txt", Proto: "HTTP/1.1", Status: 200, Bytes: 431, Agent: ua}
	ff := func(s string) view { v := base; v.FF = s; return v }
	// The layout of the brief: combined with the header appended, the
	// User-Agent's name in another case.
	f, err := NewCustom(`%h %l %u %t "%r" %>s %b "%{Referer}i" "%{User-agent}i" "%{X-Forwarded-For}i"`)
	if err != nil {
		t.Fatal(err)
	}
	runCases(t, f.New(), []parseCase{
		{"chain", pre + ` "203.0.113.7, 10.0.0.5"`, ff("203.0.113.7, 10.0.0.5"), nil},
		{"one address", pre + ` "203.0.113.7"`, ff("203.0.113.7"), nil},
		{"IPv6 and ports as logged", pre + ` "[2001:db8::7]:443, 10.0.0.5:8080"`, ff("[2001:db8::7]:443, 10.0.0.5:8080"), nil},
		{"dash", pre + ` "-"`, base, nil},
		{"empty", pre + ` ""`, base, nil},
		{"junk kept as logged", pre + ` "unknown, <script>"`, ff("unknown, <script>"), nil},
		{"escapes undone", pre + ` "203.0.113.7\x2C 10.0.0.5 \"x\""`, ff(`203.0.113.7, 10.0.0.5 "x"`), nil},
		{"invalid UTF-8 kept for the builder to repair", pre + " \"203.0.113.7\xff, 10.0.0.5\"", ff("203.0.113.7\xff, 10.0.0.5"), nil},
		{"CRLF", pre + ` "203.0.113.7"` + "\r", ff("203.0.113.7"), nil},
		{"absent: the layout asks for it", pre, view{}, ErrFieldCount},
		{"a field more", pre + ` "203.0.113.7" 0.012`, view{}, ErrFieldCount},
	})

	for _, layout := range []string{
		`%h %t "%r" %>s "%{x-forwarded-for}i"`,
		`%h %t "%r" %>s "%{X-FORWARDED-FOR}i"`,
		`%h %t "%r" %>s "%!200{X-Forwarded-For}i"`,
		`%h %t "%r" %>s %{X-Forwarded-For}i`, // unquoted, last: runs to the end of the line
	} {
		t.Run(layout, func(t *testing.T) {
			f, err := NewCustom(layout)
			if err != nil {
				t.Fatal(err)
			}
			q := `"`
			if !strings.HasSuffix(layout, `"`) {
				q = ""
			}
			want := view{Time: "2026-10-25T01:30:00Z", Client: "157.55.39.146", Method: "GET", Target: "/", Proto: "HTTP/1.1", Status: 200, Bytes: -1, FF: "203.0.113.7, 10.0.0.5"}
			runCases(t, f.New(), []parseCase{
				{"chain", `157.55.39.146 [25/Oct/2026:01:30:00 +0000] "GET / HTTP/1.1" 200 ` + q + `203.0.113.7, 10.0.0.5` + q, want, nil},
			})
		})
	}
}

func TestForwardedForCustomNginx(t *testing.T) {
	const pre = `5.255.253.1 [25/Oct/2026:01:30:00 +0000] "GET / HTTP/2.0" 200`
	base := view{Time: "2026-10-25T01:30:00Z", Client: "5.255.253.1", Method: "GET", Target: "/", Proto: "HTTP/2.0", Status: 200, Bytes: -1}
	ff := func(s string) view { v := base; v.FF = s; return v }
	for _, tc := range []struct {
		layout string
		cases  []parseCase
	}{
		{`$remote_addr [$time_local] "$request" $status "$http_x_forwarded_for"`, []parseCase{
			{"chain", pre + ` "203.0.113.7, 10.0.0.5"`, ff("203.0.113.7, 10.0.0.5"), nil},
			{"dash", pre + ` "-"`, base, nil},
			{"empty", pre + ` ""`, base, nil},
			{"escape=default \\xHH undone", pre + ` "203.0.113.7\x22"`, ff(`203.0.113.7"`), nil},
			{"invalid UTF-8 kept", pre + " \"\xc3(\"", ff("\xc3("), nil},
		}},
		{`$remote_addr [$time_local] "$request" $status "$proxy_add_x_forwarded_for"`, []parseCase{
			{"proxy_add: the header with the peer appended", pre + ` "203.0.113.7, 5.255.253.1"`, ff("203.0.113.7, 5.255.253.1"), nil},
		}},
		{`$remote_addr [$time_local] "$request" $status "$proxy_add_x_forwarded_for" "$http_x_forwarded_for"`, []parseCase{
			{"the header itself wins over proxy_add", pre + ` "203.0.113.7, 5.255.253.1" "203.0.113.7"`, ff("203.0.113.7"), nil},
			{"even when absent", pre + ` "5.255.253.1" "-"`, base, nil},
		}},
	} {
		t.Run(tc.layout, func(t *testing.T) {
			f, err := NewCustom(tc.layout)
			if err != nil {
				t.Fatal(err)
			}
			runCases(t, f.New(), tc.cases)
		})
	}
}

// The built-in CLF formats tolerate trailing fields and never read them:
// an appended X-Forwarded-For is not guessed.
func TestForwardedForNotGuessed(t *testing.T) {
	const line = `157.55.39.146 - - [25/Oct/2026:01:30:00 +0000] "GET /robots.txt HTTP/1.1" 200 431 "-" "curl/8.5.0" "203.0.113.7, 10.0.0.5"`
	for _, name := range []string{"combined", "common", "vhost_combined"} {
		l := line
		if name == "vhost_combined" {
			l = "www.example.com:443 " + l
		}
		var r Row
		if err := mustNew(t, name).Parse([]byte(l), &r); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if r.ForwardedFor != nil {
			t.Errorf("%s: ForwardedFor %q from an unnamed trailing field", name, r.ForwardedFor)
		}
	}
}

// The combined fast path and the layout engine with the header named read
// the same request from the same lines; only the engine keeps the header.
func TestForwardedForSameAsCombined(t *testing.T) {
	fast := mustNew(t, "combined")
	f, err := NewCustom(layoutCombined + ` "%{X-Forwarded-For}i"`)
	if err != nil {
		t.Fatal(err)
	}
	engine := f.New()
	strict, err := NewCustom(layoutCombined) // no trailing fields
	if err != nil {
		t.Fatal(err)
	}
	plain := strict.New()
	chains := []string{"-", "203.0.113.7", "203.0.113.7, 10.0.0.5", "2001:db8::7, 10.0.0.5, 10.0.0.6", ""}
	n := 0
	for i, l := range combinedMix(2048) {
		if plain.Parse(l, &Row{}) == ErrFieldCount {
			continue // the mix's own trailing field
		}
		chain := chains[i%len(chains)]
		line := string(l) + ` "` + chain + `"`
		var a, b Row
		errA := fast.Parse([]byte(line), &a)
		errB := engine.Parse([]byte(line), &b)
		if errA != errB {
			t.Fatalf("%q: combined says %v, the layout %v", line, errA, errB)
		}
		if errA != nil {
			continue
		}
		n++
		want := chain
		if want == "-" {
			want = ""
		}
		if string(b.ForwardedFor) != want || a.ForwardedFor != nil {
			t.Fatalf("%q: ForwardedFor %q (layout), %q (combined), want %q and none", line, b.ForwardedFor, a.ForwardedFor, want)
		}
		b.ForwardedFor = nil
		if viewOf(&a) != viewOf(&b) {
			t.Fatalf("%q:\ncombined %+v\n  layout %+v", line, viewOf(&a), viewOf(&b))
		}
	}
	if n < 1000 {
		t.Errorf("only %d lines parsed", n)
	}
}

// Filling ForwardedFor costs no allocation per line either.
func TestForwardedForDoesNotAllocate(t *testing.T) {
	custom, err := NewCustom(`$remote_addr [$time_local] "$request" $status "$http_x_forwarded_for"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		f     Format
		prior string
		line  string
	}{
		{"custom", custom, "", `5.255.253.1 [25/Oct/2026:01:30:00 +0000] "GET / HTTP/2.0" 200 "203.0.113.7\x2C 10.0.0.5"`},
	} {
		p := tc.f.New()
		var r Row
		if tc.prior != "" {
			_ = p.Parse([]byte(tc.prior), &r)
		}
		line := []byte(tc.line)
		if err := p.Parse(line, &r); err != nil || r.ForwardedFor == nil {
			t.Fatalf("%s: %v, ForwardedFor %q", tc.name, err, r.ForwardedFor)
		}
		if n := testing.AllocsPerRun(100, func() { _ = p.Parse(line, &r) }); n != 0 {
			t.Errorf("%s: Parse allocates %.1f times per line, want 0", tc.name, n)
		}
	}
}
