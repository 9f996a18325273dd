//go:build !linux

package robots

import "time"

// threadCPU is not available here: benchmarks report wall-clock figures only.
func threadCPU() time.Duration { return 0 }
