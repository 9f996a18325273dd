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
	bar              *progressbar.ProgressBar
	w                io.Writer
	bytesRead, lines *atomic.Int64
	start            time.Time
	done             chan struct{}
	exit             chan struct{}
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
	)
	p := &progress{bar: bar, w: w, bytesRead: bytesRead, lines: lines, start: time.Now(),
		done: make(chan struct{}), exit: make(chan struct{})}
	go func() {
		defer close(p.exit)
		t := time.NewTicker(200 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-p.done:
				return
			case now := <-t.C:
				p.update(now)
			}
		}
	}()
	return p
}

// update redraws the bar with the counters as of now.
func (p *progress) update(now time.Time) {
	n := p.lines.Load()
	secs := max(now.Sub(p.start).Seconds(), 1e-3)
	p.bar.Describe(fmt.Sprintf("ingest %s lines, %s lines/s", human(float64(n)), human(float64(n)/secs)))
	_ = p.bar.Set64(p.bytesRead.Load())
}

// stop draws the final state, ends the bar and its line, so that what is
// written next starts on a line of its own.
func (p *progress) stop() {
	close(p.done)
	<-p.exit
	p.update(time.Now())
	_ = p.bar.Finish()
	fmt.Fprintln(p.w)
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
