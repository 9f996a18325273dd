package history

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// benchHistory makes a history of n versions a day apart and the
// timestamps of 2^16 rows over about 40 days, in time order.
func benchHistory(b *testing.B, n int) (*History, []int64) {
	b.Helper()
	base := time.Date(2026, 9, 1, 0, 0, 0, 0, time.UTC)
	vs := make([]Version, n)
	for i := range vs {
		vs[i] = Version{Start: base.Add(time.Duration(i) * 24 * time.Hour), Name: fmt.Sprint(i)}
	}
	h, err := build("bench", vs, nil, false, Options{})
	if err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	ts := make([]int64, 1<<16)
	us := base.UnixMicro() - 3600e6
	for i := range ts {
		us += r.Int64N(106e6)
		ts[i] = us
	}
	return h, ts
}

func BenchmarkAtMicros(b *testing.B) {
	for _, n := range []int{3, 100} {
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			h, ts := benchHistory(b, n)
			b.ReportAllocs()
			sink := 0
			for i := 0; b.Loop(); i++ {
				id, _ := h.AtMicros(0, ts[i&(len(ts)-1)])
				sink += id
			}
			_ = sink
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

func BenchmarkCursor(b *testing.B) {
	for _, n := range []int{3, 100} {
		b.Run(fmt.Sprintf("versions=%d", n), func(b *testing.B) {
			h, ts := benchHistory(b, n)
			c := h.Cursor(0)
			b.ReportAllocs()
			sink := 0
			for i := 0; b.Loop(); i++ {
				id, _ := c.At(ts[i&(len(ts)-1)])
				sink += id
			}
			_ = sink
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}

func BenchmarkLookup(b *testing.B) {
	h, err := build("bench", []Version{{Host: "a.example", Name: "a"}, {Host: "www.example.com", Name: "b"}}, nil, true, Options{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := h.Lookup("www.example.com:443"); !ok {
			b.Fatal("not found")
		}
	}
}

// BenchmarkLoadRealDir loads all 437 versions of ../shared/data/robots-history.
func BenchmarkLoadRealDir(b *testing.B) {
	dir := shareddata.Path(b, "robots-history")
	b.ReportAllocs()
	var bytes int64
	for b.Loop() {
		h, err := Load(dir, Options{})
		if err != nil {
			b.Fatal(err)
		}
		bytes = 0
		for _, v := range h.All() {
			bytes += int64(len(v.Data))
		}
	}
	b.SetBytes(bytes)
}

// BenchmarkLoadGit loads a git history of 200 commits of robots.txt.
func BenchmarkLoadGit(b *testing.B) {
	r := newGitRepo(b)
	base := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 200 {
		r.write("robots.txt", fmt.Sprintf("User-agent: *\nDisallow: /v%d/\n", i))
		r.commit(base.Add(time.Duration(i)*time.Hour).Format(time.RFC3339), "v")
	}
	b.ResetTimer()
	for b.Loop() {
		h, err := Load("git:"+r.dir+"//robots.txt", Options{})
		if err != nil {
			b.Fatal(err)
		}
		if len(h.All()) != 200 {
			b.Fatalf("%d versions, want 200", len(h.All()))
		}
	}
	b.ReportMetric(200*float64(b.N)/b.Elapsed().Seconds(), "versions/s")
}
