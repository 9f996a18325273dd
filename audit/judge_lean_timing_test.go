//go:build duckdb_arrow

package audit

import "testing"

// BenchmarkJudgeRealisticLean is BenchmarkJudgeRealistic as a lean audit
// (the default summary) runs the judge: no rows built, the requests counted
// (leanCounts) and streamed for the windows, conduct, changes and
// availability (streamKeys), then measured once the logs are read
// (streamKeys.measure). It reports rows per second, ns and CPU ns per bot
// row.
//
//	go test -tags duckdb_arrow -run '^$' -bench JudgeRealisticLean -benchtime 5x -cpu 1 ./audit/
func BenchmarkJudgeRealisticLean(b *testing.B) {
	batches, hist, _ := realisticBatches(b, monthLinesJudge)
	benchJudge(b, batches, hist, func(j *judge) {
		j.stream = newStreamKeys(hist)
		j.lean = newLeanCounts(false)
		for _, rec := range batches {
			if err := j.add(rec); err != nil {
				b.Fatal(err)
			}
			if j.lean.full() {
				j.lean.take(j.mem).Release()
			}
		}
		if why := j.leanGaveUp(); why != "" {
			b.Fatalf("the lean pass gave up: %s", why)
		}
		j.lean.take(j.mem).Release()
		m := j.stream.measure(j.policies, false)
		<-m.done
		if !m.windows || !m.conduct {
			b.Fatal("the windows or the conduct were not streamed")
		}
	})
}
