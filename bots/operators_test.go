package bots

import (
	"strings"
	"testing"
	"time"
)

func TestBuiltinRules(t *testing.T) {
	r := BuiltinRules()
	for _, c := range []struct {
		token                      string
		ignoresStar, userTriggered bool
		follows                    string
	}{
		{"AdsBot-Google", true, false, ""},
		{"adsbot-google", true, false, ""}, // case-insensitive
		{"Mediapartners-Google", true, false, ""},
		{"Googlebot-Image", false, false, "Googlebot"},
		{"Applebot", false, false, "Googlebot"},
		{"ChatGPT-User", false, true, ""},
		{"Perplexity-User", false, true, ""},
	} {
		rule, ok := r.Crawler(c.token)
		if !ok {
			t.Errorf("%s: no rule", c.token)
			continue
		}
		follows := strings.Join(rule.Follows, ",")
		if rule.IgnoresStar != c.ignoresStar || rule.UserTriggered != c.userTriggered || follows != c.follows {
			t.Errorf("%s: %+v", c.token, rule)
		}
	}
	if _, ok := r.Crawler("Googlebot"); ok {
		t.Errorf("Googlebot has a rule: it reads robots.txt as RFC 9309 says")
	}
	g, ok := r.Operator("google")
	if d, set := g.GraceDuration(); !ok || !set || d != 24*time.Hour {
		t.Errorf("Google's grace = %v (%v), want 24h", d, ok)
	}
	// Crawl-delay: Google's crawlers never support it, Yandex's not since
	// 2018-02-22; Microsoft's do.
	for _, c := range []struct {
		operator string
		ignored  bool
		since    time.Time
	}{
		{"Google", true, time.Time{}},
		{"Yandex", true, time.Date(2018, 2, 22, 0, 0, 0, 0, time.UTC)},
		{"Microsoft", false, time.Time{}},
	} {
		o, _ := r.Operator(c.operator)
		since, ignored := o.CrawlDelayIgnored()
		if ignored != c.ignored || !since.Equal(c.since) {
			t.Errorf("%s: Crawl-delay ignored %v since %v, want %v since %v", c.operator, ignored, since, c.ignored, c.since)
		}
		if ignored && (!strings.HasPrefix(o.CrawlDelay.Source, "https://") || !strings.HasPrefix(o.CrawlDelay.ControlURL, "https://") || o.CrawlDelay.Control == "") {
			t.Errorf("%s: Crawl-delay rule without its source or control: %+v", c.operator, o.CrawlDelay)
		}
	}
	for _, o := range r.OperatorRules() {
		if !strings.HasPrefix(o.Source, "https://") {
			t.Errorf("%s: source %q", o.Operator, o.Source)
		}
	}
}

func TestParseRulesExtendsAndReplaces(t *testing.T) {
	base := BuiltinRules()
	yamlFile := `# my operators
crawlers:
  - token: MyBot
    follows: [Googlebot]
    source: https://example.com/mybot
  - token: AdsBot-Google        # the file's entry replaces the built-in one
    source: https://example.com/ads
operators:
  - operator: Google
    grace: 0s
    source: https://example.com/grace
`
	r, err := ParseRules("ops.yaml", []byte(yamlFile), base)
	if err != nil {
		t.Fatal(err)
	}
	if c, ok := r.Crawler("mybot"); !ok || c.Follows[0] != "Googlebot" {
		t.Errorf("MyBot: %+v %v", c, ok)
	}
	if c, _ := r.Crawler("AdsBot-Google"); c.IgnoresStar {
		t.Errorf("AdsBot-Google still ignores *: the file's entry did not replace the built-in one")
	}
	if _, ok := r.Crawler("ChatGPT-User"); !ok {
		t.Errorf("the file dropped the built-in ChatGPT-User: it should extend the table")
	}
	if d, set := must(r.Operator("Google")).GraceDuration(); !set || d != 0 {
		t.Errorf("Google's grace = %v, %v; want 0s, set", d, set)
	}
	jsonFile := `{"replace": true, "crawlers": [{"token": "OnlyBot", "ignores_star": true, "source": "https://example.com"}]}`
	r, err = ParseRules("ops.json", []byte(jsonFile), base)
	if err != nil {
		t.Fatal(err)
	}
	if len(r.CrawlerRules()) != 1 || len(r.OperatorRules()) != 0 {
		t.Errorf("replace: %d crawler and %d operator rules, want 1 and 0", len(r.CrawlerRules()), len(r.OperatorRules()))
	}
}

func must(o OperatorRule, ok bool) OperatorRule { return o }

func TestParseRulesErrors(t *testing.T) {
	for _, c := range []struct{ name, file, want string }{
		{"unknown field", "crawlers:\n  - token: X\n    ignore_star: true\n", "ops.yaml: line 3: field ignore_star not found"},
		{"bad token", "crawlers:\n  - token: X\n    source: s\n  - token: \"my bot\"\n", "ops.yaml:4: crawler token \"my bot\""},
		{"twice", "crawlers:\n  - token: X\n  - token: x\n", "ops.yaml:3: crawler \"x\" is listed twice"},
		{"follows itself", "crawlers:\n  - token: X\n    follows: [x]\n", "ops.yaml:2: crawler \"X\" follows \"x\""},
		{"user-triggered and follows", "crawlers:\n  - token: X\n    user_triggered: true\n    follows: [Y]\n", "ops.yaml:2: crawler \"X\": robots.txt does not apply"},
		{"bad grace", "operators:\n  - operator: Google\n    grace: 1 day\n", "ops.yaml:2: operator \"Google\": grace \"1 day\""},
		{"negative grace", "operators:\n  - operator: Google\n    grace: -1h\n", "ops.yaml:2: operator \"Google\": grace \"-1h\""},
		{"no operator", "operators:\n  - grace: 1h\n", "ops.yaml:2: an operator entry without an operator"},
		{"bad crawl_delay since", "operators:\n  - operator: Yandex\n    crawl_delay: {unsupported: true, since: 22.02.2018}\n", "ops.yaml:2: operator \"Yandex\": crawl_delay since \"22.02.2018\""},
		{"unknown crawl_delay field", "operators:\n  - operator: Yandex\n    crawl_delay: {ignored: true}\n", "field ignored not found"},
		{"not yaml", "crawlers: [\n", "ops.yaml: yaml: line 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseRules("ops.yaml", []byte(c.file), nil)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}
