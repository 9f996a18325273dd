package audit

import (
	"fmt"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/robots"
)

// Real User-Agent headers of the crawlers whose operators document their
// own group rules (from their
// operators' documentation, as in package bots' tests).
const (
	uaGooglebotImageReal = "Googlebot-Image/1.0"
	uaGooglebotMobile    = "Mozilla/5.0 (iPhone; U; CPU iPhone OS 4_1 like Mac OS X; en-us) AppleWebKit/532.9 (KHTML, like Gecko) Version/4.0.5 Mobile/8B117 Safari/6531.22.7 (compatible; Googlebot-Mobile/2.1; +http://www.google.com/bot.html)"
	uaAdsBot             = "AdsBot-Google (+http://www.google.com/adsbot.html)"
	uaChatGPTUser        = "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot"
	uaApplebot           = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/13.1.1 Safari/605.1.15 (Applebot/0.1; +http://www.apple.com/go/applebot)"
)

// groupFor judges ua against robotsTxt as the judge does, with the
// built-in operator rules, and returns the group's name ("" for none) and
// the verdict on path.
func groupFor(t *testing.T, robotsTxt, ua, path string) (group, verdict string) {
	t.Helper()
	rules := bots.BuiltinRules()
	r := robots.Compile(robots.Parse([]byte(robotsTxt)), robots.RFC9309)
	none := robots.Compile(robots.Parse(nil), robots.RFC9309).Default()
	bot := bots.Identify(ua)
	rule, _ := rules.Crawler(bot.Name)
	g := groupOf(r, ua, bot, rule, none)
	d, _ := g.DecideString(path, nil)
	switch {
	case d.Allowed:
		verdict = VerdictAllowed
	case rule.UserTriggered:
		verdict = VerdictUserTriggered
	default:
		verdict = VerdictDisallowed
	}
	return g.Name(), verdict
}

// TestOperatorRulesNamedCrawlers: five crawlers whose operators document
// how they pick their group,
// against robots.txt files with and without their own groups. Sources:
// Google's common crawlers (Googlebot-Image follows Googlebot) and
// special-case crawlers (AdsBot-Google ignores "*") pages, Apple's "About
// Applebot" (follows Googlebot when no group names Applebot), OpenAI's
// bots page (ChatGPT-User: robots.txt may not apply to user actions), and
// package bots' table (Googlebot-Mobile is another spelling of Googlebot).
func TestOperatorRulesNamedCrawlers(t *testing.T) {
	const (
		starOnly   = "User-agent: *\nDisallow: /\n"
		withGoogle = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\n"
		ownGroups  = "User-agent: *\nDisallow: /\n\nUser-agent: Googlebot\nDisallow: /private/\n\n" +
			"User-agent: Googlebot-Image\nUser-agent: Googlebot-Mobile\nUser-agent: AdsBot-Google\nUser-agent: ChatGPT-User\nUser-agent: Applebot\nDisallow: /own/\n"
	)
	for _, c := range []struct {
		name, ua, robots, path string
		group, verdict         string
	}{
		// Googlebot-Image: its own group, else Googlebot's, else "*".
		{"Googlebot-Image own", uaGooglebotImageReal, ownGroups, "/own/x.png", "googlebot-image", VerdictDisallowed},
		{"Googlebot-Image own allows", uaGooglebotImageReal, ownGroups, "/private/x.png", "googlebot-image", VerdictAllowed},
		{"Googlebot-Image follows Googlebot", uaGooglebotImageReal, withGoogle, "/a.png", "googlebot", VerdictAllowed},
		{"Googlebot-Image follows Googlebot disallow", uaGooglebotImageReal, withGoogle, "/private/a.png", "googlebot", VerdictDisallowed},
		{"Googlebot-Image star", uaGooglebotImageReal, starOnly, "/a.png", "*", VerdictDisallowed},
		// Googlebot-Mobile: a group naming it (a product of the header),
		// else the group of the bot it is named as, Googlebot.
		{"Googlebot-Mobile own", uaGooglebotMobile, ownGroups, "/own/", "googlebot-mobile", VerdictDisallowed},
		{"Googlebot-Mobile is Googlebot", uaGooglebotMobile, withGoogle, "/a", "googlebot", VerdictAllowed},
		{"Googlebot-Mobile star", uaGooglebotMobile, starOnly, "/a", "*", VerdictDisallowed},
		// AdsBot-Google: only a group naming it; "*" never.
		{"AdsBot own", uaAdsBot, ownGroups, "/own/", "adsbot-google", VerdictDisallowed},
		{"AdsBot ignores Googlebot and star", uaAdsBot, withGoogle, "/private/", "", VerdictAllowed},
		{"AdsBot ignores star", uaAdsBot, starOnly, "/", "", VerdictAllowed},
		// ChatGPT-User: robots.txt does not apply: would-be disallowed
		// requests are user_triggered, under any group.
		{"ChatGPT-User own", uaChatGPTUser, ownGroups, "/own/", "chatgpt-user", VerdictUserTriggered},
		{"ChatGPT-User own allows", uaChatGPTUser, ownGroups, "/a", "chatgpt-user", VerdictAllowed},
		{"ChatGPT-User star", uaChatGPTUser, starOnly, "/a", "*", VerdictUserTriggered},
		// Applebot: its own group, else Googlebot's, else "*".
		{"Applebot own", uaApplebot, ownGroups, "/own/", "applebot", VerdictDisallowed},
		{"Applebot follows Googlebot", uaApplebot, withGoogle, "/a", "googlebot", VerdictAllowed},
		{"Applebot follows Googlebot disallow", uaApplebot, withGoogle, "/private/", "googlebot", VerdictDisallowed},
		{"Applebot star", uaApplebot, starOnly, "/a", "*", VerdictDisallowed},
	} {
		t.Run(c.name, func(t *testing.T) {
			group, verdict := groupFor(t, c.robots, c.ua, c.path)
			if group != c.group || verdict != c.verdict {
				t.Errorf("group %q, verdict %s; want %q, %s", group, verdict, c.group, c.verdict)
			}
		})
	}
}

// TestOperatorRulesEveryEntry: per entry of the built-in table, a request
// of that crawler against a robots.txt with its own group, with only the
// groups it follows, and with only "*".
func TestOperatorRulesEveryEntry(t *testing.T) {
	rules := bots.BuiltinRules()
	if len(rules.CrawlerRules()) < 15 {
		t.Fatalf("the built-in table has %d crawler rules", len(rules.CrawlerRules()))
	}
	for _, rule := range rules.CrawlerRules() {
		t.Run(rule.Token, func(t *testing.T) {
			if !strings.HasPrefix(rule.Source, "https://") {
				t.Errorf("source %q is not an https URL", rule.Source)
			}
			ua := "Mozilla/5.0 (compatible; " + rule.Token + "/1.0; +https://example.com/bot)"
			if b := bots.Identify(ua); !strings.EqualFold(b.Name, rule.Token) {
				t.Fatalf("%q is identified as %q: the rule would never apply", ua, b.Name)
			}
			own := fmt.Sprintf("User-agent: *\nDisallow: /\n\nUser-agent: %s\nDisallow: /own/\n", rule.Token)
			for _, f := range rule.Follows {
				own += fmt.Sprintf("\nUser-agent: %s\nDisallow: /followed/\n", f)
			}
			group, verdict := groupFor(t, own, ua, "/own/x")
			wantVerdict := VerdictDisallowed
			if rule.UserTriggered {
				wantVerdict = VerdictUserTriggered
			}
			if group != strings.ToLower(rule.Token) || verdict != wantVerdict {
				t.Errorf("with its own group: %q, %s; want %q, %s", group, verdict, strings.ToLower(rule.Token), wantVerdict)
			}
			followed := "User-agent: *\nDisallow: /\n"
			for _, f := range rule.Follows {
				followed += fmt.Sprintf("\nUser-agent: %s\nDisallow: /followed/\n", f)
			}
			group, verdict = groupFor(t, followed, ua, "/followed/x")
			switch {
			case len(rule.Follows) > 0:
				if group != strings.ToLower(rule.Follows[0]) || verdict != VerdictDisallowed {
					t.Errorf("with the groups it follows: %q, %s; want %q, disallowed", group, verdict, strings.ToLower(rule.Follows[0]))
				}
			case rule.IgnoresStar:
				if group != "" || verdict != VerdictAllowed {
					t.Errorf("with only *: %q, %s; want no group, allowed", group, verdict)
				}
			case rule.UserTriggered:
				if group != "*" || verdict != VerdictUserTriggered {
					t.Errorf("with only *: %q, %s; want *, user_triggered", group, verdict)
				}
			}
		})
	}
}

// TestGroupConsistentWithBotName: over every crawler of package bots' table
// whose name is a robots.txt token, a request whose header names it is
// judged by the group naming the bot when there is one, and otherwise by a
// group its operator documents as its fallback, "*", or none: never by a
// group naming another crawler.
func TestGroupConsistentWithBotName(t *testing.T) {
	rules := bots.BuiltinRules()
	none := robots.Compile(robots.Parse(nil), robots.RFC9309).Default()
	checked := 0
	for _, c := range bots.Crawlers() {
		if c.RobotsOnly || c.Leading || !validRobotsToken(c.Name) {
			continue
		}
		uas := []string{
			"Mozilla/5.0 (compatible; " + c.Name + "/2.1; +https://example.com/bot)",
			c.Name + "/1.0",
		}
		// Another spelling of the crawler (Googlebot-Mobile for Googlebot)
		// is named as the crawler, and must be judged as it.
		for _, a := range c.Also {
			if validRobotsToken(a) {
				uas = append(uas, "Mozilla/5.0 (compatible; "+a+"/2.1; +https://example.com/bot)")
			}
		}
		for _, ua := range uas {
			bot := bots.Identify(ua)
			if !bot.IsBot || bot.Name != c.Name {
				continue // another crawler's spelling wins in this header; its own tests cover it
			}
			rule, _ := rules.Crawler(bot.Name)
			// Groups for the bot, for every crawler it might be confused
			// with (other table names that share a prefix), and "*".
			body := "User-agent: *\nDisallow: /star/\n\nUser-agent: " + c.Name + "\nDisallow: /own/\n"
			for _, o := range bots.Crawlers() {
				if o.Name != c.Name && validRobotsToken(o.Name) && (strings.HasPrefix(strings.ToLower(o.Name), strings.ToLower(c.Name)) || strings.HasPrefix(strings.ToLower(c.Name), strings.ToLower(o.Name))) {
					body += "\nUser-agent: " + o.Name + "\nDisallow: /other/\n"
				}
			}
			r := robots.Compile(robots.Parse([]byte(body)), robots.RFC9309)
			if g := groupOf(r, ua, bot, rule, none); g.Name() != strings.ToLower(c.Name) {
				t.Errorf("%q (bot %s) is judged by group %q, want its own", ua, bot.Name, g.Name())
			}
			// Without its own group: a documented fallback, "*" or none.
			body = "User-agent: *\nDisallow: /star/\n"
			for _, f := range rule.Follows {
				body += "\nUser-agent: " + f + "\nDisallow: /followed/\n"
			}
			r = robots.Compile(robots.Parse([]byte(body)), robots.RFC9309)
			g := groupOf(r, ua, bot, rule, none)
			ok := g.Name() == "*" || g.Name() == "" && rule.IgnoresStar
			for _, f := range rule.Follows {
				ok = ok || g.Name() == strings.ToLower(f)
			}
			if !ok {
				t.Errorf("%q (bot %s) without a group of its own is judged by %q", ua, bot.Name, g.Name())
			}
			checked++
		}
	}
	if checked < 200 {
		t.Errorf("only %d headers checked", checked)
	}
}

func validRobotsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
