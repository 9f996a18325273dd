//go:build duckdb_arrow

package audit

import (
	"testing"

	"github.com/crawlaudit/crawlaudit/ingest/logfmt"
	"github.com/crawlaudit/crawlaudit/internal/loggen"
)

// BenchmarkReferralCount: the filter's referral count per human request
// of the realistic month as a combined log holds it (no host), and with
// 5 % of the visits from AI assistants.
//
//	go test -tags duckdb_arrow ./audit -run '^$' -bench ReferralCount
func BenchmarkReferralCount(b *testing.B) {
	for _, tc := range []struct {
		name  string
		share float64
	}{{"realistic", 0}, {"realistic, 5% AI landings", 0.05}} {
		cfg := loggen.RealisticConfig(200_000)
		cfg.AIReferrals = tc.share
		var rows []logfmt.Row
		err := loggen.Generate(cfg, func(r *loggen.Request) error {
			if r.Behavior != loggen.Browser {
				return nil
			}
			row := logfmt.Row{Target: append([]byte(nil), r.Target...)}
			if len(r.Referer) > 0 {
				row.Referer = append([]byte(nil), r.Referer...)
			}
			if len(rows) < 4096 { // in cache, as a row just parsed is
				rows = append(rows, row)
			}
			return nil
		})
		if err != nil {
			b.Fatal(err)
		}
		b.Run(tc.name, func(b *testing.B) {
			var c referralCounter
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				c.count(&rows[i%len(rows)])
			}
		})
	}
}
