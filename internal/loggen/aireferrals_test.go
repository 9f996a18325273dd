package loggen

import (
	"strings"
	"testing"

	auditbots "github.com/crawlaudit/crawlaudit/bots"
)

// AIReferrals: about that fraction of the visits land from an AI
// assistant, each named by its Referer or ChatGPT's utm_source, which the
// referrer table knows; the other visits keep the Referers of a month without them.
func TestAIReferrals(t *testing.T) {
	for _, share := range []float64{0, 0.05, 0.2} {
		cfg := RealisticConfig(100_000)
		cfg.AIReferrals = share
		var landings, ai int
		ops := map[string]int{}
		err := Generate(cfg, func(r *Request) error {
			if r.Behavior != Browser || strings.HasPrefix(string(r.Referer), "https://"+r.Host+"/") {
				return nil
			}
			landings++ // a visit's first page: no Referer of the site
			p, ok := auditbots.LookupReferer(string(r.Referer))
			if !ok || p.Kind != "ai-assistant" {
				p, ok = auditbots.LookupUTMSource(auditbots.UTMSource(string(r.Target)))
			}
			if ok && p.Kind == "ai-assistant" {
				ai++
				ops[p.Operator]++
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		got := float64(ai) / float64(landings)
		if got < share*0.8 || got > share*1.2 {
			t.Errorf("share %g: %d of %d visits from an AI assistant (%.3f)", share, ai, landings, got)
		}
		if share > 0 {
			for _, op := range []string{"OpenAI", "Perplexity", "Anthropic", "Microsoft", "Google"} {
				if ops[op] == 0 {
					t.Errorf("share %g: no visit from %s's assistant", share, op)
				}
			}
		}
	}
	cfg := RealisticConfig(1000)
	cfg.AIReferrals = 1
	if err := Generate(cfg, func(*Request) error { return nil }); err == nil {
		t.Error("AIReferrals 1 accepted")
	}
}
