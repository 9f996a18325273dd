package loggen

import (
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestRobotsHistory(t *testing.T) {
	vs := Robots("shop.example.org")
	wantAt := []string{"2026-09-15T00:00:00Z", "2026-10-10T12:00:00Z", "2026-10-20T00:00:00Z"}
	wantRules := []int{51, 54, 60}
	rule := regexp.MustCompile(`(?m)^(Allow|Disallow):`)
	if len(vs) != len(wantAt) {
		t.Fatalf("%d versions, want %d", len(vs), len(wantAt))
	}
	for i, v := range vs {
		if got := v.At.Format(time.RFC3339); got != wantAt[i] || v.FileName() != wantAt[i]+".txt" {
			t.Errorf("version %d at %s (%s), want %s", i, got, v.FileName(), wantAt[i])
		}
		if n := len(rule.FindAllString(v.Text, -1)); n != wantRules[i] {
			t.Errorf("version %d has %d rules, want %d", i, n, wantRules[i])
		}
		for _, s := range []string{"Sitemap: https://shop.example.org/sitemap.xml", "Crawl-delay: 5", "Crawl-delay: 10",
			"Request-rate: 3/1m", "Request-rate: 10/1m 0100-0500", "Visit-time: 0100-0500", "Disallow: /*?sessionid=",
			"Disallow: /*.pdf$", "Allow: /private/press/", "User-agent: GPTBot"} {
			if !strings.Contains(v.Text, s) {
				t.Errorf("version %d lacks %q", i, s)
			}
		}
		if strings.Contains(v.Text, "{{") {
			t.Errorf("version %d has an unreplaced placeholder", i)
		}
	}
}

// The generator's reference matcher on the embedded files (RFC 9309
// semantics: merged groups by product token, longest match, Allow on ties,
// '*' and '$', percent-encoding normalised).
func TestRobotsReferenceMatcher(t *testing.T) {
	const (
		chrome  = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/141.0.0.0 Safari/537.36"
		google  = uaGooglebotSmartphone
		gimage  = "Googlebot-Image/1.0"
		gpt     = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.3; +https://openai.com/gptbot)"
		bing    = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm) Chrome/116.0.1938.76 Safari/537.36"
		byte_   = "Mozilla/5.0 (Linux; Android 5.0) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)"
		petal   = "Mozilla/5.0 (Linux; Android 7.0;) AppleWebKit/537.36 (KHTML, like Gecko) Mobile Safari/537.36 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)"
		yandexy = "Mozilla/5.0 (compatible; YandexBotX/3.0)" // not the token YandexBot
	)
	vs := Robots(DefaultHost)
	tests := []struct {
		name    string
		version int
		ua      string
		target  string
		allowed bool
	}{
		{"star: plain page", 0, chrome, "/products/a", true},
		{"star: prefix", 0, chrome, "/search?q=x", false},
		{"star: Allow inside Disallow", 0, chrome, "/private/press/x", true},
		{"star: Disallow around Allow", 0, chrome, "/private/drafts/", false},
		{"star: wildcard query", 0, chrome, "/products/a?sessionid=1", false},
		{"star: wildcard second parameter", 0, chrome, "/products/a?color=red&sessionid=1", false},
		{"star: $ anchors", 0, chrome, "/docs/manuals/x.pdf", false},
		{"star: $ anchors, not a suffix", 0, chrome, "/docs/manuals/x.pdf?dl=1", true},
		{"star: longer Allow with $ wins", 0, chrome, "/docs/public/x.pdf", true},
		{"star: UTF-8 rule matches encoded path", 0, chrome, "/%C3%BCbersicht/intern/a", false},
		{"star: UTF-8 rule matches raw path", 0, chrome, "/übersicht/intern/a", false},
		{"star: lower-case hex", 0, chrome, "/%c3%bcbersicht/intern/a", false},
		{"star: %3A is not ':'", 0, chrome, "/wiki/Spezial%3ASuche", true},
		{"star: ':' matches", 0, chrome, "/wiki/Spezial:Suche", false},
		{"star: decoded unreserved", 0, chrome, "/%73earch", false},
		{"star: robots.txt always allowed", 0, byte_, "/robots.txt", true},
		{"star: beta from v2", 0, chrome, "/beta/x", true},
		{"star: beta from v2", 1, chrome, "/beta/x", false},
		{"star: archive from v3", 1, chrome, "/archive/2025/x", true},
		{"star: archive from v3", 2, chrome, "/archive/2025/x", false},
		{"star: this year's archive stays", 2, chrome, "/archive/2026/x", true},
		{"Googlebot: own group", 0, google, "/print/x", true},
		{"Googlebot-Image: own group, not Googlebot's", 0, gimage, "/images/private/a.jpg", false},
		{"Googlebot-Image: own group allows", 0, gimage, "/search?q=1", true},
		{"GPTBot v1", 0, gpt, "/blog/x", true},
		{"GPTBot v2", 1, gpt, "/blog/x", false},
		{"GPTBot v2 home", 1, gpt, "/", false},
		{"bingbot: shared group", 0, bing, "/search", false},
		{"bingbot: shared group allows print", 0, bing, "/print/x", true},
		{"Bytespider: everything", 0, byte_, "/", false},
		{"PetalBot: token before ';'", 0, petal, "/search", false},
		{"PetalBot: own group allows print", 0, petal, "/print/x", true},
		{"token must be bounded", 0, yandexy, "/print/x", false},
	}
	for _, tc := range tests {
		if got := vs[tc.version].Allowed(tc.ua, tc.target); got != tc.allowed {
			t.Errorf("%s: v%d %s: allowed %v, want %v", tc.name, tc.version+1, tc.target, got, tc.allowed)
		}
	}
}
