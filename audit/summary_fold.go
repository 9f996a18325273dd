package audit

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/crawlaudit/crawlaudit/report"
)

// maxSummaryBots bounds the bot rows of Summary.Bots, and so of
// summary.json and the terminal table (a variable for the tests). An
// ordinary audit has a few hundred rows (bot, host, identity); logs with
// millions of invented bot names would have millions, which a person
// does not read and the summary would hold in memory. Past the limit, the
// rows that the summary's order puts last (the least offending) are
// folded, per host and identity, into one row each (botFolds); the
// audit's database keeps every row (--db, query, the reports' queries).
var maxSummaryBots = 100_000

// botFolds sums the bot rows past maxSummaryBots per host and identity.
type botFolds struct {
	n     int64 // rows folded
	byKey map[[2]string]*botFold
}

// botFold is one folded row and the number of rows in it.
type botFold struct {
	row  report.BotRow
	bots int64
}

// add folds r into the row of its host and identity.
func (f *botFolds) add(r *report.BotRow) { f.addFolded(r, 1) }

// addFolded folds r, the sum of n bot rows (summary.sql's folded rows),
// into the row of its host and identity.
func (f *botFolds) addFolded(r *report.BotRow, n int64) {
	if f.byKey == nil {
		f.byKey = make(map[[2]string]*botFold)
	}
	f.n += n
	k := [2]string{r.Host, r.Identity}
	b, ok := f.byKey[k]
	if !ok {
		b = &botFold{row: report.BotRow{Host: r.Host, Identity: r.Identity, FirstSeen: r.FirstSeen, LastSeen: r.LastSeen}}
		f.byKey[k] = b
	}
	b.bots += n
	s := &b.row
	s.Requests += r.Requests
	s.RobotsFetches += r.RobotsFetches
	s.Disallowed += r.Disallowed
	s.DisallowedInGrace += r.DisallowedInGrace
	s.DisallowedUnreachable += r.DisallowedUnreachable
	s.AllowedUnavailable += r.AllowedUnavailable
	s.UserTriggered += r.UserTriggered
	s.CrawlDelayBreaches += r.CrawlDelayBreaches
	s.CrawlDelayUnsupported += r.CrawlDelayUnsupported
	s.Signed += r.Signed
	s.RequestRateBreaches += r.RequestRateBreaches
	s.VisitTimeBreaches += r.VisitTimeBreaches
	s.Unaudited += r.Unaudited
	s.PrefExposed += r.PrefExposed
	// The sum of the rows' addresses: an address several folded bots
	// used counts once per bot.
	s.IPs += r.IPs
	s.Bytes += r.Bytes
	s.Status.Fold(r.Status)
	s.Conduct.Fold(&r.Conduct)
	if r.FirstSeen.Before(s.FirstSeen) {
		s.FirstSeen = r.FirstSeen
	}
	if r.LastSeen.After(s.LastSeen) {
		s.LastSeen = r.LastSeen
	}
}

// identityOrder is the order of summary.sql's identity codes.
var identityOrder = map[string]int{report.IdentityUnverified: 0, report.IdentityVerified: 1, report.IdentitySpoofed: 2}

// rows returns the folded rows, named "(N other bots)", with their
// verdicts, by host and identity.
func (f *botFolds) rows() []report.BotRow {
	out := make([]report.BotRow, 0, len(f.byKey))
	for _, b := range f.byKey {
		r := b.row
		r.Bot = fmt.Sprintf("(%s other bots)", report.Thousands(b.bots))
		r.Judge()
		out = append(out, r)
	}
	slices.SortFunc(out, func(a, b report.BotRow) int {
		return cmp.Or(cmp.Compare(a.Host, b.Host), cmp.Compare(identityOrder[a.Identity], identityOrder[b.Identity]))
	})
	return out
}
