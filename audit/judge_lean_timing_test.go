//go:build duckdb_arrow

package audit

import (
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/bots"
	"github.com/crawlaudit/crawlaudit/ingest"
	"github.com/crawlaudit/crawlaudit/robots"
	"github.com/crawlaudit/crawlaudit/verify"
)

// BenchmarkJudgeRealisticLean is BenchmarkJudgeRealistic as a lean audit
// (the default summary) runs the judge: no rows built, the requests counted
// (leanCounts) and streamed for the windows, conduct, changes and
// availability (streamKeys), then measured once the logs are read
// (streamKeys.measure). It reports ns and CPU ns per bot row.
//
//	go test -tags duckdb_arrow -run '^$' -bench JudgeRealisticLean -benchtime 5x -cpu 1 ./audit/
func BenchmarkJudgeRealisticLean(b *testing.B) {
	batches, hist, _ := realisticBatches(b, monthLinesJudge)
	mem := ingest.NewPoolAllocator()
	ident := bots.NewIdentifier()
	ranges, err := verify.Snapshot()
	if err != nil {
		b.Fatal(err)
	}
	rows := 0
	for _, rec := range batches {
		rows += int(rec.NumRows())
	}
	b.ReportAllocs()
	start, cpu0 := time.Now(), cpuSeconds()
	for b.Loop() {
		j := newJudge(mem, hist, robots.RFC9309, ident, readyRanges(ranges))
		j.graceUS = (24 * time.Hour).Microseconds()
		j.spillWhileJudging()
		j.stream = newStreamKeys(hist)
		j.lean = newLeanCounts(false)
		for _, rec := range batches {
			if err := j.add(rec); err != nil {
				b.Fatal(err)
			}
			if j.lean.full() {
				j.lean.take(mem).Release()
			}
		}
		if why := j.leanGaveUp(); why != "" {
			b.Fatalf("the lean pass gave up: %s", why)
		}
		j.lean.take(mem).Release()
		m := j.stream.measure(j.policies, false)
		<-m.done
		if !m.windows || !m.conduct {
			b.Fatal("the windows or the conduct were not streamed")
		}
		j.release()
	}
	d := time.Since(start).Seconds() / float64(b.N)
	b.ReportMetric(d*1e9/float64(rows), "ns/row")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(cpu*1e9/float64(b.N)/float64(rows), "cpu-ns/row")
	}
}
