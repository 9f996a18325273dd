package ingest

import (
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/schollz/progressbar/v3"
)

// progress draws a progress bar of the bytes read (compressed bytes for
// compressed files) of the total, and the lines per second, refreshed from
// counters that the readers and workers update atomically.
type progress struct {
	bar  *progressbar.ProgressBar
	done chan struct{}
	exit chan struct{}
}

// startProgress draws on w until stop is called. total is -1 when unknown
// (standard input): the bar is then a spinner with the bytes read.
func startProgress(w io.Writer, total int64, bytesRead, lines *atomic.Int64) *progress {
	bar := progressbar.NewOptions64(total,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetDescription("ingest"),
		progressbar.OptionShowBytes(true),
		progressbar.OptionShowTotalBytes(true),
		progressbar.OptionSetWidth(30),
		progressbar.OptionThrottle(100*time.Millisecond),
		progressbar.OptionShowElapsedTimeOnFinish(),
		progressbar.OptionSetRenderBlankState(true),
		progressbar.OptionOnCompletion(func() { fmt.Fprintln(w) }),
	)
	p := &progress{bar: bar, done: make(chan struct{}), exit: make(chan struct{})}
	go func() {
		defer close(p.exit)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		start := time.Now()
		for {
			select {
			case <-p.done:
				return
			case now := <-t.C:
				n := lines.Load()
				secs := now.Sub(start).Seconds()
				p.bar.Describe(fmt.Sprintf("ingest %s lines, %s lines/s", human(float64(n)), human(float64(n)/secs)))
				_ = p.bar.Set64(bytesRead.Load())
			}
		}
	}()
	return p
}

// stop draws the final state and ends the bar.
func (p *progress) stop() {
	close(p.done)
	<-p.exit
	_ = p.bar.Finish()
}

// human formats n with a k/M/G suffix.
func human(n float64) string {
	switch {
	case n >= 1e9:
		return fmt.Sprintf("%.1fG", n/1e9)
	case n >= 1e6:
		return fmt.Sprintf("%.1fM", n/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%.1fk", n/1e3)
	}
	return fmt.Sprintf("%.0f", n)
}
