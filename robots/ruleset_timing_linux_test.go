package robots

import (
	"syscall"
	"time"
)

// threadCPU returns the CPU time consumed by the calling OS thread, so that
// benchmarks on a shared machine can report decisions per CPU-second next
// to wall-clock figures. The caller must hold runtime.LockOSThread.
func threadCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(1 /* RUSAGE_THREAD */, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
