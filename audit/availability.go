package audit

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/crawlaudit/crawlaudit/queries"
	"github.com/crawlaudit/crawlaudit/report"
)

// robotsStatus reads the periods availability.sql found (summary.json's
// "robots_status"), with the requests each one saw and
// changed (queries/robots_status.sql).
func (r *Result) robotsStatus(ctx context.Context) ([]report.RobotsPeriod, error) {
	if r.noRobotsPeriods {
		return []report.RobotsPeriod{}, nil
	}
	rows, err := r.store.Query(ctx, queries.SQL("robots_status.sql"))
	if err != nil {
		return nil, fmt.Errorf("robots_status: %w", err)
	}
	defer rows.Close()
	out := []report.RobotsPeriod{}
	for rows.Next() {
		var p report.RobotsPeriod
		var to sql.NullTime
		if err := rows.Scan(&p.Host, &p.Operator, &p.Kind, &p.From, &to, &p.Status, &p.Bot, &p.File, &p.Line, &p.Requests, &p.Affected); err != nil {
			return nil, fmt.Errorf("robots_status: %w", err)
		}
		p.From = p.From.UTC()
		if to.Valid {
			t := to.Time.UTC()
			p.To = &t
		}
		out = append(out, p)
	}
	return out, rows.Err()
}

// hoursBetween returns the hours from a to b, for summary.json.
func hoursBetween(a, b time.Time) *float64 {
	h := b.Sub(a).Hours()
	return &h
}
