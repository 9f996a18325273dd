package loggen

import (
	"bytes"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"

	auditbots "github.com/crawlaudit/crawlaudit/bots"
)

// logStats are the measures of a generated log that the knobs set.
type logStats struct {
	lines, bots int
	paths       map[string]int // target -> requests
	agents      map[string]bool
}

func measure(t *testing.T, cfg Config) logStats {
	t.Helper()
	s := logStats{paths: map[string]int{}, agents: map[string]bool{}}
	err := Generate(cfg, func(r *Request) error {
		s.lines++
		s.paths[r.Host+" "+string(r.Target)]++
		s.agents[r.UserAgent] = true
		if r.Behavior != Browser {
			s.bots++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The knobs produce what they say on 100,000 lines (the realistic month
// is 1 M combined lines, about 104,000 distinct paths, 271 distinct
// User-Agents, 30% crawlers and a 60-rule robots.txt; scaled to 100,000
// lines for paths).
// Each row sets knobs alone or together; a knob left at 0 keeps the
// default measure, checked against the default log's.
func TestKnobs(t *testing.T) {
	const lines = 100_000
	base := SampleConfig()
	base.Lines = lines
	def := measure(t, base)
	defShare := float64(def.bots) / lines
	t.Logf("default: %d paths, %d agents, bot share %.3f", len(def.paths), len(def.agents), defShare)
	for _, tc := range []struct {
		name   string
		paths  int
		agents int
		share  float64
		hosts  []string
	}{
		{name: "realistic month, per 100k lines", paths: 10_400, agents: 271, share: 0.30},
		{name: "paths alone", paths: 25_000},
		{name: "few paths", paths: 2_000},
		{name: "agents alone", agents: 120},
		{name: "fewer agents than the default", agents: 35},
		{name: "bot share alone, low", share: 0.10},
		{name: "bot share alone, high (Crawl-delay caps made up)", share: 0.85},
		{name: "two hosts", paths: 20_000, agents: 200, share: 0.5, hosts: []string{"a.example", "b.example"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := base
			cfg.Paths, cfg.Agents, cfg.BotShare, cfg.Hosts = tc.paths, tc.agents, tc.share, tc.hosts
			got := measure(t, cfg)
			if got.lines != lines {
				t.Fatalf("%d lines, want %d", got.lines, lines)
			}
			if want := tc.paths; want != 0 {
				if d := math.Abs(float64(len(got.paths)-want)) / float64(want); d > 0.03 {
					t.Errorf("%d distinct targets, want %d within 3%%", len(got.paths), want)
				}
			} else if d := math.Abs(float64(len(got.paths)-len(def.paths))) / float64(len(def.paths)); d > 0.25 {
				// More crawler traffic brings more stale session ids.
				t.Errorf("%d distinct targets without --paths, default %d", len(got.paths), len(def.paths))
			}
			switch {
			case tc.agents == 0:
				// The same User-Agents; a crawler's rarely used second one
				// may come or go as the random stream shifts.
				if d := len(got.agents) - len(def.agents); d < -2 || d > 2 {
					t.Errorf("%d User-Agents without --agents, default %d", len(got.agents), len(def.agents))
				}
			case len(got.agents) > tc.agents || len(got.agents) < tc.agents*94/100:
				// A crawler's rarely used second User-Agent, or a rare
				// visitor, may not appear in 100,000 lines.
				t.Errorf("%d distinct User-Agents, want %d (at most 6%% fewer)", len(got.agents), tc.agents)
			}
			share := float64(got.bots) / lines
			want := tc.share
			if want == 0 {
				want = defShare
			}
			if math.Abs(share-want) > 0.005 {
				t.Errorf("bot share %.4f, want %.4f", share, want)
			}
			t.Logf("%d paths, %d agents, bot share %.4f", len(got.paths), len(got.agents), share)
		})
	}
}

// The catalogue's entries are requested by a Zipf law: among browsers'
// product pages (browsers ignore robots.txt, so nothing bends the law), the
// most requested entry has the share 1/H(C) the law predicts for C entries,
// and the ten most requested H(10)/H(C) (ZipfExponent 1).
func TestZipf(t *testing.T) {
	cfg := RealisticConfig(200_000)
	g, err := newGenerator(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c := g.actors[0].hp.cat
	n := c.size[secProduct]
	if n < 1000 {
		t.Fatalf("the product catalogue has %d entries", n)
	}
	counts := map[string]int{}
	total := 0
	err = g.render(func(r *Request) error {
		if r.Behavior == Browser && bytes.HasPrefix(r.Target, []byte("/products/")) {
			// The entry without its query: a product page's variants are
			// the same entry.
			p, _, _ := bytes.Cut(r.Target, []byte("?"))
			counts[string(p)]++
			total++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	freq := make([]int, 0, len(counts))
	for _, k := range counts {
		freq = append(freq, k)
	}
	slices.Sort(freq)
	slices.Reverse(freq)
	h := func(k int) float64 {
		s := 0.0
		for i := 1; i <= k; i++ {
			s += math.Pow(float64(i), -ZipfExponent)
		}
		return s
	}
	top1, top10 := float64(freq[0])/float64(total), 0.0
	for _, f := range freq[:10] {
		top10 += float64(f) / float64(total)
	}
	want1, want10 := 1/h(n), h(10)/h(n)
	t.Logf("%d product entries, %d browser requests: top share %.4f (Zipf %.4f), top 10 %.4f (Zipf %.4f)", n, total, top1, want1, top10, want10)
	if math.Abs(top1-want1) > 0.2*want1 {
		t.Errorf("the most requested product has share %.4f, Zipf predicts %.4f", top1, want1)
	}
	if math.Abs(top10-want10) > 0.1*want10 {
		t.Errorf("the ten most requested products have share %.4f, Zipf predicts %.4f", top10, want10)
	}
}

// expectedDistinct against the exact sum it approximates.
func TestExpectedDistinct(t *testing.T) {
	for _, tc := range []struct {
		n int
		d float64
	}{{1, 10}, {50, 10}, {1000, 5000}, {5000, 20000}, {200_000, 900_000}} {
		h := 0.0
		for k := 1; k <= tc.n; k++ {
			h += math.Pow(float64(k), -ZipfExponent)
		}
		exact := 0.0
		for k := 1; k <= tc.n; k++ {
			exact += 1 - math.Pow(1-math.Pow(float64(k), -ZipfExponent)/h, tc.d)
		}
		if got := expectedDistinct(tc.n, tc.d); math.Abs(got-exact) > 1e-3*exact {
			t.Errorf("expectedDistinct(%d, %g) = %g, exact %g", tc.n, tc.d, got, exact)
		}
	}
}

// Same seed, same bytes, with every knob set; another seed, other bytes.
func TestKnobsDeterministic(t *testing.T) {
	cfg := RealisticConfig(30_000)
	cfg.Hosts = []string{"www.example.com", "shop.example.org"}
	cfg.RobotsRules = 150
	a, b := render(t, cfg, "combined"), render(t, cfg, "combined")
	if !bytes.Equal(a, b) {
		t.Error("two runs of the same configuration differ")
	}
	cfg.Seed = 2
	if bytes.Equal(a, render(t, cfg, "combined")) {
		t.Error("seeds 1 and 2 give the same output")
	}
	// RobotsRules = HandWrittenRules is the default history: the same log.
	def := SampleConfig()
	def.Lines = 20_000
	expl := def
	expl.RobotsRules = HandWrittenRules
	if !bytes.Equal(render(t, def, "combined"), render(t, expl, "combined")) {
		t.Error("RobotsRules 60 changes the default log")
	}
}

func TestKnobsBadConfig(t *testing.T) {
	base := SampleConfig()
	base.Lines = 1000
	for _, tc := range []struct {
		name string
		set  func(*Config)
	}{
		{"more paths than lines", func(c *Config) { c.Paths = 1001 }},
		{"negative paths", func(c *Config) { c.Paths = -1 }},
		{"bot share 1", func(c *Config) { c.BotShare = 1 }},
		{"negative bot share", func(c *Config) { c.BotShare = -0.1 }},
		{"NaN bot share", func(c *Config) { c.BotShare = math.NaN() }},
		{"agents fewer than the bots'", func(c *Config) { c.Agents = 10 }},
		{"agents beyond the known browsers", func(c *Config) { c.Agents = 100_000 }},
		{"robots rules below the hand-written", func(c *Config) { c.RobotsRules = 59 }},
		{"robots rules above the maximum", func(c *Config) { c.RobotsRules = MaxRobotsRules + 1 }},
	} {
		cfg := base
		tc.set(&cfg)
		if err := Generate(cfg, func(*Request) error { return nil }); err == nil {
			t.Errorf("%s: Generate succeeded, want an error", tc.name)
		}
	}
}

// MinAgents and MaxAgents are what the tables hold, and every browser
// User-Agent the Agents knob adds is one that
// bots.Identify calls a browser (none may add crawler traffic), and
// none repeats another.
func TestAgentsBounds(t *testing.T) {
	var all []string
	for n := 1; ; n++ {
		uas, err := moreBrowserUAs(n)
		if err != nil {
			break
		}
		all = uas
	}
	if lo, hi := len(botUserAgents())+1, len(botUserAgents())+len(browserUAs)+len(all); lo != MinAgents || hi != MaxAgents {
		t.Errorf("Agents can be %d to %d, MinAgents and MaxAgents say %d to %d", lo, hi, MinAgents, MaxAgents)
	}
	seen := map[string]bool{}
	for _, b := range browserUAs {
		seen[b.ua] = true
	}
	for _, ua := range all {
		if seen[ua] {
			t.Errorf("%q twice", ua)
		}
		seen[ua] = true
		if b := auditbots.Identify(ua); b.IsBot {
			t.Errorf("%q is identified as the bot %q", ua, b.Name)
		}
	}
	for _, ua := range botUserAgents() {
		if !auditbots.Identify(ua).IsBot {
			t.Errorf("the crawler or script User-Agent %q is not identified as a bot", ua)
		}
	}
}

// RobotsHistory adds distinct Disallow rules to every version, and the
// polite crawlers still obey the copy they fetched: none is disallowed by
// the version in effect and by the one 24 h before it (as
// TestBehaviorsAgainstRobots checks on the default history).
func TestRobotsHistoryRules(t *testing.T) {
	const rules = 300
	vs, err := RobotsHistory(DefaultHost, rules)
	if err != nil {
		t.Fatal(err)
	}
	rule := regexp.MustCompile(`(?m)^(Allow|Disallow):.*$`)
	for i, v := range vs {
		want := []int{51, 54, 60}[i] + rules - HandWrittenRules
		if n := len(rule.FindAllString(v.Text, -1)); n != want {
			t.Errorf("version %d has %d rules, want %d", i, n, want)
		}
	}
	last := rule.FindAllString(vs[2].Text, -1)
	added := last[HandWrittenRules:]
	if len(added) != len(slices.Compact(slices.Sorted(slices.Values(added)))) {
		t.Error("the added rules repeat one another")
	}
	cfg := RealisticConfig(50_000)
	cfg.RobotsRules = rules
	disallowed := map[string]int{}
	var polite, browsersDisallowed int
	err = Generate(cfg, func(r *Request) error {
		now, before := judge(vs, r)
		switch {
		case r.Behavior == Browser:
			if !now {
				browsersDisallowed++
			}
		case r.Behavior.obeys():
			polite++
			if !now && !before {
				disallowed[r.Actor]++
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(disallowed) > 0 || polite == 0 {
		t.Errorf("polite crawlers (%d requests) disallowed outside the grace: %v", polite, disallowed)
	}
	if browsersDisallowed == 0 {
		t.Error("browsers made no disallowed request")
	}
	if !strings.Contains(vs[2].Text, "User-agent: AhrefsBot\nDisallow: ") {
		t.Error("no added group for AhrefsBot")
	}
}
