package robots

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzParse: any bytes parse without panic; every diagnostic names a line
// of the file; groups, rules and diagnostics are bounded by the lines; every
// profile compiles, every agent resolves to a non-nil group and every lookup
// answers consistently. The corpus is in testdata/fuzz/FuzzParse.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", fictOrg,
		"User-agent: *\nDisallow: /\n",
		"\xEF\xBB\xBFUser-agent: a\r\nAllow: /x\r\nDisallow: /\r\n",
		"User-agent: a\rDisallow: /a\r\rUser-agent: b\rCrawl-delay: 1.5\r",
		"useragent FooBot\ndissallow /x\nuser agent: y\n",
		"<!DOCTYPE html><html><body>404</body></html>",
		"User-agent: *\nRequest-rate: 1/10s 0800-1700\nRequest-rate: 10/1m\nVisit-time: 2200-0600\n",
		"User-agent: *\x00\nDisallow: /\xff\xfe\n",
		"Disallow: /early\nUser-agent: *\n\nDisallow: /late\n",
		"User-agent: * foo\nUser-agent: MJ12bot\nUser-agent: Googlebot/2.1\nDisallow: /*$\n",
		"Clean-param: a&b /p\nHost: x\nSitemap: y\nUser-agent: z\nClean-param: &\nNoindex: /n\nComment: c\nRobot-version: 2.0.0\nCache-delay: 3\n",
		"User-agent: a\nRobot-version: 2.0.0\nAllow: */index.html\n\nUser-agent: *\nRobot-version: 2.1\nDisallow: /\nRobot-version: x\n",
		"User-agent: Googlebot\nRobot-version: 2.2.0\nAllow: /a\nAllow: /b*\nDisallow: *.shtml\nRequest-rate: 1/1d 0000-2400\n",
		strings.Repeat("User-agent: a\n", 50) + strings.Repeat("Disallow: /*a*a*a*a*b\n", 50),
		"User-agent: a:b:c\n:::\n#:\n \t \nAllow:\nDisallow:#\n",
		"Content-Signal: search=yes,ai-train=no\nUser-agent: *\nContent-Usage: /a/ train-ai=y\nContent-Usage: ai=n,\nContent-usage /b search\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file := Parse(data)
		terminators := strings.Count(string(data), "\n") + strings.Count(string(data), "\r") + 1
		if file.Lines > terminators {
			t.Fatalf("%d lines from %d terminators", file.Lines, terminators)
		}
		for _, d := range file.Diagnostics {
			if d.Line < 1 || d.Line > file.Lines+1 || d.Message == "" || !utf8.ValidString(d.Message) {
				t.Fatalf("bad diagnostic %+v (lines %d)", d, file.Lines)
			}
		}
		rules := 0
		for _, g := range file.Groups {
			rules += len(g.Rules)
			for _, ru := range g.Rules {
				if ru.Line < 1 || ru.Line > file.Lines {
					t.Fatalf("rule line %d of %d", ru.Line, file.Lines)
				}
			}
		}
		if rules > file.Lines || len(file.Groups) > file.Lines {
			t.Fatalf("%d rules, %d groups from %d lines", rules, len(file.Groups), file.Lines)
		}
		var buf []byte
		for _, p := range Profiles {
			r := Compile(file, p)
			for _, a := range []string{"a", "Googlebot", "Mozilla/5.0 (compatible; a/1.0)", ""} {
				g := r.Resolve(a)
				if g == nil {
					t.Fatalf("%s: Resolve(%q) = nil", p, a)
				}
				for _, u := range []string{"/", "/a", "/robots.txt", string(data[:min(len(data), 64)])} {
					var d Decision
					d, buf = g.Decide([]byte(u), buf)
					if d.Index >= 0 && (d.Line != g.Rules()[d.Index].Line || d.Allowed != g.Rules()[d.Index].Allow) {
						t.Fatalf("%s %q %q: %+v", p, a, u, d)
					}
					if d.Index < 0 && !d.Allowed && !isUnlisted(p, d) {
						t.Fatalf("%s %q %q: disallowed by no rule: %+v", p, a, u, d)
					}
					if u == "/robots.txt" && !d.Allowed {
						t.Fatalf("%s: /robots.txt disallowed", p)
					}
				}
				g.RequestRate(int64(len(data)) * 997)
				g.InVisitTime(int64(len(data)) * 991)
			}
		}
	})
}

