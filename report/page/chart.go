package page

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/crawlaudit/crawlaudit/report"
)

// The charts of report.html are inline SVG whose geometry is computed
// here, as numbers and point lists; the template writes the elements and
// escapes every label. Nothing here is HTML.

// chart is a chart with a time axis of one slot per day.
type chart struct {
	Title  string // aria-label
	W, H   int
	X0, X1 float64 // plot area, left and right
	Y0, Y1 float64 // plot area, top and bottom
	YTicks []tick
	XTicks []tick
	// Markers are the robots.txt version changes.
	Markers []marker
	// Bands shade the robots.txt outages, from the first error response a
	// crawler got to the last.
	Bands []band
	Lines []line
	Bars  []bar
}

type tick struct {
	Pos   string // x or y, formatted
	Label string
}

type marker struct {
	X     string
	Label string // "v2"
	Title string // what a hover shows
}

type band struct {
	X, W  string
	Class string // "out-unreachable" or "out-unavailable"
	Label string // "503"
	Title string
}

type line struct {
	Class  string
	Points string
	Label  string
}

type bar struct {
	X, W string
	Segs []seg
}

type seg struct {
	Y, H  string
	Class string
	Title string
}

func f1(x float64) string { return strconv.FormatFloat(x, 'f', 1, 64) }

// niceMax returns a round number at or above max (1, 2 or 5 times a power
// of ten) and the step of about four ticks up to it.
func niceMax(max int64) (top, step int64) {
	if max <= 0 {
		return 4, 1
	}
	raw := float64(max) / 4
	pow := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if s := m * pow; s >= raw {
			step = int64(math.Ceil(s))
			break
		}
	}
	if step < 1 {
		step = 1
	}
	top = step * ((max + step - 1) / step)
	return top, step
}

// newChart lays out a chart of days with values up to max.
func newChart(title string, days []time.Time, slot time.Duration, max int64, versions []report.RobotsVersion, outages []report.Outage) *chart {
	c := &chart{Title: title, W: 960, H: 280, X0: 56, X1: 944, Y0: 16, Y1: 248}
	top, step := niceMax(max)
	for v := int64(0); v <= top; v += step {
		c.YTicks = append(c.YTicks, tick{Pos: f1(c.y(v, top)), Label: shortNum(v)})
	}
	n := len(days)
	every := 1
	for n/every > 16 {
		every++
	}
	for i, d := range days {
		if i%every == 0 {
			c.XTicks = append(c.XTicks, tick{Pos: f1(c.slotMid(i, n)), Label: d.Format(layout(slot))})
		}
	}
	if n > 0 {
		first, end := days[0], days[n-1].Add(slot)
		x := func(t time.Time) float64 {
			if t.Before(first) {
				t = first
			} else if t.After(end) {
				t = end
			}
			return c.X0 + (c.X1-c.X0)*float64(t.Sub(first))/float64(end.Sub(first))
		}
		for _, o := range outages {
			if o.LastError.Before(first) || !o.From.Before(end) {
				continue
			}
			// An outage of a few minutes still shows: 3 units at least.
			x0, x1 := x(o.From), x(o.LastError)
			c.Bands = append(c.Bands, band{X: f1(x0), W: f1(math.Max(x1-x0, 3)), Class: "out-" + o.Kind, Label: o.Answered(),
				Title: fmt.Sprintf("robots.txt of %s answered %s (%s) from %s to %s", report.Cut(hostName(o.Host), 100), o.Answered(), o.Kind,
					o.From.UTC().Format("2006-01-02 15:04"), o.LastError.UTC().Format("2006-01-02 15:04 UTC"))})
		}
		for _, v := range versions {
			if v.Start.IsZero() || v.Start.Before(first) || !v.Start.Before(end) {
				continue
			}
			c.Markers = append(c.Markers, marker{X: f1(x(v.Start)), Label: fmt.Sprintf("v%d", v.Number),
				Title: fmt.Sprintf("robots.txt version %d of %s live from %s (+%d / -%d lines)", v.Number, report.Cut(hostName(v.Host), 100), v.Start.Format("2006-01-02 15:04 UTC"), v.Added, v.Removed)})
		}
	}
	return c
}

func hostName(h string) string {
	if h == "" {
		return "every host"
	}
	return h
}

func (c *chart) y(v, top int64) float64 {
	return c.Y1 - (c.Y1-c.Y0)*float64(v)/float64(top)
}

func (c *chart) slotMid(i, n int) float64 {
	return c.X0 + (c.X1-c.X0)*(float64(i)+0.5)/float64(n)
}

// lineChart draws one line per series.
func lineChart(title string, days []time.Time, slot time.Duration, series []report.Series, versions []report.RobotsVersion, outages []report.Outage) *chart {
	var max int64
	for _, s := range series {
		for _, v := range s.Values {
			max = maxInt(max, v)
		}
	}
	c := newChart(title, days, slot, max, versions, outages)
	top, _ := niceMax(max)
	for k, s := range series {
		var pts strings.Builder
		for i, v := range s.Values {
			if i > 0 {
				pts.WriteByte(' ')
			}
			pts.WriteString(f1(c.slotMid(i, len(days))) + "," + f1(c.y(v, top)))
		}
		c.Lines = append(c.Lines, line{Class: fmt.Sprintf("c%d", k%8), Points: pts.String(), Label: s.Label})
	}
	return c
}

