package verify

import (
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/bots"
)

// TestSourceCrawlersAreBots checks sources.json against package bots'
// table: a crawler a range list or a reverse DNS domain verifies is looked
// up by the name the table gives it (Bot.Name), so a name the table does
// not know, or knows under another operator, would leave that crawler
// unverified for ever, or let one operator's list judge another's crawler.
//
// notInTable lists the names sources.json gives that the table lacks
// today, each with why it is left: adding a crawler to the table changes
// what the reports say of its requests (its operator and purpose), so it
// is a change of its own. A name fixed in the table must leave the list.
var notInTable = map[string]string{
	// ipverse's name for SE Ranking's site-audit crawler, not checked
	// against SE Ranking's documentation (see its shape_from).
	"SEBot-WA": "unchecked name from ipverse",
}

func TestSourceCrawlersAreBots(t *testing.T) {
	tab, err := table()
	if err != nil {
		t.Fatal(err)
	}
	type claim struct{ where, operator, crawler string }
	var claims []claim
	for _, e := range tab.Sources {
		for _, c := range e.Crawlers {
			claims = append(claims, claim{"source " + e.Name, e.Operator, c})
		}
	}
	for _, d := range tab.DNS {
		for _, c := range d.Crawlers {
			claims = append(claims, claim{"dns entry of " + d.Operator, d.Operator, c})
		}
	}
	if len(claims) == 0 {
		t.Fatal("sources.json names no crawler")
	}
	for _, c := range claims {
		b, ok := bots.Lookup(c.crawler)
		if _, listed := notInTable[c.crawler]; listed {
			if ok {
				t.Errorf("sources.json %s: crawler %q is in package bots' table now: remove it from notInTable", c.where, c.crawler)
			}
			continue
		}
		switch {
		case !ok:
			t.Errorf("sources.json %s: crawler %q is not in package bots' table: add it there, or spell it as the table does", c.where, c.crawler)
		case !strings.EqualFold(b.Name, c.crawler):
			t.Errorf("sources.json %s: crawler %q is another spelling of %q in package bots' table, which names its requests %q: use that name", c.where, c.crawler, b.Name, b.Name)
		case b.Operator != c.operator:
			t.Errorf("sources.json %s (operator %q): crawler %q is %q's in package bots' table", c.where, c.operator, c.crawler, b.Operator)
		}
	}
}
