//go:build !unix

package audit

// cpuSeconds is 0 where the process's CPU time is not measured: the
// benchmarks then report no per-CPU-second figures.
func cpuSeconds() float64 { return 0 }
