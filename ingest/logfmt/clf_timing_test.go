package logfmt

import (
	"bytes"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// combinedMix returns n combined lines with a realistic mix: browsers,
// crawlers and scripts, IPv4 and IPv6 clients, query strings, referers and
// "-", a trailing "-" field on some, a few escaped quotes and "-" requests.
func combinedMix(n int) [][]byte {
	rng := rand.New(rand.NewSource(1))
	agents := []string{
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
		"curl/8.4.0",
		"python-requests/2.31.0",
		`Mozilla/5.0 \"quoted\" (X11; Linux x86_64)`,
		"-",
	}
	paths := []string{"/", "/robots.txt", "/blog/2026/10/some-article-title", "/static/css/main.3f2a1b.css", "/search?q=robots+txt&page=2", "/private/x?id=12345&sort=desc", "/images/logo.png", "/api/v1/items/987654?fields=name,price"}
	refs := []string{"-", "-", "https://www.example.com/", "https://www.google.com/", "https://www.example.com/blog/2026/10/"}
	lines := make([][]byte, n)
	for i := range lines {
		var ip string
		if rng.Intn(5) == 0 {
			ip = fmt.Sprintf("2001:db8:%x::%x", rng.Intn(65536), rng.Intn(65536))
		} else {
			ip = fmt.Sprintf("%d.%d.%d.%d", 1+rng.Intn(223), rng.Intn(256), rng.Intn(256), 1+rng.Intn(254))
		}
		req := "GET " + paths[rng.Intn(len(paths))] + " HTTP/1.1"
		if rng.Intn(200) == 0 {
			req = "-"
		}
		s := fmt.Sprintf(`%s - - [%02d/Oct/2026:%02d:%02d:%02d +0200] "%s" %d %d "%s" "%s"`,
			ip, 1+rng.Intn(28), rng.Intn(24), rng.Intn(60), rng.Intn(60), req,
			[]int{200, 200, 200, 304, 404, 301}[rng.Intn(6)], rng.Intn(200000),
			refs[rng.Intn(len(refs))], agents[rng.Intn(len(agents))])
		if rng.Intn(3) == 0 {
			s += ` "-"`
		}
		lines[i] = []byte(s)
	}
	return contiguous(lines)
}

// contiguous copies lines into one block, as the stream layer hands them to
// a parser (sub-slices of a read buffer).
func contiguous(lines [][]byte) [][]byte {
	n := 0
	for _, l := range lines {
		n += len(l) + 1
	}
	block := make([]byte, 0, n)
	out := make([][]byte, len(lines))
	for i, l := range lines {
		start := len(block)
		block = append(block, l...)
		out[i] = block[start:len(block):len(block)]
		block = append(block, '\n')
	}
	return out
}

func benchLines(b *testing.B, p Parser, lines [][]byte) {
	var size int64
	for _, l := range lines {
		size += int64(len(l)) + 1
	}
	var r Row
	// Warm up the scratch buffer so that the loop measures the steady state.
	for _, l := range lines {
		_ = p.Parse(l, &r)
	}
	b.SetBytes(size)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cpuSeconds()
	for b.Loop() {
		for _, l := range lines {
			_ = p.Parse(l, &r)
		}
	}
	cpu := cpuSeconds() - cpu0
	b.ReportMetric(float64(b.N)*float64(len(lines))/b.Elapsed().Seconds(), "lines/s")
	// On a busy machine the wall clock counts time spent waiting for a
	// core; these count only the CPU time this process used.
	if cpu > 0 {
		b.ReportMetric(float64(b.N)*float64(size)/cpu/1e6, "cpu-MB/s")
		b.ReportMetric(float64(b.N)*float64(len(lines))/cpu, "cpu-lines/s")
	}
}

// BenchmarkCombined measures the combined parser alone on one core.
func BenchmarkCombined(b *testing.B) {
	b.Run("mix", func(b *testing.B) {
		benchLines(b, mustNew(b, "combined"), combinedMix(4096))
	})
	b.Run("semicomplete", func(b *testing.B) {
		path := shareddata.Path(b, "real-logs/elastic-apache-semicomplete-2015/apache_logs.gz")
		var lines [][]byte
		for _, l := range readLines(b, path) {
			lines = append(lines, []byte(l))
		}
		benchLines(b, mustNew(b, "combined"), contiguous(lines))
	})
	// The first 100,000 lines of the benchmarks' realistic month
	// (loggen.RealisticConfig).
	b.Run("realistic", func(b *testing.B) {
		var buf bytes.Buffer
		w, err := loggen.NewWriter(&buf, "combined")
		if err != nil {
			b.Fatal(err)
		}
		if err := loggen.Generate(loggen.RealisticConfig(100_000), w.Write); err != nil {
			b.Fatal(err)
		}
		w.Close()
		benchLines(b, mustNew(b, "combined"), contiguous(bytes.Split(bytes.TrimSuffix(buf.Bytes(), []byte("\n")), []byte("\n"))))
	})
}

// BenchmarkCustomNginx measures a compiled nginx layout (nginx.conf's main).
func BenchmarkCustomNginx(b *testing.B) {
	f, err := NewCustom(`$remote_addr - $remote_user [$time_local] "$request" $status $body_bytes_sent "$http_referer" "$http_user_agent" "$http_x_forwarded_for"`)
	if err != nil {
		b.Fatal(err)
	}
	lines := combinedMix(4096)
	for i, l := range lines {
		if !strings.HasSuffix(string(l), `"-"`) || strings.Count(string(l), `"`) < 8 {
			lines[i] = append(l, ` "-"`...)
		}
	}
	benchLines(b, f.New(), lines)
}

// BenchmarkHAProxy measures the haproxy parser on syslog-prefixed lines.
func BenchmarkHAProxy(b *testing.B) {
	line := []byte(`Feb 25 16:19:49 192.168.4.2 haproxy[7]: 141.35.244.171:53332 [25/Feb/2019:16:19:48.143] prod_http_in~ bk_admin/nginx_sonst 0/0/7/1457/1487 200 11394 - - ---- 2/1/0/0/0 0/0 {Mozilla/5.0 (Windows NT 6.1; Win64; x64; rv:65.0) Gecko/20100101 Firefox/65.0} {} "GET /admin/colt/administration?survey=130&input_stats=1 HTTP/1.1"`)
	benchLines(b, mustNew(b, "haproxy"), [][]byte{line})
}

// TestParsersDoNotAllocate checks the steady state of every parser of this
// file family costs no allocation per line.
func TestParsersDoNotAllocate(t *testing.T) {
	lines := combinedMix(256)
	for _, name := range []string{"combined", "common", "vhost_combined", "traefik", "haproxy"} {
		p := mustNew(t, name)
		var r Row
		for _, l := range lines {
			_ = p.Parse(l, &r)
		}
		if n := testing.AllocsPerRun(20, func() {
			for _, l := range lines {
				_ = p.Parse(l, &r)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per %d lines", name, n, len(lines))
		}
	}
}

// BenchmarkHostile parses adversarial lines of growing size: throughput must
// stay flat (linear time), whatever the line holds.
func BenchmarkHostile(b *testing.B) {
	const pre = `1.2.3.4 - - [17/May/2015:10:05:03 +0000] "`
	patterns := []struct {
		name, format string
		line         func(n int) string
	}{
		{"escaped-quotes", "combined", func(n int) string { return pre + strings.Repeat(`\"`, n/2) }},
		{"backslashes", "combined", func(n int) string { return pre + strings.Repeat(`\`, n) + `"` }},
		{"quote-runs", "combined", func(n int) string { return pre + "GET / HTTP/1.1\" 200 1 \"-\" \"" + strings.Repeat(`"x`, n/2) }},
		{"brackets", "combined", func(n int) string { return strings.Repeat("[01/", n/4) }},
		{"separators", "common", func(n int) string { return strings.Repeat(` "`, n/2) }},
		{"syslog-colons", "haproxy", func(n int) string { return strings.Repeat(": 1.2.3.4:5 ", n/12) }},
		{"haproxy-hashes", "haproxy", func(n int) string {
			return `1.2.3.4:5 [25/Feb/2019:16:19:48.143] a b/c 0/0/0/0/0 200 1 - - ---- 1/1/1/1/0 0/0 {` + strings.Repeat("#2", n/2) + `} "GET /`
		}},
	}
	for _, pt := range patterns {
		for _, n := range []int{1 << 10, 1 << 16, 1 << 20} {
			b.Run(fmt.Sprintf("%s/%d", pt.name, n), func(b *testing.B) {
				benchLines(b, mustNew(b, pt.format), [][]byte{[]byte(pt.line(n))})
			})
		}
	}
}
