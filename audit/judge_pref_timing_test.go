package audit

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"

	"github.com/crawlaudit/crawlaudit/internal/loggen"
	"github.com/crawlaudit/crawlaudit/robots/history"
)

// prefLines are AI-use preference lines put before the first group of
// every version of the realistic month's robots.txt for
// BenchmarkJudgeRealisticPrefs: they apply to every crawler, one with a
// path, both directives.
const prefLines = "Content-Usage: train-ai=n, search=y\nContent-Usage: /blog/ train-ai=y\nContent-Signal: search=yes, ai-input=no\n\n"

// BenchmarkJudgeRealisticPrefs is BenchmarkJudgeRealistic with prefLines
// in every robots.txt version: the judge then asks, once per group and
// path, which preference is in effect, and marks exposed requests. Compare
// its ns/row with BenchmarkJudgeRealistic's in the same run.
//
//	go test -run '^$' -bench 'JudgeRealistic(Prefs)?$' -benchtime 3x -count 5 ./audit/
func BenchmarkJudgeRealisticPrefs(b *testing.B) {
	batches, _, _ := realisticBatches(b, monthLinesJudge)
	dir := b.TempDir()
	host := filepath.Join(dir, loggen.DefaultHost)
	vs, err := loggen.RobotsHistory(loggen.DefaultHost, loggen.RealisticConfig(monthLinesJudge).RobotsRules)
	if err == nil {
		err = os.MkdirAll(host, 0o755)
	}
	for _, v := range vs {
		if err == nil {
			err = os.WriteFile(filepath.Join(host, v.FileName()), []byte(prefLines+v.Text), 0o644)
		}
	}
	if err != nil {
		b.Fatal(err)
	}
	hist, err := history.Load(dir, history.Options{})
	if err != nil {
		b.Fatal(err)
	}
	exposed := 0
	benchJudge(b, batches, hist, func(j *judge) {
		exposed = 0
		count := func() {
			recs := append([]arrow.RecordBatch{j.flush()}, j.spilled()...)
			for _, rec := range recs {
				col := rec.Column(rcPrefExposed).(*array.Boolean)
				for i := range col.Len() {
					if col.Value(i) {
						exposed++
					}
				}
				rec.Release()
			}
		}
		for _, rec := range batches {
			if err := j.add(rec); err != nil {
				b.Fatal(err)
			}
			if j.pending() >= flushRows {
				count()
			}
		}
		count()
	})
	if exposed == 0 {
		b.Fatal("no request exposed: the preference lines were not read")
	}
	b.ReportMetric(float64(exposed), "exposed")
}
