package robots

import (
	"runtime"
	"testing"
)

// prefBenchFile is a robots.txt with the preferences real sites write:
// Cloudflare's managed Content-Signal line in the "*" group, Content-Usage
// lines with and without paths, and the 150 rules of realisticGroup.
func prefBenchFile() []byte {
	b := []byte("Content-Signal: search=yes, ai-train=no\nUser-agent: *\nContent-Usage: train-ai=n, search=y\n" +
		"Content-Usage: /blog/ train-ai=y\nContent-Usage: /*.pdf$ ai-use=n\nContent-Usage: /docs/public/ train-ai=y, ai-use=y\n" +
		"Content-Signal: /news/ ai-input=no\n")
	for _, r := range realisticGroup() {
		b = append(b, r.String()...)
		b = append(b, '\n')
	}
	return b
}

// BenchmarkPreferences: the preference lookup the audit makes per request,
// next to the rule decision: no allocation.
func BenchmarkPreferences(b *testing.B) {
	g := Compile(Parse(prefBenchFile()), RFC9309).Resolve("Mozilla/5.0 (compatible; GPTBot/1.2; +https://openai.com/gptbot)")
	targets := realisticTargets(1000)
	var size int
	for _, t := range targets {
		size += len(t)
	}
	b.SetBytes(int64(size / len(targets)))
	b.ReportAllocs()
	buf := make([]byte, 0, 64)
	refused := 0
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	cpu0 := threadCPU()
	for i := 0; b.Loop(); i++ {
		var p Preferences
		p, buf = g.Preferences(targets[i%len(targets)], buf)
		if p[TrainAI].Value == No {
			refused++
		}
	}
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "lookups/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "lookups/cpu-s")
	}
	b.ReportMetric(100*float64(refused)/float64(b.N), "%train-ai=n")
}
