//go:build duckdb_arrow

package audit

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/verify"
)

// BenchmarkAuditVerification measures what verification adds to the whole
// audit of the generated month (the target: at most 5%; docs/performance.md
// has the figures): each iteration runs
// the same audit twice, in turn, with the built-in range snapshot and with
// no range list at all (every claim unverified, one per bot, no address
// looked up), so that both see the same phase of this machine's drifting
// speed. It reports the median of each and their ratio
// ("verify/none"; 1.05 is the limit):
//
//	go test -tags duckdb_arrow -run '^$' -bench AuditVerification -benchtime 10x ./audit/
func BenchmarkAuditVerification(b *testing.B) {
	plain, _, robotsDir := benchMonth(b, b.TempDir())
	run := func(ranges *verify.Ranges) (time.Duration, int64) {
		start := time.Now()
		res, err := Run(context.Background(), Config{Robots: robotsDir, Grace: 24 * time.Hour, Ranges: ranges}, []string{plain})
		if err != nil {
			b.Fatal(err)
		}
		d := time.Since(start)
		var verified int64
		if res.Summary.Verification != nil {
			verified = res.Summary.Verification.Identities["verified"]
		}
		res.Close()
		return d, verified
	}
	var with, without []float64
	for i := 0; b.Loop(); i++ {
		// Alternate which goes first, so that neither always follows the
		// other's garbage.
		var dw, dn time.Duration
		var verified int64
		if i%2 == 0 {
			dw, verified = run(nil)
			dn, _ = run(verify.Empty())
		} else {
			dn, _ = run(verify.Empty())
			dw, verified = run(nil)
		}
		if verified == 0 {
			b.Fatal("no request verified with the built-in snapshot")
		}
		with = append(with, dw.Seconds())
		without = append(without, dn.Seconds())
	}
	mw, mn := median(with), median(without)
	b.ReportMetric(mw*1e3, "ms-verify")
	b.ReportMetric(mn*1e3, "ms-none")
	b.ReportMetric(mw/mn, "verify/none")
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
