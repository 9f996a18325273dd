package robots

import (
	"strings"
	"testing"
)

// TestAgentResolution: a robots.txt token applies
// when it appears in the User-Agent header as a product name; the longest
// applying token wins; else "*".
func TestAgentResolution(t *testing.T) {
	body := `User-agent: Googlebot
Disallow: /g/

User-agent: Googlebot-Image
Disallow: /img/

User-agent: bot
Disallow: /bot/

User-agent: GPTBot
User-agent: CCBot
Disallow: /

User-agent: *
Disallow: /star/
`
	r := Compile(Parse([]byte(body)), RFC9309)
	for _, c := range []struct{ agent, group string }{
		{"Googlebot", "googlebot"},
		{"googlebot", "googlebot"},
		{"GOOGLEBOT-IMAGE", "googlebot-image"},
		{"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot"},
		{"Googlebot-Image/1.0", "googlebot-image"},
		{"Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)", "googlebot"},
		{"Googlebot-Image/1.0 Googlebot/2.1", "googlebot-image"}, // longest wins, wherever it is
		{"Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)", "gptbot"},
		{"CCBot/2.0 (https://commoncrawl.org/faq/)", "ccbot"},
		{"Mozilla/5.0 (compatible; Googlebotx/1.0)", "*"}, // not bounded
		{"Mozilla/5.0 (compatible; xGooglebot/1.0)", "*"}, // not bounded
		{"Mozilla/5.0 (compatible; Googlebot-News)", "*"},
		{"AdsBot-Google (+http://www.google.com/adsbot.html)", "*"},
		{"Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)", "*"},
		{"Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0", "*"},
		{"my bot", "bot"}, // a header with "bot" as a product name
		{"", "*"},
		{"   ", "*"},
	} {
		if g := r.Resolve(c.agent); g.Name() != c.group {
			t.Errorf("%q: group %q, want %q", c.agent, g.Name(), c.group)
		}
	}
	// Tokens with digits and dots (a deviation from RFC 9309's letters-only
	// grammar) name their crawler whole.
	r2 := Compile(Parse([]byte("User-agent: archive.org_bot\nDisallow: /a\n\nUser-agent: MJ12bot\nDisallow: /m\n\nUser-agent: archive\nDisallow: /x\n")), RFC9309)
	for _, c := range []struct{ agent, group string }{
		{"Mozilla/5.0 (compatible; archive.org_bot +http://archive.org/details/archive.org_bot)", "archive.org_bot"},
		{"archive.org_bot", "archive.org_bot"},
		{"Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)", "mj12bot"},
		{"ia_archiver archive/1.0", "archive"},
	} {
		if g := r2.Resolve(c.agent); g.Name() != c.group {
			t.Errorf("%q: group %q, want %q", c.agent, g.Name(), c.group)
		}
	}
	// Without a "*" group, an unknown crawler gets no group: allowed.
	r = Compile(Parse([]byte("User-agent: GPTBot\nDisallow: /\n")), RFC9309)
	g := r.Resolve("Mozilla/5.0 (compatible; bingbot/2.0)")
	if g.Matched() || g.Name() != "" || len(g.Rules()) != 0 {
		t.Errorf("no-group: %q %v", g.Name(), g.Rules())
	}
	if d, _ := g.Decide([]byte("/x"), nil); !d.Allowed || d.Index != -1 || d.Line != 0 {
		t.Errorf("no-group decision %+v", d)
	}
	if r.Default() != r.Resolve("anything") {
		t.Error("Default differs from an unknown agent's group")
	}
}

// TestAgentProfiles: every profile resolves headers by product name;
// the Koster profiles take the first record, not the longest token.
func TestAgentProfiles(t *testing.T) {
	body := "User-agent: Googlebot\nDisallow: /g/\n\nUser-agent: Googlebot-Image\nDisallow: /img/\n\nUser-agent: *\nDisallow: /star/\n"
	for _, c := range []struct {
		p            Profile
		agent, group string
	}{
		{RFC9309, "Googlebot-Image/1.0", "googlebot-image"},
		{Google, "Googlebot-Image/1.0", "googlebot-image"},
		{Koster1996, "Googlebot-Image/1.0", "googlebot-image"},
		{Koster1996, "Googlebot-Image/1.0 Googlebot/2.1", "googlebot"}, // first record
		{Koster1996, "googlebot", "googlebot"},
		{Koster1996, "image", "googlebot-image"}, // substring of a record's value
		{Orig1994, "Googlebot/2.1", "googlebot"},
		{RFC9309, "image", "*"},
	} {
		if g := Compile(Parse([]byte(body)), c.p).Resolve(c.agent); g.Name() != c.group {
			t.Errorf("%s %q: group %q, want %q", c.p, c.agent, g.Name(), c.group)
		}
	}
}

// TestResolve_SharedGroups: tokens of one group share its compiled rules
// but keep their own names.
func TestResolve_SharedGroups(t *testing.T) {
	r := Compile(Parse([]byte("User-agent: a\nUser-agent: b\nDisallow: /x\n")), RFC9309)
	ga, gb := r.Resolve("A"), r.Resolve("b")
	if ga.Name() != "a" || gb.Name() != "b" || ga.set != gb.set {
		t.Errorf("names %q %q, shared %v", ga.Name(), gb.Name(), ga.set == gb.set)
	}
	if got := strings.Join(r.Tokens(), ","); got != "a,b" {
		t.Errorf("tokens %q", got)
	}
}

func BenchmarkResolveHeader(b *testing.B) {
	var sb strings.Builder
	for i := range 300 {
		sb.WriteString("User-agent: Bot")
		sb.WriteString(strings.Repeat("x", i%17))
		sb.WriteByte(byte('a' + i%26))
		sb.WriteString("\nDisallow: /p\n\n")
	}
	sb.WriteString("User-agent: Googlebot\nDisallow: /g\n")
	r := Compile(Parse([]byte(sb.String())), RFC9309)
	const ua = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/119.0 Mobile Safari/537.36 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"
	b.ReportAllocs()
	b.SetBytes(int64(len(ua)))
	for b.Loop() {
		if r.Resolve(ua).Name() != "googlebot" {
			b.Fatal("wrong group")
		}
	}
}

// BenchmarkResolvedDecide: a decision through the resolved group (as the
// audit makes them) adds nothing to the matcher's cost: no allocation.
func BenchmarkResolvedDecide(b *testing.B) {
	g := Compile(Parse([]byte(fictOrg)), RFC9309).Resolve("Mozilla/5.0 (compatible; OtherBot/1.0)")
	targets := []string{"/", "/org/plans.html", "/org/about.html?x=1", "/%7Emak/mak.html", "/services/fast.html"}
	var buf []byte
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		_, buf = g.DecideString(targets[i%len(targets)], buf)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
}
