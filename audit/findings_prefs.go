//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"
	"time"

	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
)

// prefFindings returns the reports' section preferences: for each host of
// which some robots.txt version declares an AI-use preference, every
// version in effect during the period or declaring one, with its
// statements and the exposure of each bot row it judged (up to lim.Bots
// rows per version). Nothing, and no pass over the requests, when no
// version declares any.
func (r *Result) prefFindings(ctx context.Context, lim report.Limits) ([]report.PrefVersion, error) {
	declared := r.Summary.Preferences
	if len(declared) == 0 {
		return nil, nil
	}
	hosts := map[string]bool{}
	statements := map[string][]report.PreferenceStatement{}
	for _, v := range declared {
		hosts[v.Host] = true
		statements[v.Version] = v.Statements
	}
	rows := map[string][]report.PrefExposure{}
	err := r.store.Each(ctx, queries.SQL("report_preferences.sql"), nil, func(v []any) error {
		name := str(v[0])
		rows[name] = append(rows[name], report.PrefExposure{Bot: str(v[1]), Purpose: str(v[2]), Identity: str(v[3]),
			Requests: numeric(v[4]), Exposed: numeric(v[5])})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("report: preferences: %w", err)
	}
	var out []report.PrefVersion
	for _, v := range r.hist.All() {
		if !hosts[v.Host] || (len(rows[v.Name]) == 0 && len(statements[v.Name]) == 0) {
			continue
		}
		pv := report.PrefVersion{Host: v.Host, Name: v.Name, Start: v.Start.UTC(), Statements: statements[v.Name],
			Rows: rows[v.Name], RowsTotal: len(rows[v.Name])}
		if v.Start.IsZero() {
			pv.Start = time.Time{}
		}
		if len(pv.Rows) > lim.Bots {
			pv.Rows = pv.Rows[:lim.Bots]
		}
		out = append(out, pv)
	}
	return out, nil
}
