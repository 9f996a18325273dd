//go:build duckdb_arrow

package audit

import (
	"context"
	"fmt"

	"github.com/apache/arrow-go/v18/arrow"

	"github.com/crawlaudit/crawlaudit/audit/store"
)

// insertJudged stores in s a batch that judgeInto hands over: judged rows
// (RequestsSchema), claims (ClaimsSchema), bots rows (BotsSchema) or the
// counts of a lean audit (LeanSchema). rec is
// not released.
func insertJudged(ctx context.Context, s *store.Store, rec arrow.RecordBatch) error {
	if rec.NumRows() == 0 {
		return nil
	}
	switch sc := rec.Schema(); {
	case sc.Equal(RequestsSchema):
		return s.InsertRequests(ctx, rec)
	case sc.Equal(ClaimsSchema):
		return s.Insert(ctx, "claims", rec)
	case sc.Equal(BotsSchema):
		return s.Insert(ctx, "bots", rec)
	case sc.Equal(LeanSchema):
		return s.Insert(ctx, "lean_counts", rec)
	default:
		return fmt.Errorf("judged batch of schema %s: not one the audit stores", sc)
	}
}