// stackedChart draws one bar per day, the series stacked.
func stackedChart(title string, days []time.Time, slot time.Duration, series []report.Series, classes []string, versions []report.RobotsVersion, outages []report.Outage) *chart {
	var max int64
	for i := range days {
		var sum int64
		for _, s := range series {
			sum += s.Values[i]
		}
		max = maxInt(max, sum)
	}
	c := newChart(title, days, slot, max, versions, outages)
	top, _ := niceMax(max)
	n := len(days)
	width := (c.X1 - c.X0) / float64(maxInt(int64(n), 1))
	for i, d := range days {
		b := bar{X: f1(c.X0 + width*float64(i) + width*0.15), W: f1(width * 0.7)}
		var base int64
		for k, s := range series {
			v := s.Values[i]
			if v == 0 {
				continue
			}
			yTop, yBase := c.y(base+v, top), c.y(base, top)
			b.Segs = append(b.Segs, seg{Y: f1(yTop), H: f1(yBase - yTop), Class: classes[k%len(classes)],
				Title: fmt.Sprintf("%s: %s %s", d.Format(layout(slot)), report.Thousands(v), s.Label)})
			base += v
		}
		c.Bars = append(c.Bars, b)
	}
	return c
}

// spark is a sparkline: requests per day (or hour, for a one-day
// period), and disallowed ones on the same scale.
type spark struct {
	Requests, Disallowed string
	Title                string
}

const sparkW, sparkH = 120.0, 24.0

// maxSparkPoints bounds a sparkline: a longer period is drawn in buckets
// of several days.
const maxSparkPoints = 62

// bucket sums vs into at most maxSparkPoints buckets of equal days.
func bucket(vs []int64) []int64 {
	if len(vs) <= maxSparkPoints {
		return vs
	}
	per := (len(vs) + maxSparkPoints - 1) / maxSparkPoints
	out := make([]int64, 0, maxSparkPoints)
	for i := 0; i < len(vs); i += per {
		var sum int64
		for _, v := range vs[i:min(i+per, len(vs))] {
			sum += v
		}
		out = append(out, sum)
	}
	return out
}

func sparkline(r *report.BotFindings, unit string) *spark {
	requests, disallowed := bucket(r.Requests), bucket(r.Disallowed)
	var max int64
	for _, v := range requests {
		max = maxInt(max, v)
	}
	if len(requests) == 0 {
		return nil
	}
	pts := func(vs []int64) string {
		var b strings.Builder
		n := len(vs)
		for i, v := range vs {
			if i > 0 {
				b.WriteByte(' ')
			}
			x := 1 + (sparkW-2)*float64(i)/float64(maxInt(int64(n-1), 1))
			y := sparkH - 2
			if max > 0 {
				y = sparkH - 2 - (sparkH-4)*float64(v)/float64(max)
			}
			b.WriteString(f1(x) + "," + f1(y))
		}
		return b.String()
	}
	if len(requests) < len(r.Requests) {
		unit = fmt.Sprintf("%d %ss", (len(r.Requests)+maxSparkPoints-1)/maxSparkPoints, unit)
	}
	s := &spark{Requests: pts(requests), Title: fmt.Sprintf("requests per %s, at most %s", unit, report.Thousands(max))}
	var dis int64
	for _, v := range disallowed {
		dis += v
	}
	if dis > 0 {
		s.Disallowed = pts(disallowed)
		s.Title += "; red: disallowed"
	}
	return s
}

func maxInt(a, b int64) int64 {
	if a > b {
		return a
	}
	return b
}

// shortNum writes an axis label: 950, 1.2k, 35k, 1.5M.
func shortNum(v int64) string {
	switch {
	case v >= 1_000_000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(v)/1e6, 'f', 1, 64), ".0") + "M"
	case v >= 10_000:
		return strconv.FormatInt(v/1000, 10) + "k"
	case v >= 1000:
		return strings.TrimSuffix(strconv.FormatFloat(float64(v)/1e3, 'f', 1, 64), ".0") + "k"
	}
	return strconv.FormatInt(v, 10)
}

// maxChartDays is the longest period the charts draw day by day; a longer
// one is drawn week by week.
const maxChartDays = 92

// weekly sums the series of days into weeks (the last one may be
// shorter), and returns the first day of each week.
func weekly(days []time.Time, series []report.Series) ([]time.Time, []report.Series) {
	var weeks []time.Time
	for i := 0; i < len(days); i += 7 {
		weeks = append(weeks, days[i])
	}
	out := make([]report.Series, len(series))
	for k, s := range series {
		out[k] = report.Series{Label: s.Label, Total: s.Total, Values: make([]int64, len(weeks))}
		for i, v := range s.Values {
			out[k].Values[i/7] += v
		}
	}
	return weeks, out
}

// layout is how an axis labels a slot: "Oct 2" for a day or week, "14:00"
// for an hour.
func layout(slot time.Duration) string {
	if slot < 24*time.Hour {
		return "15:04"
	}
	return "Jan 2"
}
