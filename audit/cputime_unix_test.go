//go:build unix

package audit

import "syscall"

// cpuSeconds returns the CPU time (user and system) used by the process so
// far, so that benchmarks on a shared, busy machine can report throughput
// per CPU second besides the wall-clock figures.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
