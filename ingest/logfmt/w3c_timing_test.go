package logfmt

import (
	"fmt"
	"strings"
	"testing"
)

// Realistic field values for the benchmark corpora.
var (
	benchAgents = []string{
		"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
		"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
		"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)",
		"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
		"Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
		"python-requests/2.32.3",
		"curl/8.5.0",
	}
	benchPaths  = []string{"/", "/robots.txt", "/private/page", "/blog/2026/10/a-long-article-title-with-words", "/search", "/static/app.3f9a1c.js", "/api/v1/items/12345"}
	benchQuery  = []string{"", "q=crawler+audit&page=2", "utm_source=news&utm_medium=email", "id=42"}
	benchIPs    = []string{"66.249.66.1", "157.55.39.146", "74.7.227.189", "203.0.113.7", "2001:db8:85a3::8a2e:370:7334", "198.51.100.23"}
	benchStatus = []int{200, 200, 200, 304, 404, 301, 500}
)

// benchParse parses lines with one parser of the named format, after the
// directives, and reports MB/s and lines/s.
func benchParse(b *testing.B, format string, directives []string, lines [][]byte) {
	f, ok := Lookup(format)
	if !ok {
		b.Fatalf("format %q is not registered", format)
	}
	p := f.New()
	var r Row
	for _, d := range directives {
		_ = p.Parse([]byte(d), &r)
	}
	size := 0
	for _, l := range lines {
		size += len(l) + 1
		if err := p.Parse(l, &r); err != nil {
			b.Fatalf("Parse(%q) = %v", l, err)
		}
	}
	b.SetBytes(int64(size))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		for _, l := range lines {
			_ = p.Parse(l, &r)
		}
	}
	b.ReportMetric(float64(len(lines))*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}

func benchW3CLines(n int) [][]byte {
	lines := make([][]byte, n)
	for i := range lines {
		q := benchQuery[i%len(benchQuery)]
		if q == "" {
			q = "-"
		}
		ref := "-"
		if i%3 == 0 {
			ref = "https://www.example.com/"
		}
		lines[i] = []byte(fmt.Sprintf("2026-10-%02d %02d:%02d:%02d 10.0.0.1 GET %s %s 443 - %s %s %s %d 0 0 %d %d %d",
			1+i%28, i%24, i%60, (i*7)%60, benchPaths[i%len(benchPaths)], q, benchIPs[i%len(benchIPs)],
			strings.ReplaceAll(benchAgents[i%len(benchAgents)], " ", "+"), ref, benchStatus[i%len(benchStatus)], 100+i*37%90000, 300+i%200, i%500))
	}
	return lines
}

func BenchmarkParseW3C(b *testing.B) {
	benchParse(b, "w3c", []string{iisSoftware, iisVersion, iisDate, iisFields17}, benchW3CLines(1000))
}

func BenchmarkParseCloudFront(b *testing.B) {
	lines := make([][]byte, 1000)
	for i := range lines {
		q := benchQuery[i%len(benchQuery)]
		if q == "" {
			q = "-"
		}
		lines[i] = []byte(cfLine(map[int]string{1: fmt.Sprintf("%02d:%02d:%02d", i%24, i%60, (i*7)%60), 4: benchIPs[i%len(benchIPs)],
			7: benchPaths[i%len(benchPaths)], 10: strings.ReplaceAll(benchAgents[i%len(benchAgents)], " ", "%20"), 11: q}))
	}
	benchParse(b, "cloudfront", nil, lines)
}

func BenchmarkParseALB(b *testing.B) {
	lines := make([][]byte, 1000)
	for i := range lines {
		target := benchPaths[i%len(benchPaths)]
		if q := benchQuery[i%len(benchQuery)]; q != "" {
			target += "?" + q
		}
		client := benchIPs[i%len(benchIPs)] + ":44740"
		lines[i] = []byte(albLine("https", client, "200", "5120", "GET https://www.example.com:443"+target+" HTTP/1.1", benchAgents[i%len(benchAgents)]))
	}
	benchParse(b, "alb", nil, lines)
}
