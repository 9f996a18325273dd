package audit

import (
	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/robots"
)

// groupOf returns the group of r that a request of bot, with the
// User-Agent header ua, is judged by (RFC 9309 §2.2.1, and the operator's
// own documented rules, package bots). none is a group
// with no rules, for a crawler no group restricts.
//
// The order:
//  1. a group naming a product of the header (robots.Resolve: the longest
//     token wins, "Googlebot-Image" before "Googlebot");
//  2. else, for a crawler of the table, the group naming the bot's own name,
//     so that a request named Googlebot is judged by the Googlebot group
//     even when its header spells the crawler otherwise ("Googlebot-Mobile");
//  3. else the groups its operator says it follows (rule.Follows, in order:
//     Googlebot-Image and Applebot follow Googlebot);
//  4. else none when the operator says the crawler ignores "*"
//     (AdsBot-Google), or the "*" group.
//
// So the bot's name and its group are consistent: the group is the bot's
// own, a product its header names, a fallback its operator documents, or
// "*".
func groupOf(r *robots.Robots, ua string, bot bots.Bot, rule bots.CrawlerRule, none *robots.Resolved) *robots.Resolved {
	star := r.Default()
	g := r.Resolve(ua)
	if g != star && g.Matched() {
		return g
	}
	if bot.Known {
		if h := r.Resolve(bot.Name); h != star && h.Matched() {
			return h
		}
	}
	for _, t := range rule.Follows {
		if h := r.Resolve(t); h != star && h.Matched() {
			return h
		}
	}
	if rule.IgnoresStar {
		return none
	}
	return g
}