// TestParseLinear: parsing, compiling and resolving take time linear in the
// input, for inputs built to defeat that (the fuzz test's third invariant,
// checked here where sizes can be controlled). Each input is measured at n
// and 32n bytes. Linear work, with its cache and GC effects, takes 32 to 60
// times as long; a quadratic step 1,024 times. The bound, 300 times, sits
// between them, far enough from both that a machine shared with other
// builds (whose load skews timings) does not make the test flaky; a failing
// input is measured twice more before the test fails. Allocated bytes, which
// do not depend on load, must grow no more than 64 times.
func TestParseLinear(t *testing.T) {
	if testing.Short() {
		t.Skip("timing in -short mode")
	}
	gens := map[string]func(n int) string{
		"many agents, many rules, distinct tokens": func(n int) string {
			var sb strings.Builder
			for i := 0; sb.Len() < n/2; i++ {
				sb.WriteString("User-agent: bot")
				sb.WriteString(strings.Repeat("x", i%50))
				sb.WriteString("\n")
			}
			for sb.Len() < n {
				sb.WriteString("Disallow: /*a*b*c*d*e*f\n")
			}
			return sb.String()
		},
		"one long line without colon": func(n int) string { return "User-agent " + strings.Repeat("a b ", n/4) },
		"colons":                      func(n int) string { return strings.Repeat(":", n) },
		"misspelt keys":               func(n int) string { return strings.Repeat("dissalowww: /x\n", n/15) },
		"distinct unknown keys": func(n int) string {
			var sb strings.Builder
			for i := 0; sb.Len() < n; i++ {
				fmt.Fprintf(&sb, "key%d: v\n", i)
			}
			return sb.String()
		},
		"unterminated CRs": func(n int) string { return strings.Repeat("\r\n\r", n/3) },
		"groups of agents and rules": func(n int) string {
			return strings.Repeat("User-agent: a\nUser-agent: b\nDisallow: /x\nCrawl-delay: 1\n", n/55)
		},
		"many short groups": func(n int) string {
			var sb strings.Builder
			for i := 0; sb.Len() < n; i++ {
				sb.WriteString("User-agent: t")
				sb.WriteString(strings.Repeat("y", i%64))
				sb.WriteString("\nUser-agent: common\nDisallow: /p\n")
			}
			return sb.String()
		},
	}
	const n = 12 << 10
	for name, gen := range gens {
		small, large := []byte(gen(n)), []byte(gen(32*n))
		as, al := allocBytes(small), allocBytes(large)
		if al > 64*as {
			t.Errorf("%s: %d bytes allocated %d, %d bytes %d (%.1fx)", name, len(small), as, len(large), al, float64(al)/float64(as))
		}
		for try := 0; ; try++ {
			ts, tl := bestOf3(small), bestOf3(large)
			if tl <= 300*ts || tl < 20*time.Millisecond {
				break
			}
			if try == 2 {
				t.Errorf("%s: %d bytes took %v, %d bytes %v (%.1fx)", name, len(small), ts, len(large), tl, float64(tl)/float64(ts))
				break
			}
		}
	}
}

func allocBytes(data []byte) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	work(data)
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func work(data []byte) {
	f := Parse(data)
	for _, p := range Profiles {
		r := Compile(f, p)
		for _, a := range []string{"common", "Mozilla/5.0 (compatible; common/1.0; a; b)", "bot" + strings.Repeat("x", 30), "a"} {
			r.Resolve(a).Decide([]byte("/p/a/b/c/d/e/f"), nil)
		}
	}
}

func bestOf3(data []byte) time.Duration {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		work(data)
		best = min(best, time.Since(start))
	}
	return best
}

func BenchmarkParse(b *testing.B) {
	var sb strings.Builder
	sb.WriteString("# a realistic file: comments, several groups, wildcards, extensions\n")
	for i := range 40 {
		sb.WriteString("User-agent: Bot")
		sb.WriteString(strings.Repeat("x", i%7))
		sb.WriteString("\nCrawl-delay: 2\n")
		for j := range 20 {
			sb.WriteString("Disallow: /section")
			sb.WriteString(strings.Repeat("a", j))
			sb.WriteString("/*?sort= # keep crawlers out\n")
		}
		sb.WriteString("\n")
	}
	data := []byte(sb.String())
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		Compile(Parse(data), RFC9309).Resolve("Botxx")
	}
}
