package robots

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"runtime"
	"sort"
	"strings"
	"testing"

	"github.com/crawlaudit/crawlaudit/internal/shareddata"
)

// corpusFile is the Allow/Disallow lines of one real robots.txt, all
// groups together: the matcher does not care which group a rule is in.
type corpusFile struct {
	name  string
	rules []Rule
}

// readCorpus reads the rules of every file of a robots.txt tarball with a
// deliberately simple line scanner (the real parser is tested elsewhere):
// key before ":", comment after "#", Allow and Disallow only.
func readCorpus(tb testing.TB, rel string) []corpusFile {
	tb.Helper()
	f, err := os.Open(shareddata.Path(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		tb.Fatalf("cannot read %s: %v", rel, err)
	}
	tr := tar.NewReader(zr)
	var files []corpusFile
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			tb.Fatalf("cannot read %s: %v", rel, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, 512<<10))
		if err != nil {
			tb.Fatalf("cannot read %s in %s: %v", h.Name, rel, err)
		}
		cf := corpusFile{name: h.Name}
		for i, line := range strings.FieldsFunc(string(data), func(r rune) bool { return r == '\n' || r == '\r' }) {
			if j := strings.IndexByte(line, '#'); j >= 0 {
				line = line[:j]
			}
			k, v, ok := strings.Cut(line, ":")
			if !ok {
				continue
			}
			switch strings.ToLower(strings.TrimSpace(k)) {
			case "allow":
				cf.rules = append(cf.rules, Rule{Allow: true, Pattern: strings.TrimSpace(v), Line: i + 1})
			case "disallow":
				cf.rules = append(cf.rules, Rule{Pattern: strings.TrimSpace(v), Line: i + 1})
			}
		}
		if len(cf.rules) > 0 {
			files = append(files, cf)
		}
	}
	return files
}

// readLogTargets returns the distinct request targets of a combined-format
// access log (plain or gzip), in order of first appearance.
func readLogTargets(tb testing.TB, rel string) [][]byte {
	tb.Helper()
	f, err := os.Open(shareddata.Path(tb, rel))
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	var r io.Reader = f
	if strings.HasSuffix(rel, ".gz") {
		zr, err := gzip.NewReader(f)
		if err != nil {
			tb.Fatalf("cannot read %s: %v", rel, err)
		}
		r = zr
	}
	seen := map[string]bool{}
	var out [][]byte
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Bytes()
		i := bytes.IndexByte(line, '"')
		if i < 0 {
			continue
		}
		req := line[i+1:]
		if j := bytes.IndexByte(req, '"'); j >= 0 {
			req = req[:j]
		}
		parts := bytes.Fields(req)
		if len(parts) < 2 || seen[string(parts[1])] {
			continue
		}
		seen[string(parts[1])] = true
		out = append(out, bytes.Clone(parts[1]))
	}
	return out
}

func realTargets(tb testing.TB) [][]byte {
	var targets [][]byte
	for _, rel := range []string{
		"real-logs/elastic-apache-semicomplete-2015/apache_logs.gz",
		"real-logs/almhuette-raith-apache-2019/access.log.gz",
		"real-logs/zanbil-shop-nginx-2019-sample/access.log",
	} {
		targets = append(targets, readLogTargets(tb, rel)...)
	}
	return targets
}

// ownTargets makes targets out of a file's own patterns, so that the rules
// of every file are hit, not just passed by.
func ownTargets(rules []Rule) [][]byte {
	var out [][]byte
	for _, r := range rules {
		v := strings.TrimSuffix(r.Pattern, "$")
		out = append(out, []byte(strings.ReplaceAll(v, "*", "x/")), []byte(strings.ReplaceAll(v, "*", "")+"z"))
	}
	return out
}

// Every real robots.txt of the Protego corpus, against real log targets and
// targets made from its own patterns: the compiled matcher agrees with the
// dynamic-programming reference under every profile.
func TestDecideRealCorpusAgreesWithReference(t *testing.T) {
	if testing.Short() {
		t.Skip("skipping the corpus comparison in -short mode")
	}
	files := readCorpus(t, "robots-corpus/protego-top10k-2019.tar.gz")
	logTargets := realTargets(t)
	sort.Slice(logTargets, func(a, b int) bool { return len(logTargets[a]) < len(logTargets[b]) })
	// An even spread of short and long real targets.
	var sample [][]byte
	for i := 0; i < len(logTargets); i += len(logTargets)/150 + 1 {
		sample = append(sample, logTargets[i])
	}
	decisions, disallowed, sampled := 0, 0, 0
	for fi, cf := range files {
		if fi%24 != 0 || len(cf.rules) > 200 {
			continue // a sample: the reference is quadratic
		}
		sampled++
		targets := append(ownTargets(cf.rules), sample...)
		for _, p := range Profiles {
			rs := CompileRules(cf.rules, p)
			var buf []byte
			for _, tg := range targets {
				var got int
				got, buf = rs.Decide(tg, buf)
				if want := refDecide(cf.rules, p, string(tg)); got != want {
					t.Fatalf("%s, %s, target %q: Decide = %d, reference = %d", cf.name, p, tg, got, want)
				}
				decisions++
				if got >= 0 && !cf.rules[got].Allow {
					disallowed++
				}
			}
		}
	}
	t.Logf("%d files of %d with rules, %d real targets: %d decisions agree with the reference (%d disallowed)",
		sampled, len(files), len(logTargets), decisions, disallowed)
}

// BenchmarkDecideRealCorpus: the rules of real robots.txt files (Protego
// top-10k corpus, each file's rules as one group) against the distinct
// targets of three real access logs.
func BenchmarkDecideRealCorpus(b *testing.B) {
	files := readCorpus(b, "robots-corpus/protego-top10k-2019.tar.gz")
	targets := realTargets(b)
	var sets []*RuleSet
	for _, cf := range files {
		sets = append(sets, CompileRules(cf.rules, RFC9309))
	}
	var size int
	for _, t := range targets {
		size += len(t)
	}
	b.SetBytes(int64(size / len(targets)))
	b.ReportAllocs()
	buf := make([]byte, 0, 1024)
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	b.ResetTimer()
	cpu0 := threadCPU()
	for i := 0; i < b.N; i++ {
		// Each set answers a run of 64 targets, as the audit judges a
		// batch of requests against one group.
		rs := sets[(i/64)%len(sets)]
		_, buf = rs.Decide(targets[i%len(targets)], buf)
	}
	cpu := threadCPU() - cpu0
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "decisions/s")
	if cpu > 0 {
		b.ReportMetric(float64(b.N)/cpu.Seconds(), "decisions/cpu-s")
	}
}
